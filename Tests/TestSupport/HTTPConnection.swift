import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A test's TCP connection to eventd-web, speaking HTTP/1.1 by hand so that tests can
/// send anything (malformed heads, half a head, no reads at all). Non-blocking; every
/// wait is an async sleep, as `FeedClient`'s, so many tests can wait at once.
// @unchecked: a connection is used by one task at a time (the test that owns it); its
// buffer is never touched concurrently, and the descriptor is closed exactly once.
public final class HTTPConnection: @unchecked Sendable {
    /// The socket.
    public let fd: Int32
    /// Everything received so far.
    public private(set) var received: [UInt8] = []
    /// Whether the server closed its side.
    public private(set) var closedByPeer = false
    private var isOpen = true

    /// Connects to 127.0.0.1:`port`.
    public init(port: UInt16, receiveBuffer: Int32? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
        if var size = receiveBuffer { setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            let message = String(cString: strerror(errno))
            // Every stored property is set, so the throw runs `deinit`, which closes the
            // descriptor: closing it here as well would close whatever took its number
            // meanwhile (another test's socket).
            throw HarnessError("connect 127.0.0.1:\(port): \(message)")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close() }

    /// Closes the connection (once).
    public func close() {
        if isOpen { Glibc.close(fd); isOpen = false }
    }

    /// Sends `text` (all of it; the server reads small heads at once).
    public func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR || errno == EAGAIN { sleepSeconds(0.001); continue }
                let reason = String(cString: strerror(errno))
                // EBADF here means another part of this test process closed our number.
                let open = fcntl(fd, F_GETFD) >= 0 ? "open" : "not open"
                throw HarnessError("send on descriptor \(fd) (\(open), closed by us: \(!isOpen)): \(reason)")
            }
            offset += n
        }
    }

    /// Reads what has arrived, without waiting.
    @discardableResult
    public func poll() -> Int {
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !closedByPeer {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 { received += chunk[0..<n]; total += n; continue }
            if n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) { closedByPeer = true }
            break
        }
        return total
    }

    /// Waits until `condition` holds for what was received, or throws after `timeout`.
    public func wait(timeout: Double, for what: String, _ condition: (HTTPConnection) -> Bool) async throws {
        let deadline = monotonicNow() + timeout
        while true {
            poll()
            if condition(self) { return }
            if closedByPeer { throw HarnessError("connection closed while waiting for \(what); got:\n\(text.prefix(2000))") }
            if monotonicNow() >= deadline { throw HarnessError("timed out waiting for \(what); got:\n\(text.prefix(2000))") }
            try await pause(0.005)
        }
    }

    /// Waits until the server closes the connection.
    public func waitForClose(timeout: Double) async throws {
        let deadline = monotonicNow() + timeout
        while !closedByPeer {
            poll()
            if closedByPeer { return }
            if monotonicNow() >= deadline { throw HarnessError("the server did not close the connection within \(timeout) s") }
            try await pause(0.005)
        }
    }

    /// Waits until a whole response came: its head and `Content-Length` bytes of body
    /// (or, without a length, the close). For servers that keep the connection open.
    public func waitForResponse(timeout: Double) async throws {
        let deadline = monotonicNow() + timeout
        while true {
            poll()
            if let head = text.range(of: "\r\n\r\n") {
                let bodyBytes = text[head.upperBound...].utf8.count
                if let length = header("content-length").flatMap(Int.init), bodyBytes >= length { return }
                if closedByPeer { return }
            } else if closedByPeer {
                throw HarnessError("connection closed before a response; got:\n\(text.prefix(2000))")
            }
            if monotonicNow() >= deadline { throw HarnessError("timed out waiting for a response; got:\n\(text.prefix(2000))") }
            try await pause(0.005)
        }
    }

    /// What was received, as text.
    public var text: String { String(decoding: received, as: UTF8.self) }

    /// The status code of the response received, if its status line came.
    public var status: Int? {
        let t = text
        guard t.hasPrefix("HTTP/1.1 "), t.count >= 12 else { return nil }
        return Int(t.dropFirst(9).prefix(3))
    }

    /// The value of the response header `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let head = text.components(separatedBy: "\r\n\r\n").first ?? ""
        for line in head.components(separatedBy: "\r\n").dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name.lowercased() { return parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return nil
    }

    /// The body received so far (after the head).
    public var body: String {
        guard let range = text.range(of: "\r\n\r\n") else { return "" }
        return String(text[range.upperBound...])
    }

    // MARK: - One request

    /// Sends one request and reads the whole response (the server closes after it).
    public static func get(port: UInt16, _ target: String, method: String = "GET", host: String? = nil,
                           headers: [String] = [], timeout: Double = 10) async throws -> HTTPConnection {
        let connection = try HTTPConnection(port: port)
        var text = "\(method) \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\n"
        for h in headers { text += h + "\r\n" }
        try connection.send(text + "\r\n")
        try await connection.waitForClose(timeout: timeout)
        return connection
    }
}
