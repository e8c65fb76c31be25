#if canImport(Glibc)
import Glibc
#endif

/// A self-pipe: other threads write a byte to wake a loop out of `poll`/`epoll_wait`
/// (the feed loop, the live-source runner).
/// Owns both descriptors (closed in deinit); `wake` is safe from any thread.
public final class WakePipe: Sendable {
    /// The end to watch for readability.
    public let readFD: Int32
    private let writeFD: Int32

    /// Why the pipe could not be made.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw Failure(description: "pipe: \(String(cString: strerror(errno)))") }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    /// Wakes the loop (a full pipe already will: the byte is then not needed).
    public func wake() {
        var one: UInt8 = 1
        _ = write(writeFD, &one, 1)
    }

    /// Empties the pipe (the loop's thread).
    public func drain() {
        var buffer = [UInt8](repeating: 0, count: 256)
        while read(readFD, &buffer, buffer.count) > 0 {}
    }
}
