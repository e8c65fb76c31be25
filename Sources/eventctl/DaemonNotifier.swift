import Foundation
import Support

/// Tells a running daemon that the database changed (`{"op":"refresh"}`); does
/// nothing, silently, when no daemon listens.
enum DaemonNotifier {
    static func requestRefresh(socketPath: String) {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        guard let address = UnixSocketAddress(path: socketPath),
              address.withSockaddr({ connect(fd, $0, $1) }) == 0 else { return }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array("{\"op\":\"refresh\"}\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        // Read the hello and the ok, so the daemon sees an orderly close.
        var buffer = [UInt8](repeating: 0, count: 4096)
        var received = 0
        var newlines = 0
        while newlines < 2, received < buffer.count {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + received, $0.count - received, 0) }
            if n <= 0 { break }
            newlines += buffer[received..<(received + n)].filter { $0 == 10 }.count
            received += n
        }
    }
}
