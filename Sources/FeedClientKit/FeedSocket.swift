import Foundation
import Glibc
import FeedProtocol
import Threads

/// A blocking client connection to the feed socket: write request lines, read
/// message lines (`SubscriptionDriver`, eventctl's one-shot requests, the benchmarks).
public final class FeedSocket {
    /// The connected socket (closed with the object).
    public let fd: Int32
    private var buffer: [UInt8] = []
    private var start = 0

    /// Why connecting failed.
    public struct Unavailable: Error, CustomStringConvertible, Sendable {
        public var description: String

        /// A failure saying `description`.
        public init(description: String) { self.description = description }
    }

    /// The process at the other end is not one the client trusts (`SO_PEERCRED`):
    /// someone else's eventd, or an impostor in its place.
    public struct UntrustedPeer: Error, CustomStringConvertible, Sendable {
        public var path: String
        public var peerUID: UInt32
        public var description: String {
            "the socket \(path) is served by uid \(peerUID), not by you, root or the system eventd; refusing to talk to it (someone else's socket?)"
        }
    }

    /// Connects to `path`; with `trustedPeers`, throws `UntrustedPeer` unless the
    /// process that listens there runs as one of those uids.
    public convenience init(path: String, trustedPeers: Set<UInt32>? = nil) throws {
        try self.init(connector: FeedSocketConnector(path: path, trustedPeers: trustedPeers))
    }

    /// Connects through `connector` (its checks, its errors).
    public init(connector: FeedSocketConnector) throws {
        fd = try connector.connect()
    }

    /// Takes over a connected stream socket (one end of a `socketpair` in tests, or a
    /// connection made elsewhere); it is closed with the object.
    public init(adopting fd: Int32) {
        self.fd = fd
    }

    deinit { close(fd) }

    /// Sends one request as a line.
    public func send(_ request: Request) throws {
        let bytes = request.line
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0 { if errno == EINTR { continue }; throw Unavailable(description: String(cString: strerror(errno))) }
            offset += n
        }
    }

    /// The next line (without `\n`), or nil at end of stream; waits at most `timeout`
    /// for bytes (nil: forever), else throws.
    public func readLine(timeout: Duration? = nil) throws -> [UInt8]? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 10) {
                let line = Array(buffer[start..<newline])
                start = newline + 1
                if start > 1 << 20 { buffer.removeFirst(start); start = 0 }
                return line
            }
            if let timeout {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&p, 1, timeout.pollMilliseconds)
                if ready == 0 { throw Unavailable(description: "timed out waiting for the daemon") }
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return nil }
            if n < 0 { if errno == EINTR { continue }; throw Unavailable(description: String(cString: strerror(errno))) }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    /// Whether a line can be read now: one is buffered, or bytes (or the end of the
    /// stream) arrive within `timeout`. A caller that must also keep a clock (a status
    /// bar's minute) waits here, then reads.
    public func waitForInput(timeout: Duration) -> Bool {
        if buffer[start...].contains(10) { return true }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&p, 1, min(timeout, .seconds(86_400)).pollMilliseconds)
            if ready < 0, errno == EINTR { continue }
            return ready != 0
        }
    }

    /// The next message, decoded.
    public func readMessage(timeout: Duration? = nil) throws -> FeedMessage? {
        guard let line = try readLine(timeout: timeout) else { return nil }
        return try FeedMessage.decode(line)
    }
}
