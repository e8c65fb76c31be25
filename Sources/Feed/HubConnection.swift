import Agenda

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
        case awaitingFirstSnapshot(View, resync: String?)
        /// Receives every diff of the view.
        case live(View)
        /// Its queued subscription data was dropped (overflow) or superseded: once its
        /// queue drains, it gets `resync` (when `reason` is set) and the current snapshot.
        case owed(View, reason: String?)

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
    /// When the kernel last took bytes from this queue (or it was empty): the stall clock.
    var lastDrain: Double
    /// When anything was last queued: the heartbeat clock.
    var lastSent: Double

    init(id: ConnectionID, now: Double) {
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
}
