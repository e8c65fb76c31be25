import Foundation
import CanonicalJSON
#if canImport(Glibc)
import Glibc
#endif

// The feed client for tests that run their bodies on threads of their own and block
// (ReliabilityTests): the same client, waiting in poll(2) instead of async sleeps.
extension FeedClient {
    /// Connects and, when `readHello`, waits for and checks the `hello`, blocking.
    public static func connectBlocking(path: String, readHello: Bool = true, timeout: Double = 5) throws -> FeedClient {
        let client = try FeedClient(connecting: path)
        if readHello {
            let hello = try client.nextBlocking(timeout: timeout, skipHeartbeats: false)
            guard hello["type"]?.stringValue == "hello" else {
                throw FeedError.unexpected("expected hello, got \(brief(hello))")
            }
            client.hello = hello
        }
        return client
    }

    /// Sends a request object (a line), blocking while the socket is full.
    public func sendBlocking(_ request: JSONValue, timeout: Double = 5) throws {
        let bytes = Array((request.canonicalString() + "\n").utf8)
        var offset = 0
        let deadline = monotonicNow() + timeout
        while try !sendSome(bytes, from: &offset) {
            guard try waitFor(Int16(POLLOUT), until: deadline) else { throw FeedError.timeout("the daemon to accept our request") }
        }
    }

    /// The next complete line, without its newline, blocking.
    public func readLineBlocking(timeout: Double) throws -> [UInt8] {
        let deadline = monotonicNow() + timeout
        var chunk = Self.newChunk()
        while true {
            if let line = try takeLine(using: &chunk) { return line }
            guard try waitFor(Int16(POLLIN), until: deadline) else { throw FeedError.timeout("a message from the daemon") }
        }
    }

    /// The next message (heartbeats skipped unless asked for), blocking.
    public func nextBlocking(timeout: Double = 5, skipHeartbeats: Bool = true) throws -> JSONValue {
        let deadline = monotonicNow() + timeout
        while true {
            let value = try decode(try readLineBlocking(timeout: max(0, deadline - monotonicNow())))
            if skipHeartbeats, value["type"]?.stringValue == "heartbeat" { continue }
            return value
        }
    }

    /// A request and its (first non-heartbeat) answer, blocking.
    public func requestBlocking(_ request: JSONValue, timeout: Double = 5) throws -> JSONValue {
        try sendBlocking(request, timeout: timeout)
        return try nextBlocking(timeout: timeout)
    }

    /// Waits in poll(2) until the socket is ready for `events` or `deadline` passes;
    /// returns false at the deadline. Hang-ups and errors count as ready (the next
    /// read or send reports them).
    private func waitFor(_ events: Int16, until deadline: Double) throws -> Bool {
        while true {
            let remaining = deadline - monotonicNow()
            if remaining <= 0 { return false }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let n = poll(&entry, 1, Int32(min(remaining * 1000, 1000).rounded(.up)))
            if n > 0 { return true }
            if n < 0 && errno != EINTR { throw FeedError.io("poll: \(String(cString: strerror(errno)))") }
        }
    }
}
