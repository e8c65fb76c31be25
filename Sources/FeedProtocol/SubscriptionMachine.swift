import CanonicalJSON
import Threads

/// One subscription to a view, as a pure state machine: the client's whole protocol
/// logic (connect, `hello`, `subscribe`, snapshot and diffs, digest checks, resume by
/// epoch and seq, backoff, staleness) with no I/O and no clock of its own. A driver
/// feeds it `Event`s with the time they happen and carries out the `Effect`s it
/// returns; every client (eventctl's subscribe, the status bars, reminders) runs this
/// one copy, and tests run it with a fake transport and clock.
public struct SubscriptionMachine: Sendable {
    /// What to subscribe to and how patiently.
    public struct Configuration: Sendable {
        /// The view subscribed to.
        public var view: ViewFields
        /// Where to resume at the first connection (later ones resume from what arrived).
        public var resume: Request.Resume?
        /// The wait before the first reconnect; doubled at each attempt up to
        /// `maxBackoff` and reset by the first snapshot or diff of a connection.
        public var initialBackoff: Duration
        /// The longest wait between attempts.
        public var maxBackoff: Duration
        /// How long without any line the connection counts as stale after (the daemon
        /// sends a heartbeat after 30 s of silence by default).
        public var staleAfter: Duration
        /// Whether a first connection that fails ends the subscription (a command
        /// run by hand), instead of retrying (a bar or a reminder started before eventd).
        public var failIfFirstConnectFails: Bool
        /// The protocol asked for: 2, whose per-section digests let a diff be checked by
        /// hashing only the sections it touched (1 hashes the whole view).
        public var protocolVersion: Int64
        /// Ask for `calendars` messages (a screen that draws calendar colours).
        public var calendars = false

        /// A subscription to `view` (the defaults suit a long-running reader).
        public init(view: ViewFields, resume: Request.Resume? = nil, initialBackoff: Duration = .milliseconds(200),
                    maxBackoff: Duration = .seconds(5), staleAfter: Duration = .seconds(90), failIfFirstConnectFails: Bool = false, protocolVersion: Int64 = 2) {
            self.view = view
            self.protocolVersion = protocolVersion
            self.resume = resume
            self.initialBackoff = initialBackoff
            self.maxBackoff = maxBackoff
            self.staleAfter = staleAfter
            self.failIfFirstConnectFails = failIfFirstConnectFails
        }
    }

    /// What happened, as the driver saw it.
    public enum Event: Sendable, Equatable {
        /// Begin (once).
        case start
        case connected
        case connectFailed(String)
        /// One line from the daemon, without its newline.
        case line([UInt8])
        /// The connection ended (the daemon closed it, or a read or write failed).
        case disconnected(String)
        /// `deadline` has come.
        case timer
    }

    /// What the driver must do, and what the consumer hears, in order.
    public enum Effect: Sendable, Equatable {
        case connect
        case send(Request)
        case close
        /// Connect again after this wait (`deadline` says when).
        case scheduleReconnect(after: Duration)
        /// Every line as received (for printers of the raw feed).
        case line([UInt8])
        /// A fresh local copy.
        case snapshot(FeedClientState)
        /// The local copy after `diff` (its digest checked).
        case diff(FeedMessage.Diff, FeedClientState)
        case heartbeat(FeedMessage.Heartbeat)
        /// The calendars or their colours changed.
        case calendars(FeedMessage.CalendarList)
        /// The daemon starts over; a snapshot follows.
        case resync(reason: ResyncReason)
        /// A diff did not fit or its digest differed: the local copy is dropped and a
        /// fresh snapshot requested.
        case digestMismatch(seq: Int64)
        /// The connection is lost (or could not be made); the last copy is all there is.
        case lost(String)
        /// Nothing heard for `staleAfter` seconds: the connection is given up as hung.
        case stale
        /// The subscription ends; nothing follows.
        case failed(Failure)
    }

