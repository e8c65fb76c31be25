import FeedClientKit
import FeedProtocol
import Synchronization
import Threads
#if canImport(Glibc)
import Glibc
#endif

/// A thread of the relay that talks to the daemon's own socket until it is stopped: the
/// scaffold `ViewRelay` and `StatusRelay` share, on a `ServiceThread` (the project's one
/// long-lived thread). Stopping shuts the connection in use down, so a blocked read
/// returns at once, ends any pause, and waits for the thread.
final class RelayThread: Sendable {
    /// The thread's own duplicate of the connection in use (-1: none), which a stop
    /// shuts down: its number is never another file's, however late the stop comes.
    private let socketFD = Atomic<Int32>(-1)
    private let service = Mutex<ServiceThread<Never>?>(nil)

    /// Starts a thread named `name` running `body`, which should return soon after
    /// `isRunning` turns false.
    init(name: String, _ body: @escaping @Sendable (RelayThread) -> Void) {
        let worker = ServiceThread<Never>(name: name) { [self] thread in
            // The body may start before `init` stores the thread: its pauses need it.
            service.withLock { $0 = thread }
            thread.onStop { [self] in release(shuttingDown: true) }
            body(self)
        }
        service.withLock { $0 = worker }
    }

    private var thread: ServiceThread<Never>? { service.withLock { $0 } }

    /// Whether the thread should go on.
    var isRunning: Bool { !(thread?.isStopRequested ?? false) }

    /// Ends the thread and waits for it.
    func stop() {
        guard let thread else { return }
        thread.requestStop()
        while !thread.join(deadline: .seconds(3600)) {}
    }

    /// Connects to the daemon's socket and runs `body` with it, where `stop` can reach it.
    func withSocket<T>(_ connector: FeedSocketConnector, _ body: (FeedSocket) throws -> T) throws -> T {
        let socket = try connect(connector)
        defer { release() }
        return try body(socket)
    }

    /// Connects to the daemon's socket (for a subscription driver, say), where `stop`
    /// can reach it until `release` or the next connection.
    func connect(_ connector: FeedSocketConnector) throws -> FeedSocket {
        let socket = try FeedSocket(connector: connector)
        let copy = fcntl(socket.fd, F_DUPFD_CLOEXEC, 0)
        let previous = socketFD.exchange(copy, ordering: .sequentiallyConsistent)
        if previous >= 0 { close(previous) }
        // A stop that came before the descriptor was stored found nothing to shut down.
        guard isRunning else { release(); throw FeedClientState.Failure("stopped") }
        return socket
    }

    /// Lets go of the connection `connect` made (it was lost, or is done with); a stop
    /// also shuts it down, which ends the connection's blocked read.
    func release(shuttingDown: Bool = false) {
        let fd = socketFD.exchange(-1, ordering: .sequentiallyConsistent)
        guard fd >= 0 else { return }
        if shuttingDown { shutdown(fd, Int32(SHUT_RDWR)) }
        close(fd)
    }

    /// Waits `wait`, or less if the thread is stopped meanwhile. A blocking wait, not a
    /// polling loop: an idle daemon's relay threads cost nothing between requests.
    func pause(_ wait: Duration) {
        thread?.pause(wait)
    }
}
