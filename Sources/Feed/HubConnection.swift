import FeedProtocol
import Agenda
import Threads

/// Identifies a connection for the life of the daemon (never reused, unlike descriptors).
public typealias ConnectionID = Int

/// What one connection is to the feed: its subscription, its queued output and its
/// unread input. Owned by `FeedHub`; no descriptors, no clocks of its own.
struct HubConnection {
    /// Where the connection's subscription stands.
    enum Subscription: Equatable {
        case none
        /// Waiting for the view's first snapshot; `resync` is the reason to send before
        /// it (a `resume` that cannot be honoured).
        case awaitingFirstSnapshot(View, resync: ResyncReason?)
        /// Receives every diff of the view.
        case live(View)
        /// Its queued subscription data was dropped (overflow) or superseded: once its
        /// queue drains, it gets `resync` (when `reason` is set) and the current snapshot.
        case owed(View, reason: ResyncReason?)

        var view: View? {
            switch self {
            case .none: nil
            case .awaitingFirstSnapshot(let v, _), .live(let v), .owed(let v, _): v
            }
        }
    }

    /// Why the connection is ending: it closes once its queue is written and every
    /// answer it waits for has gone out.
    enum Ending: Equatable {
        /// The client closed its side.
        case peerClosed
        /// A fatal error was sent (`line_too_long`): further input is ignored.
        case fatalError
    }

    let id: ConnectionID
    var subscription: Subscription = .none
    var ending: Ending?
    var outbox = Outbox()
    /// Bytes read but not yet handled (a partial line, or lines held back while the
    /// client does not read its answers).
    var input: [UInt8] = []
    /// How much of `input` is known to hold no unhandled newline.
    var scanned = 0
    /// `snapshot` requests of this connection the recomputer has not answered yet.
    var oneShotsWaiting = 0
    /// `sync` requests of this connection the source runner has not answered yet.
    var syncsWaiting = 0
    /// Its subscription asked for `calendars` messages.
    var followsCalendars = false
    /// When the kernel last took bytes from this queue (or it was empty): the stall clock.
    var lastDrain: MonotonicInstant
    /// When anything was last queued: the heartbeat clock.
    var lastSent: MonotonicInstant

    init(id: ConnectionID, now: MonotonicInstant) {
        self.id = id
        lastDrain = now
        lastSent = now
    }

    /// Whether a snapshot it asked for is still being computed.
    var awaitsAnswer: Bool {
        if case .awaitingFirstSnapshot = subscription { return true }
        return oneShotsWaiting > 0 || syncsWaiting > 0
    }

    var isOwed: Bool {
        if case .owed = subscription { return true }
        return false
    }

    /// Unwritten data, dropped data still owed included: the stall clock runs.
    var hasUnreadData: Bool { !outbox.isEmpty || isOwed }

    // MARK: - Queueing (the hub schedules a look and asks the loop to write)

    /// Queues output at `now`. The stall clock starts when data starts waiting; owed data
    /// counts as waiting, so a pong queued meanwhile does not restart it.
    mutating func queue(now: MonotonicInstant, _ add: (inout Outbox) -> Void) {
        if !hasUnreadData { lastDrain = now }
        add(&outbox)
        lastSent = now
    }

    /// What `queueSubscriptionData` did.
    enum QueueOutcome: Equatable {
        case notSubscribed, queued
        /// Overflow: the unstarted data was dropped; `owedBefore`: it was owed a snapshot
        /// already (else it just fell behind).
        case dropped(owedBefore: Bool)
    }

    /// Queues subscription data. On overflow (it would pass `limit`, --client-buffer,
    /// while older data still waits), the unstarted data is dropped and the subscriber is
    /// owed a `resync` and a fresh snapshot once it reads again.
    mutating func queueSubscriptionData(_ bytes: [UInt8], kind: Outbox.Kind, limit: Int, now: MonotonicInstant) -> QueueOutcome {
        guard let view = subscription.view else { return .notSubscribed }
        let retained = outbox.retainedBytes
        guard retained > 0, retained + bytes.count > limit else {
            queue(now: now) { $0.append(bytes, kind: kind) }
            return .queued
        }
        outbox.dropUnstarted()
        if case .owed(_, let reason) = subscription {
            if reason == nil { subscription = .owed(view, reason: .overflow) }
            return .dropped(owedBefore: true)
        }
        subscription = .owed(view, reason: .overflow)
        return .dropped(owedBefore: false)
    }
}
