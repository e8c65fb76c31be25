import Foundation
import Support
#if canImport(Glibc)
import Glibc
#endif

/// What went wrong talking to the daemon.
public enum FeedError: Error, Equatable, CustomStringConvertible {
    case timeout(String)
    /// The daemon closed the connection (orderly).
    case eof
    /// The daemon closed the connection with unread data on its side (ECONNRESET).
    case reset
    case io(String)
    case unexpected(String)

    /// A readable message.
    public var description: String {
        switch self {
        case .timeout(let what): return "timed out waiting for \(what)"
        case .eof: return "connection closed by the daemon (EOF)"
        case .reset: return "connection reset by the daemon"
        case .io(let m): return "I/O error: \(m)"
        case .unexpected(let m): return m
        }
    }

    /// EOF or reset: either way the daemon closed the connection.
    public var isClosed: Bool { self == .eof || self == .reset }
}

/// A feed client as a program would write one: a Unix stream socket, NDJSON lines.
/// The socket is non-blocking and every wait is an async sleep, so that many tests
/// can wait at once on a two-core machine without tying up the cooperative pool.
// @unchecked: a client is used by one task at a time (the test that owns it); its mutable
// buffer is never touched concurrently, and the descriptor is closed exactly once.
public final class FeedClient: @unchecked Sendable {
    /// The socket (non-blocking, close-on-exec).
    public let fd: Int32
    /// The socket path connected to.
    public let path: String
    private var buffer: [UInt8] = []
    private var scanFrom = 0
    private var isOpen = true
    /// The `hello` the daemon sent on connect (read by `connect(path:)`).
    public var hello: JSONValue = .null
    /// Every message received so far, in order (heartbeats included).
    public private(set) var received: [JSONValue] = []
    /// Total bytes read from the socket.
    public private(set) var bytesRead = 0
    /// The raw line of the last message returned by `next`.
    public private(set) var lastLine: [UInt8] = []

    /// Connects; when `readHello`, waits for and checks the `hello`.
    public static func connect(path: String, readHello: Bool = true, timeout: Double = 5) async throws -> FeedClient {
        let client = try FeedClient(connecting: path)
        if readHello {
            let hello = try await client.next(timeout: timeout, skipHeartbeats: false)
            guard hello["type"]?.stringValue == "hello" else {
                throw FeedError.unexpected("expected hello, got \(hello)")
            }
            client.hello = hello
        }
        return client
    }

    /// Connects synchronously (no hello read).
    public init(connecting path: String) throws {
        self.path = path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw FeedError.io("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            Glibc.close(fd)
            throw FeedError.io("socket path too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0 else {
            let message = String(cString: strerror(errno))
            Glibc.close(fd)
            throw FeedError.io("connect \(path): \(message)")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        self.fd = fd
    }

    deinit { close() }

    /// Closes the socket (idempotent).
    public func close() {
        guard isOpen else { return }
        isOpen = false
        Glibc.close(fd)
    }

    // MARK: - Sending

    /// Sends raw bytes, waiting while the socket is full.
    public func sendRaw(_ bytes: [UInt8], timeout: Double = 5) async throws {
        var offset = 0
        let deadline = monotonicNow() + timeout
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n > 0 { offset += n; continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                if monotonicNow() >= deadline { throw FeedError.timeout("the daemon to accept our request") }
                try await pause(0.005)
                continue
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EPIPE || errno == ECONNRESET) { throw FeedError.reset }
            throw FeedError.io("send: \(String(cString: strerror(errno)))")
        }
    }

    /// Sends one line (a newline is appended).
    public func send(line: String) async throws {
        try await sendRaw(Array((line + "\n").utf8))
    }

    /// Sends a request object.
    public func send(_ request: JSONValue) async throws {
        try await send(line: request.canonicalString())
    }

    // MARK: - Receiving

    /// The next complete line, without its newline.
    public func readLine(timeout: Double) async throws -> [UInt8] {
        let deadline = monotonicNow() + timeout
        var chunk = [UInt8](repeating: 0, count: 1 << 18)
        while true {
            if let newline = buffer[scanFrom...].firstIndex(of: 10) {
                let line = Array(buffer[..<newline])
                buffer.removeFirst(newline + 1)
                scanFrom = 0
                return line
            }
            scanFrom = buffer.count
            guard isOpen else { throw FeedError.io("the client was closed") }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
                bytesRead += n
                continue
            }
            if n == 0 { throw FeedError.eof }
            switch errno {
            case EAGAIN, EWOULDBLOCK:
                if monotonicNow() >= deadline { throw FeedError.timeout("a message from the daemon") }
                try await pause(0.005)
            case EINTR: continue
            case ECONNRESET: throw FeedError.reset
            default: throw FeedError.io("recv: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// The next message (heartbeats skipped unless asked for).
    public func next(timeout: Double = 5, skipHeartbeats: Bool = true) async throws -> JSONValue {
        let deadline = monotonicNow() + timeout
        while true {
            let line = try await readLine(timeout: max(0, deadline - monotonicNow()))
            let value: JSONValue
            do {
                value = try JSONValue.parse(line)
            } catch {
                throw FeedError.unexpected("the daemon sent a line that is not JSON: \(String(decoding: line.prefix(200), as: UTF8.self))")
            }
            received.append(value)
            lastLine = line
            if skipHeartbeats, value["type"]?.stringValue == "heartbeat" { continue }
            return value
        }
    }

    /// The next message, which must be of `type` (an `error`/other message throws).
    public func next(_ type: String, timeout: Double = 5) async throws -> JSONValue {
        let message = try await next(timeout: timeout)
        guard message["type"]?.stringValue == type else {
            throw FeedError.unexpected("expected a \(type) message, got \(Self.brief(message))")
        }
        return message
    }

    /// Waits `seconds` and returns the first non-heartbeat message that arrives, if any
    /// (`nil`: the daemon stayed silent).
    public func messageWithin(_ seconds: Double) async throws -> JSONValue? {
        do {
            return try await next(timeout: seconds)
        } catch {
            if let feedError = error as? FeedError, case .timeout = feedError { return nil }
            throw error
        }
    }

    /// Reads and discards until the daemon closes the connection; returns how it closed
    /// (`.eof`/`.reset`), or `.timeout` when it stayed open.
    public func readUntilClosed(timeout: Double) async -> FeedError {
        let deadline = monotonicNow() + timeout
        while true {
            do {
                _ = try await readLine(timeout: max(0, deadline - monotonicNow()))
            } catch {
                return (error as? FeedError) ?? .io("\(error)")
            }
        }
    }

    /// A request and its (first non-heartbeat) answer.
    public func request(_ request: JSONValue, timeout: Double = 5) async throws -> JSONValue {
        try await send(request)
        return try await next(timeout: timeout)
    }

    /// A message shortened to 400 characters, for failure messages.
    public static func brief(_ message: JSONValue) -> String {
        let text = message.canonicalString()
        return text.count > 400 ? String(text.prefix(400)) + "…" : text
    }
}
