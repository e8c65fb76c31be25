import Diagnostics
import FeedClientKit
import FeedProtocol
import RedisFeed
import Synchronization
import Threads
#if canImport(Glibc)
import Glibc
#endif

/// eventd's status for gateways on other hosts: every 5 s a thread asks the daemon's own
/// socket for its `status` (the answer every socket client gets) and hands it, redacted,
/// to the publisher, which writes it to `PREFIX:status` with a 30 s lifetime
/// (`StatusKey`). A gateway serves it as `/api/status` and judges `/healthz` by its age.
final class StatusRelay: Sendable {
    private let running = Atomic<Bool>(true)
    private let socketFD = Atomic<Int32>(-1)
    private let thread = Mutex<WorkerThread<Void>?>(nil)

    init(connector: FeedSocketConnector, publisher: RedisPublisher) {
        let worker = WorkerThread(name: "redis-status") { [self] in
            run(connector: connector, publisher: publisher)
        }
        thread.withLock { $0 = worker }
    }

    /// Ends the thread and waits for it.
    func stop() {
        running.store(false, ordering: .sequentiallyConsistent)
        let fd = socketFD.load(ordering: .sequentiallyConsistent)
        if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)) }
        thread.withLock { $0 }?.join()
    }

    private var isRunning: Bool { running.load(ordering: .sequentiallyConsistent) }

    private func run(connector: FeedSocketConnector, publisher: RedisPublisher) {
        while isRunning {
            // The socket may not be there yet at start, or a shutdown is under way:
            // nothing is written, and the key's lifetime says so to the gateways.
            if let line = try? ask(connector) { publisher.offerStatus(line) }
            var remaining = StatusKey.interval
            while remaining > 0 && isRunning {
                usleep(100_000)
                remaining -= 0.1
            }
        }
    }

    /// One `status` request on a connection of its own.
    private func ask(_ connector: FeedSocketConnector) throws -> [UInt8]? {
        let socket = try FeedSocket(connector: connector)
        socketFD.store(socket.fd, ordering: .sequentiallyConsistent)
        defer { socketFD.store(-1, ordering: .sequentiallyConsistent) }
        try socket.send(.status)
        while isRunning, let line = try socket.readLine(timeout: 5) {
            if let status = StatusKey.line(fromAnswer: line) { return status }
        }
        return nil
    }
}
