import Dispatch
import FeedClientKit
import FeedProtocol
import Synchronization
import Threads
#if canImport(Glibc)
import Glibc
#endif

/// A thread of the relay that talks to the daemon's own socket until it is stopped: the
/// scaffold `ViewRelay` and `StatusRelay` share. Stopping shuts the socket in use down,
/// so a blocked read returns at once, and waits for the thread.
final class RelayThread: Sendable {
    private let running = Atomic<Bool>(true)
    private let socketFD = Atomic<Int32>(-1)
    private let thread = Mutex<WorkerThread<Void>?>(nil)
    /// Signalled once by `stop`, to end a pause early.
    private let stopped = DispatchSemaphore(value: 0)

    /// Starts a thread named `name` running `body`, which should return soon after
    /// `isRunning` turns false.
    init(name: String, _ body: @escaping @Sendable (RelayThread) -> Void) {
        let worker = WorkerThread(name: name) { [self] in body(self) }
        thread.withLock { $0 = worker }
    }

    /// Whether the thread should go on.
    var isRunning: Bool { running.load(ordering: .sequentiallyConsistent) }

    /// Ends the thread and waits for it.
    func stop() {
        running.store(false, ordering: .sequentiallyConsistent)
        // The descriptor is the thread's own duplicate: shutting it down ends the
        // connection's blocked read; closing it is then this side's to do.
        let fd = socketFD.exchange(-1, ordering: .sequentiallyConsistent)
        if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)); close(fd) }
        stopped.signal()
        thread.withLock { $0 }?.join()
    }

    /// Connects to the daemon's socket and runs `body` with it, where `stop` can reach it.
    func withSocket<T>(_ connector: FeedSocketConnector, _ body: (FeedSocket) throws -> T) throws -> T {
        let socket = try connect(connector)
        defer { release() }
        return try body(socket)
    }

    /// Connects to the daemon's socket for a subscription driver, where `stop` can reach
    /// it: the thread keeps a duplicate of the descriptor (its own, so its number is
    /// never another file's) until `release` or the next connection.
    func connect(_ connector: FeedSocketConnector) throws -> FeedSocket {
        let socket = try FeedSocket(connector: connector)
        let copy = fcntl(socket.fd, F_DUPFD_CLOEXEC, 0)
        let previous = socketFD.exchange(copy, ordering: .sequentiallyConsistent)
        if previous >= 0 { close(previous) }
        // A stop that came before the descriptor was stored found nothing to shut down.
        guard isRunning else { release(); throw FeedClientState.Failure("stopped") }
        return socket
    }

    /// Lets go of the connection `connect` made (it was lost).
    func release() {
        let fd = socketFD.exchange(-1, ordering: .sequentiallyConsistent)
        if fd >= 0 { close(fd) }
    }

    /// Waits `seconds`, or less if the thread is stopped meanwhile. A blocking wait, not
    /// a polling loop: an idle daemon's relay threads cost nothing between requests.
    func pause(_ seconds: Double) {
        guard isRunning else { return }
        _ = stopped.wait(timeout: .now() + .milliseconds(Int(seconds * 1000)))
        // Once stopped, every later pause returns at once (isRunning is false).
    }
}
