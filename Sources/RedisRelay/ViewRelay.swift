import Diagnostics
import FeedClientKit
import FeedProtocol
import RedisFeed
import Synchronization
import Threads
#if canImport(Glibc)
import Glibc
#endif

/// One published view's subscriber of the daemon's socket, on its own thread: each
/// line goes to the publisher with the snapshot line of the state after it.
final class ViewRelay: Sendable {
    private let running = Atomic<Bool>(true)
    private let socketFD = Atomic<Int32>(-1)
    private let thread = Mutex<WorkerThread<Void>?>(nil)

    init(view: PublishedView, connector: FeedSocketConnector, publisher: RedisPublisher, logger: Logger) {
        let worker = WorkerThread(name: "redis-relay") { [self] in
            run(view: view, connector: connector, publisher: publisher, logger: logger)
        }
        thread.withLock { $0 = worker }
    }

    /// Ends the subscription and waits for the thread.
    func stop() {
        running.store(false, ordering: .sequentiallyConsistent)
        let fd = socketFD.load(ordering: .sequentiallyConsistent)
        if fd >= 0 { shutdown(fd, Int32(SHUT_RDWR)) }
        thread.withLock { $0 }?.join()
    }

    private var isRunning: Bool { running.load(ordering: .sequentiallyConsistent) }

    private func run(view: PublishedView, connector: FeedSocketConnector, publisher: RedisPublisher, logger: Logger) {
        // The socket may not exist yet when eventd starts: a failure is logged only when
        // it repeats (once, until the subscription works again).
        var failures = 0
        while isRunning {
            do {
                let socket = try FeedSocket(connector: connector)
                socketFD.store(socket.fd, ordering: .sequentiallyConsistent)
                defer { socketFD.store(-1, ordering: .sequentiallyConsistent) }
                if !isRunning { return }
                try socket.send(.subscribe(view: view.view, resume: nil))
                try relay(socket, view: view, publisher: publisher) { failures = 0 }
            } catch {
                failures += 1
                if isRunning && failures == 3 { logger.warning("publishing \(view): \(error); trying again every second") }
            }
            // The daemon's own socket: a failure is a refused view or a shutdown.
            var remaining = 1.0
            while remaining > 0 && isRunning {
                usleep(100_000)
                remaining -= 0.1
            }
        }
    }

    /// Reads the subscription until it ends, handing each message on.
    private func relay(_ socket: FeedSocket, view: PublishedView, publisher: RedisPublisher, working: () -> Void) throws {
        var state: FeedClientState?
        while isRunning, let line = try socket.readLine() {
            switch try FeedMessage.decode(line) {
            case .snapshot(let snapshot):
                state = try FeedClientState(snapshot: snapshot)
                working()
                publisher.offer(FeedLine(type: "snapshot", epoch: snapshot.epoch, seq: snapshot.seq, line: line, snapshot: line),
                                of: view)
            case .diff(let diff):
                guard var current = state, try current.apply(diff: diff) else {
                    throw FeedClientState.Failure("diff \(diff.seq) does not apply to the local copy")
                }
                state = current
                publisher.offer(FeedLine(type: "diff", epoch: diff.epoch, seq: diff.seq, line: line,
                                         snapshot: Self.snapshotLine(current, digest: diff.digest)), of: view)
            case .heartbeat(let beat):
                publisher.offer(FeedLine(type: "heartbeat", epoch: beat.epoch, seq: beat.seq, line: line, snapshot: nil), of: view)
            case .error(let code, let message):
                throw FeedClientState.Failure("\(code): \(message)")
            default:
                break // hello; resync (a snapshot follows)
            }
        }
    }

    /// The snapshot line of `state`, as the daemon would write it (canonical JSON, so
    /// the same bytes), without its newline.
    static func snapshotLine(_ state: FeedClientState, digest: String) -> [UInt8] {
        let sections = state.sectionsJSON
        return Array(FeedMessage.snapshot(digest: digest, epoch: state.epoch, seq: state.seq, view: state.view) { w in
            w.value(sections)
        }.dropLast())
    }
}
