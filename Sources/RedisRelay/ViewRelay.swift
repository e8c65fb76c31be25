import Diagnostics
import FeedClientKit
import FeedProtocol
import RedisFeed

/// One published view's subscriber of the daemon's socket, on its own thread: each
/// line goes to the publisher with the snapshot line of the state after it. A lost
/// subscription resumes from the local copy's position (the retained diffs, or the
/// daemon's resync and a fresh snapshot), after the clients' `Backoff`.
final class ViewRelay: Sendable {
    private let thread: RelayThread

    init(view: PublishedView, connector: FeedSocketConnector, publisher: RedisPublisher, logger: Logger) {
        thread = RelayThread(name: "redis-relay") { thread in
            Self.run(thread, view: view, connector: connector, publisher: publisher, logger: logger)
        }
    }

    /// Ends the subscription and waits for the thread.
    func stop() { thread.stop() }

    private static func run(_ thread: RelayThread, view: PublishedView, connector: FeedSocketConnector,
                            publisher: RedisPublisher, logger: Logger) {
        // The socket may not exist yet when eventd starts: a failure is logged only when
        // it repeats (once, until the subscription works again).
        var failures = 0
        var state: EncodedFeedState?
        let backoff = Backoff(first: 0.2, max: 5)
        while thread.isRunning {
            do {
                try thread.withSocket(connector) { socket in
                    try socket.send(.subscribe(view: view.view, resume: state?.state.position, protocolVersion: 2))
                    try relay(socket, thread: thread, view: view, publisher: publisher, state: &state) { failures = 0 }
                }
            } catch {
                failures += 1
                // A copy a diff did not apply to is not resumed from.
                if error is FeedClientState.Failure { state = nil }
                if thread.isRunning && failures == 3 {
                    logger.warning("publishing \(view): \(error); trying again (every \(Int(backoff.max)) s at most)")
                }
            }
            // The daemon's own socket: a failure is a refused view, a restart or a shutdown.
            thread.pause(backoff.delay(after: max(failures - 1, 0)))
        }
    }

    /// Reads the subscription until it ends, handing each message on.
    private static func relay(_ socket: FeedSocket, thread: RelayThread, view: PublishedView, publisher: RedisPublisher,
                              state: inout EncodedFeedState?, working: () -> Void) throws {
        while thread.isRunning, let line = try socket.readLine() {
            switch try FeedMessage.decode(line) {
            case .snapshot(let snapshot):
                state = try EncodedFeedState(snapshot: snapshot)
                working()
                publisher.offer(FeedLine(type: .snapshot, epoch: snapshot.epoch, seq: snapshot.seq, line: line, snapshot: line,
                                         protocolVersion: snapshot.protocolVersion), of: view)
            case .diff(let diff):
                guard var current = state, try current.apply(diff: diff) else {
                    throw FeedClientState.Failure("diff \(diff.seq) does not apply to the local copy")
                }
                state = current
                working()
                publisher.offer(FeedLine(type: .diff, epoch: diff.epoch, seq: diff.seq, line: line,
                                         snapshot: current.snapshotLine(digest: diff.digest),
                                         protocolVersion: diff.protocolVersion), of: view)
            case .heartbeat(let beat):
                publisher.offer(FeedLine(type: .heartbeat, epoch: beat.epoch, seq: beat.seq, line: line, snapshot: nil,
                                         protocolVersion: state?.state.protocolVersion ?? 1), of: view)
            case .error(let code, let message):
                throw FeedClientState.Failure("\(code): \(message)")
            default:
                break // hello; resync (a snapshot follows)
            }
        }
    }
}
