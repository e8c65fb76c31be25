import CanonicalJSON
import FeedProtocol
import Reactor
import Threads

/// eventd-web's pure core: browser connections, request heads, routing, access checks,
/// the subscription behind each event stream, keep-alives, deadlines and bounded
/// queues. It takes `GatewayEvent`s and returns `GatewayEffect`s; it owns no
/// descriptor, calls no clock and does no I/O (times come in with each event, on the
/// monotonic clock), so every rule is tested in-process (`Tests/WebGatewayTests`).
/// `GatewayLoop` is the thin I/O around it, as `FeedLoop` is around `FeedHub`.
public struct Gateway {
    /// The configuration it enforces.
    public let config: GatewayConfiguration
    let assets: StaticAssets
    var clients: [ClientID: GatewayClient] = [:]
    /// Bytes queued for all browsers, as held in memory (bounded by `config.outputBudget`).
    public internal(set) var queuedBytes = 0
    /// Bytes of unfinished feed lines held for all browsers (within the same budget).
    public internal(set) var framingBytes = 0
    /// The connections whose request head is arriving, oldest first.
    var heads: [ClientID] = []
    /// The time of the event being handled.
    var now: MonotonicInstant
    /// Effects of the event being handled, in order.
    var effects: [GatewayEffect] = []
    /// Builds the responses (with the `Date` of the last `.clock`).
    var responses = HTTPResponse()
    /// The last feed line parsed and its message (see `parsed`).
    var lastParsed: (line: [UInt8], message: FeedMessage?)?
    /// Whether the output queued went over `releaseMark` since memory was last released.
    var releaseOwed = false
    /// Shut down: no request is taken any more.
    public internal(set) var stopping = false

    /// A gateway with no connection, at monotonic time `now`.
    public init(config: GatewayConfiguration, assets: StaticAssets, now: MonotonicInstant) {
        self.config = config
        self.assets = assets
        self.now = now
    }

    /// Handles one event; returns what the loop must do, in order.
    public mutating func handle(_ event: GatewayEvent, at now: MonotonicInstant) -> [GatewayEffect] {
        self.now = now
        effects.removeAll(keepingCapacity: true)
        switch event {
        case .browser(let event): dispatch(event)
        case .browserAccepted(let id, let peer, let refusal):
            if stopping { effects.append(.close(id)) } else { accept(id, peer: peer, refusal: refusal) }
        case .upstreamConnected(let id): upstreamConnected(id)
        // Why (the connector's words) is not logged either: it names the socket's path,
        // or the user who squats its directory; `eventctl status` says it to its owner.
        case .upstreamUnavailable(let id, _): upstreamEnded(id, reason: "eventd is unavailable")
        case .upstreamReceived(let id, let bytes): upstreamReceived(bytes, for: id)
        case .upstreamClosed(let id, let reason): upstreamEnded(id, reason: reason ?? "eventd closed the connection")
        case .tick: tick()
        case .clock(let date): responses.date = date
        case .shutdown: shutDown()
        }
        // Whatever part of a request carried it, the token never reaches the log.
        for (i, effect) in effects.enumerated() {
            if case .log(let level, let line) = effect { effects[i] = .log(level, config.access.scrubbed(line)) }
        }
        return effects
    }

    /// What the loop should wait for on a browser's socket and on its eventd socket.
    public func interest(_ id: ClientID) -> (read: Bool, write: Bool, upstreamRead: Bool) {
        guard let c = clients[id] else { return (false, false, false) }
        var upstreamRead = false
        if case .open = c.upstream {
            // A browser that does not keep up stops its subscription being read: eventd
            // then queues, and past its --client-buffer drops and owes a resync.
            upstreamRead = !c.isStream || c.outbox.count < config.streamBuffer
        }
        return (!c.peerGone, !c.outbox.isEmpty, upstreamRead)
    }

    /// Whether a stream whose lines are pushed to it (the Redis upstream: there is no
    /// socket to stop reading) takes one more: the bytes queued behind the message being
    /// written stay under the stream buffer. That message does not count: a browser
    /// taking a snapshot of megabytes is keeping up, not falling behind.
    public func takesPushedLine(_ id: ClientID) -> Bool {
        guard let c = clients[id], case .open = c.upstream else { return false }
        return !c.isStream || c.outbox.countBehindFirst < config.streamBuffer
    }

    /// The browser's queued output (the loop writes it, then reports `.wrote`).
    public func output(_ id: ClientID) -> ByteQueue? { clients[id]?.outbox }

    /// Connections whose request head is still arriving.
    public var pendingHeads: Int { heads.count }

