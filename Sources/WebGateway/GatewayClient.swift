import FeedProtocol
import Threads

/// One browser connection as the gateway sees it: what it is doing, what waits to be
/// written to it, and its connection to eventd.
struct GatewayClient {
    /// What the connection is doing.
    enum Phase {
        /// Its request head is arriving.
        case head(HTTPHeadParser)
        /// An event stream: eventd's messages become events.
        case stream(view: ViewFields)
        /// A request answered by one message from eventd, due by `deadline`.
        case oneShot(OneShot, head: Bool, deadline: MonotonicInstant)
        /// The answer is queued; once written, the write side is shut.
        case answered
        /// The answer is written; waiting (briefly) for the browser to close.
        case lingering(since: MonotonicInstant)
    }

    /// The one-shot requests and the eventd request each one sends.
    enum OneShot: Equatable {
        case snapshot(ViewFields)
        case status
        case health

        var request: Request {
            switch self {
            case .snapshot(let view): return .snapshot(view: view)
            case .status: return .status
            case .health: return .ping
            }
        }
    }

    /// The connection to eventd for this browser.
    enum Upstream {
        case none
        /// Connecting; the request line goes once connected.
        case connecting(request: [UInt8])
        /// Connected: its lines, and whether eventd's `hello` came yet.
        case open(LineFramer, helloSeen: Bool)

        /// Bytes of an unfinished line held.
        var buffered: Int { if case .open(let framer, _) = self { return framer.buffered } else { return 0 } }
    }

    var phase: Phase
    var outbox = ByteQueue()
    var upstream = Upstream.none
    let accepted: MonotonicInstant
    /// The address it connected from (`GatewayListener.peerHost`).
    let peer: String
    /// Bytes of its request head received so far.
    var headBytes = 0
    /// When something was last queued (keep-alive comments go after silence).
    var lastSent: MonotonicInstant
    /// When the browser last took bytes, or when data started waiting (stall).
    var lastDrain: MonotonicInstant
    /// The browser closed its side: finish writing, then close.
    var peerGone = false
    /// Why its account may not ask (`PeerPolicy`), nil when it may.
    var accountRefusal: String?

    init(now: MonotonicInstant, headLimit: Int, peer: String) {
        phase = .head(HTTPHeadParser(limit: headLimit))
        accepted = now
        self.peer = peer
        lastSent = now
        lastDrain = now
    }

    var isStream: Bool { if case .stream = phase { return true } else { return false } }
    /// Whether it holds an answer in flight (counted against `maxStreams`).
    var isAnswering: Bool {
        switch phase {
        case .stream, .oneShot, .answered: return true
        case .head, .lingering: return false
        }
    }
    var isReadingHead: Bool { if case .head = phase { return true } else { return false } }
    var hasUpstream: Bool { if case .none = upstream { return false } else { return true } }
}