    /// Why a subscription ended.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The daemon answered `error` (say `invalid_view`): asking again would not help.
        case refused(RequestError)
        /// The first connection failed and the configuration says not to retry.
        case unreachable(String)

        public var description: String {
            switch self {
            case .refused(let error): return "daemon: \(error)"
            case .unreachable(let reason): return reason
            }
        }
    }

    enum Phase: Sendable, Equatable {
        case idle
        case connecting
        case open(helloSeen: Bool)
        case waiting(until: MonotonicInstant)
        case stopped
    }

    /// What it subscribes to and how patiently.
    public let configuration: Configuration
    var phase = Phase.idle
    /// The local copy, when there is one.
    public internal(set) var state: FeedClientState?
    /// Where the next connection resumes (nil: from a fresh snapshot).
    public internal(set) var position: Request.Resume?
    /// Failed attempts in a row since the subscription last worked (the backoff's count).
    var failures = 0
    var everConnected = false
    var lastHeard = MonotonicInstant(sinceStart: .zero)

    /// A machine that has not started (`handle(.start, now:)` starts it).
    public init(_ configuration: Configuration) {
        self.configuration = configuration
        position = configuration.resume
    }

    /// When the driver must send `.timer` (a reconnect is due, or the connection would
    /// turn stale); nil: only on other events.
    public var deadline: MonotonicInstant? {
        switch phase {
        case .waiting(let until): return until
        case .open: return lastHeard + configuration.staleAfter
        case .idle, .connecting, .stopped: return nil
        }
    }

    /// Whether the subscription has ended (after `.failed`).
    public var isStopped: Bool { phase == .stopped }

    /// Handles one event at `now` (on the monotonic clock).
    public mutating func handle(_ event: Event, now: MonotonicInstant) -> [Effect] {
        switch (event, phase) {
        case (.start, .idle):
            phase = .connecting
            return [.connect]
        case (.connected, .connecting):
            phase = .open(helloSeen: false)
            everConnected = true
            lastHeard = now
            // eventd reads requests before it has sent `hello` just as well: no round trip.
            return [.send(.subscribe(view: configuration.view, resume: position, protocolVersion: configuration.protocolVersion,
                                     calendars: configuration.calendars))]
        case (.connectFailed(let reason), .connecting):
            if !everConnected && configuration.failIfFirstConnectFails {
                phase = .stopped
                return [.failed(.unreachable(reason))]
            }
            return [.lost(reason)] + reconnect(now)
        case (.line(let bytes), .open(let helloSeen)):
            lastHeard = now
            return received(bytes, helloSeen: helloSeen, now: now)
        case (.disconnected(let reason), .open):
            return [.lost(reason)] + reconnect(now)
        case (.timer, .waiting(let until)) where now >= until:
            phase = .connecting
            return [.connect]
        case (.timer, .open) where now >= lastHeard + configuration.staleAfter:
            return [.stale, .close] + reconnect(now)
        default:
            return []
        }
    }

    /// Waits before the next attempt, longer after each failure in a row (`Backoff`).
    mutating func reconnect(_ now: MonotonicInstant) -> [Effect] {
        let delay = Backoff(first: configuration.initialBackoff, max: configuration.maxBackoff).delay(after: failures)
        failures += 1
        phase = .waiting(until: now + delay)
        return [.scheduleReconnect(after: delay)]
    }
}

/// Reconnection delays, the one formula of every client that retries (the subscription
/// machine, RedisFeed's publisher and watchers): `first` after the first failure,
/// doubled after each further one in a row, `max` at most.
public struct Backoff: Sendable, Equatable {
    public var first: Duration
    public var max: Duration

    public init(first: Duration, max: Duration) { (self.first, self.max) = (first, max) }

    /// The delay before the next attempt after `failures` earlier failures in a row
    /// (0: the first retry).
    public func delay(after failures: Int) -> Duration {
        Swift.min(max, first * (1 << Swift.min(Swift.max(failures, 0), 20)))
    }
}
