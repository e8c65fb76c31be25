import Foundation
import CanonicalJSON
#if canImport(Glibc)
import Glibc
#endif

/// What went wrong talking to the daemon.
public enum FeedError: Error, Equatable, CustomStringConvertible {
    /// Nothing came (or the socket stayed full) in time; says what was awaited.
    case timeout(String)
    /// The daemon closed the connection (orderly).
    case eof
    /// The daemon closed the connection with unread data on its side (ECONNRESET).
    case reset
    /// A system call failed.
    case io(String)
    /// The daemon sent something else than the test expected.
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
/// can wait at once on a two-core machine without tying up the cooperative pool
/// (tests on threads of their own use the `…Blocking` variants, which wait in poll(2)).
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
        do {
            fd = try UnixSocket.connect(path, nonBlocking: true)
        } catch {
            throw FeedError.io("\(error)")
        }
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
        while try !sendSome(bytes, from: &offset) {
            if monotonicNow() >= deadline { throw FeedError.timeout("the daemon to accept our request") }
            try await pause(0.005)
        }
    }

    /// Sends what the socket takes now from `bytes[offset...]`, advancing `offset`;
    /// returns whether everything is sent (false: the socket is full, wait and call again).
    func sendSome(_ bytes: [UInt8], from offset: inout Int) throws -> Bool {
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n > 0 { offset += n; continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return false }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EPIPE || errno == ECONNRESET) { throw FeedError.reset }
            throw FeedError.io("send: \(String(cString: strerror(errno)))")
        }
        return true
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
        var chunk = Self.newChunk()
        while true {
            if let line = try takeLine(using: &chunk) { return line }
            if monotonicNow() >= deadline { throw FeedError.timeout("a message from the daemon") }
            try await pause(0.005)
        }
    }

    /// What one `recv` reads into: allocated per read (not per client, as some tests
    /// hold thousands of clients).
    static func newChunk() -> [UInt8] { [UInt8](repeating: 0, count: 1 << 18) }

    /// A complete line from what is buffered or what the socket has now (read into
    /// `chunk`); nil when there is none yet (wait and call again).
    func takeLine(using chunk: inout [UInt8]) throws -> [UInt8]? {
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
            case EAGAIN, EWOULDBLOCK: return nil
            case EINTR: continue
            case ECONNRESET: throw FeedError.reset
            default: throw FeedError.io("recv: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Parses a line the daemon sent and records it in `received`.
    func decode(_ line: [UInt8]) throws -> JSONValue {
        let value: JSONValue
        do {
            value = try JSONValue.parse(line)
        } catch {
            throw FeedError.unexpected("the daemon sent a line that is not JSON: \(String(decoding: line.prefix(200), as: UTF8.self))")
        }
        received.append(value)
        lastLine = line
        return value
    }

    /// The next message (heartbeats skipped unless asked for).
    public func next(timeout: Double = 5, skipHeartbeats: Bool = true) async throws -> JSONValue {
        let deadline = monotonicNow() + timeout
        while true {
            let value = try decode(try await readLine(timeout: max(0, deadline - monotonicNow())))
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

    /// The next message, which must be a `snapshot`, as a state (its digest checked).
    public func nextSnapshot(timeout: Double = 5) async throws -> FeedState {
        try FeedState(snapshot: try await next("snapshot", timeout: timeout))
    }

    /// The next message, which must be a `resync`, and the snapshot that must follow it:
    /// the resync's `reason` and the new state.
    public func nextResync(timeout: Double = 5) async throws -> (reason: String?, state: FeedState) {
        let resync = try await next("resync", timeout: timeout)
        return (resync["reason"]?.stringValue, try await nextSnapshot(timeout: timeout))
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