    /// Event streams open now.
    public var streamCount: Int { clients.values.reduce(0) { $0 + ($1.isStream ? 1 : 0) } }

    /// Connections open now (streams, heads arriving, answers being written).
    public var connectionCount: Int { clients.count }

    // MARK: - Connections
    // (Public as `ConnectionEventHandler`'s witnesses: the loop and the tests go through
    // `handle`, which sets the time and collects the effects.)

    /// A browser connected from an unknown address.
    public mutating func accept(_ id: ClientID) { accept(id, peer: "") }

    /// Forgets a connection, closing it and its eventd connection.
    public mutating func remove(_ id: ClientID, reason: String?) {
        guard let c = clients.removeValue(forKey: id) else { return }
        if c.isReadingHead { headEnded(id) }
        queuedBytes -= c.outbox.held
        framingBytes -= c.upstream.buffered
        if c.hasUpstream { effects.append(.closeUpstream(id)) }
        effects.append(.close(id))
        if let reason { effects.append(.log(.debug, "browser \(id) closed: \(reason)")) }
    }

    /// Bytes arrived from a browser.
    public mutating func receive(_ bytes: ArraySlice<UInt8>, from id: ClientID) {
        guard case .head(var parser) = clients[id]?.phase else {
            return // Nothing is expected after the head; what comes is read and dropped.
        }
        // The client's copy goes while the parser grows (as the feed's framer's): two
        // references to its buffer would copy the head so far on every read. (Any phase
        // but `.head` and one that counts as an answer would do; each outcome sets it.)
        clients[id]!.phase = .lingering(since: now)
        let outcome = parser.feed(bytes)
        if case .incomplete = outcome {
            clients[id]!.phase = .head(parser)
            clients[id]!.headBytes += bytes.count
            return
        }
        headEnded(id)
        switch outcome {
        case .incomplete:
            break
        case .invalid(let status, let message):
            effects.append(.log(.info, "browser \(id): \(status.rawValue) \(message)"))
            answer(id, responses.text(status, message))
        case .complete(let request):
            route(request, from: id)
        }
    }

    /// The browser closed its side.
    public mutating func peerClosed(_ id: ClientID) {
        guard let c = clients[id] else { return }
        switch c.phase {
        case .answered where !c.outbox.isEmpty, .oneShot:
            clients[id]!.peerGone = true // a half-closed client still gets its answer
        default:
            remove(id, reason: nil)
        }
    }

    /// The socket took `count` bytes of the browser's queue.
    public mutating func wrote(_ count: Int, to id: ClientID) {
        guard clients[id] != nil else { return }
        // What is held, not what is left to write: the kernel takes a part of each answer
        // (hundreds of KiB on loopback), but the answer stays in memory until written whole.
        let before = clients[id]!.outbox.held
        clients[id]!.outbox.consume(count)
        queuedBytes -= before - clients[id]!.outbox.held
        let drained = clients[id]!.outbox.isEmpty
        if count > 0 || drained { clients[id]!.lastDrain = now }
        guard drained, case .answered = clients[id]!.phase else { return }
        if clients[id]!.peerGone { remove(id, reason: nil); return }
        clients[id]!.phase = .lingering(since: now)
        effects.append(.finishWriting(id))
    }

    // MARK: - Output

    /// Queues bytes for the browser and asks the loop to write them.
    mutating func send(_ bytes: [UInt8], to id: ClientID) {
        guard clients[id] != nil, !bytes.isEmpty else { return }
        if clients[id]!.outbox.isEmpty { clients[id]!.lastDrain = now }
        clients[id]!.outbox.append(bytes)
        queuedBytes += bytes.count
        if queuedBytes > Self.releaseMark { releaseOwed = true }
        clients[id]!.lastSent = now
        effects.append(.flush(id))
    }

    /// Queues the last bytes of the connection: once written, the write side is shut
    /// and the connection closes. Its eventd connection, if any, closes now.
    mutating func answer(_ id: ClientID, _ bytes: [UInt8]) {
        guard clients[id] != nil else { return }
        dropUpstream(id)
        clients[id]!.phase = .answered
        send(bytes, to: id)
        if clients[id]!.outbox.isEmpty { wrote(0, to: id) }
    }

    mutating func dropUpstream(_ id: ClientID) {
        guard clients[id]?.hasUpstream == true else { return }
        framingBytes -= clients[id]!.upstream.buffered
        clients[id]!.upstream = .none
        effects.append(.closeUpstream(id))
    }
}

extension Gateway: ConnectionEventHandler {}
