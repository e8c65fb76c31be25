import Diagnostics
import FeedClientKit
import FeedProtocol
import RedisFeed

/// One published view's subscriber of the daemon's socket, on its own thread: a
/// `SubscriptionDriver` (the one client: `hello` checked, resume from the copy's
/// position, `resync`, the staleness timer, the clients' backoff) whose every snapshot,
/// diff and heartbeat goes to the publisher with the snapshot line of the state after it.
final class ViewRelay: Sendable {
    private let thread: RelayThread

    init(view: PublishedView, connector: FeedSocketConnector, publisher: RedisPublisher, logger: Logger) {
        thread = RelayThread(name: "redis-relay") { thread in
            let configuration = SubscriptionMachine.Configuration(view: view.view, initialBackoff: .milliseconds(200), maxBackoff: .seconds(5),
                                                                  protocolVersion: 2)
            var consumer = Consumer(view: view, thread: thread, publisher: publisher, logger: logger,
                                    maxBackoff: configuration.maxBackoff)
            let driver = SubscriptionDriver(configuration, open: { try thread.connect(connector) },
                                            sleep: { thread.pause($0) })
            while thread.isRunning {
                do {
                    // Only a refused view ends a run (eventd answered `error`): asked
                    // again after the machine's longest wait, from a fresh snapshot.
                    let failure = try driver.run(&consumer)
                    logger.warning("publishing \(view): \(failure); trying again in \(Int(configuration.maxBackoff.seconds)) s")
                } catch {
                    // Stopped (the thread's stop shut the connection down), or a socket
                    // not to be trusted (the driver's `open`): asked again after the wait.
                    if thread.isRunning {
                        logger.warning("publishing \(view): \(error); trying again in \(Int(configuration.maxBackoff.seconds)) s")
                    }
                }
                thread.release()
                thread.pause(configuration.maxBackoff)
            }
        }
    }

    /// Ends the subscription and waits for the thread.
    func stop() { thread.stop() }

    /// What the subscription's effects do: keep the copy with each section's bytes, and
    /// offer each line to the publisher.
    struct Consumer: SubscriptionDriver.Consumer {
        let view: PublishedView
        let thread: RelayThread
        let publisher: RedisPublisher
        let logger: Logger
        /// The longest wait between attempts (for the log).
        let maxBackoff: Duration
        /// The last line received: the one the next typed effect came from.
        var line: [UInt8] = []
        var copy: EncodedFeedState?
        /// Connections lost since the subscription last worked: the socket may not be
        /// there yet when eventd starts, so only a repeated failure is logged (once).
        var failures = 0

        struct Stopped: Error {}

        mutating func handle(_ effect: SubscriptionMachine.Effect) throws {
            switch effect {
            case .line(let bytes):
                line = bytes
            case .snapshot(let state):
                let fresh = EncodedFeedState(state: state)
                copy = fresh
                failures = 0
                publisher.offer(FeedLine(type: .snapshot, epoch: state.epoch, seq: state.seq, line: line, snapshot: line,
                                         protocolVersion: state.protocolVersion), of: view)
            case .diff(let diff, let state):
                // The machine's copy is checked; a relay copy that lost step starts over from it.
                let current: EncodedFeedState
                if var followed = copy, (try? followed.follow(diff, to: state)) != nil {
                    current = followed
                } else {
                    current = EncodedFeedState(state: state)
                }
                copy = current
                failures = 0
                publisher.offer(FeedLine(type: .diff, epoch: diff.epoch, seq: diff.seq, line: line,
                                         snapshot: current.snapshotLine(digest: diff.digest),
                                         protocolVersion: diff.protocolVersion), of: view)
            case .heartbeat(let beat):
                publisher.offer(FeedLine(type: .heartbeat, epoch: beat.epoch, seq: beat.seq, line: line, snapshot: nil,
                                         protocolVersion: copy?.state.protocolVersion ?? 2), of: view)
            case .digestMismatch:
                copy = nil
            case .lost(let reason):
                thread.release()
                guard thread.isRunning else { throw Stopped() }
                failures += 1
                if failures == 3 {
                    logger.warning("publishing \(view): \(reason); trying again (every \(Int(maxBackoff.seconds)) s at most)")
                }
            case .stale:
                thread.release()
            case .resync, .calendars, .failed, .connect, .send, .close, .scheduleReconnect:
                // Colours are not a feed position: a page behind Redis reads them from status.
                break
            }
        }

        func secondsUntilWake() -> Double? { nil }
        mutating func wake() throws {}
    }
}
