import Glibc
import Synchronization

/// The source runner's inbox: any thread posts; the runner thread, which waits in
/// `poll` on inotify too, is woken through a pipe. Bounded by its users: one message
/// per request, per finished fetch, per stop.
final class RunnerInbox<Message: Sendable>: Sendable {
    private let messages = Mutex<[Message]>([])
    /// The read end (polled by the runner) and the write end.
    let readFD: Int32
    private let writeFD: Int32

    init() throws(FetchFailure) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw FetchFailure(.unreadable, "pipe: \(String(cString: strerror(errno)))")
        }
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

    func post(_ message: Message) {
        messages.withLock { $0.append(message) }
        var byte: UInt8 = 1
        // A full pipe already wakes the reader: EAGAIN is fine.
        _ = write(writeFD, &byte, 1)
    }

    /// Everything posted so far, oldest first; empties the pipe.
    func takeAll() -> [Message] {
        var sink = [UInt8](repeating: 0, count: 256)
        while sink.withUnsafeMutableBytes({ read(readFD, $0.baseAddress, $0.count) }) > 0 {}
        return messages.withLock { box in
            defer { box.removeAll(keepingCapacity: true) }
            return box
        }
    }
}
