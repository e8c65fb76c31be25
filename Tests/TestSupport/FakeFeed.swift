import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A stand-in for eventd's feed socket, for tests of what the gateway does with lines
/// eventd would rarely send (a snapshot of tens of megabytes): every connection gets
/// `hello`, then the lines `answer` gives for its request line, then the socket closes.
public final class FakeFeed: Sendable {
    /// The socket's path.
    public let path: String
    private let listener: Int32
    private let loop: BackgroundLoop

    /// Listens on `path` and answers each connection on a thread of its own.
    public init(path: String, answer: @escaping @Sendable (String) -> [[UInt8]]) throws {
        self.path = path
        let listener = try UnixSocket.listen(path)
        self.listener = listener
        loop = BackgroundLoop(name: "fake-feed") {
            var ready = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 50) > 0 else { return }
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            // A thread each, as eventd serves its clients at once.
            Thread {
                defer { Glibc.close(fd) }
                var request: [UInt8] = []
                var byte: UInt8 = 0
                while recv(fd, &byte, 1, 0) == 1, byte != 10 { request.append(byte) }
                Self.writeAll(fd, Array(#"{"type":"hello","epoch":"e1","protocol":1,"server":"fake"}"#.utf8) + [10])
                for line in answer(String(decoding: request, as: UTF8.self)) { Self.writeAll(fd, line + [10]) }
            }.start()
        }
    }

    /// Stops answering.
    public func stop() {
        loop.stop()
        Glibc.close(listener)
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return }
            offset += n
        }
    }
}
