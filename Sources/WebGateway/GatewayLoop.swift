import CLinux
import Diagnostics
import Glibc
import Reactor
import RuntimeDirectories
import Threads

/// eventd-web's I/O: one thread on the shared `Reactor` (epoll), non-blocking sockets to
/// browsers and to eventd. It only moves bytes and time into `Gateway` and carries out
/// the effects it returns; every decision is the gateway's.
///
/// A browser's socket is watched under the id `2 × id`, its connection to eventd under
/// `2 × id + 1`, each with the interest the gateway gives it, registered again only for
/// the clients an event or effect touched (and for all of them once a second, with the
/// tick): a wake-up costs what is ready, not what is connected.
public final class GatewayLoop {
    private var gateway: Gateway
    private let upstream: any Upstream
    private let log: Logger
    private let monotonic: () -> MonotonicInstant
    private let reactor: Reactor
    private var nextID = 1
    private let listenFD: Int32
    /// Written to by `stopper` (any thread): the loop stops.
    private let stopPipe: WakePipe
    /// Once stopping: when the loop returns even with answers still going out.
    private var stopDeadline: MonotonicInstant?

    /// The listening socket's id in the reactor.
    private static let listening = -1
    /// The pushed upstreams' wake-up pipe's id.
    private static let pushWake = -2
    /// The stop pipe's id.
    private static let stopWake = -3
    private static func browser(_ id: ClientID) -> Int { id << 1 }
    private static func upstream(_ id: ClientID) -> Int { id << 1 | 1 }

    /// A loop serving `gateway` on the listening socket `listenFD`, its feed from
    /// eventd's socket, or from the upstream `upstream` makes (given the loop's wake-up,
    /// to call from any thread after pushing a delivery).
    public init(gateway: Gateway, listenFD: Int32, log: Logger, monotonic: @escaping () -> MonotonicInstant = MonotonicInstant.now,
                upstream: ((_ wake: @escaping @Sendable () -> Void) -> any Upstream)? = nil) throws {
        self.gateway = gateway
        self.log = log
        self.monotonic = monotonic
        self.listenFD = listenFD
        reactor = try Reactor()
        try reactor.watch(listenFD, as: Self.listening, interest: .none)
        stopPipe = try WakePipe()
        try reactor.watch(stopPipe.readFD, as: Self.stopWake, interest: .readable)
        if let upstream {
            let pipe = try WakePipe()
            try reactor.watch(pipe, as: Self.pushWake)
            self.upstream = upstream { pipe.wake() }
        } else {
            self.upstream = SocketUpstream(FeedConnector(path: gateway.config.socketPath, directoryPolicy: gateway.config.socketDirectoryPolicy,
                                                         trustedPeers: gateway.config.trustedPeers))
        }
        carryOut(self.gateway.handle(.clock(httpDate: Self.httpDate()), at: monotonic()))
    }

    /// Connections accepted per wake-up, at most.
    static let acceptsPerWakeUp = 256

    /// Bytes of kernel send buffer per browser socket (the kernel doubles it).
    static let socketSendBuffer: Int32 = 128 * 1024

    /// How long a stopping loop waits for its last answers to go out.
    public static let drainDeadline: Duration = .milliseconds(1500)

    /// Stops the loop from any thread (the lifecycle's stop): it stops accepting, ends
    /// every stream cleanly and returns from `run` once all is written or after
    /// `drainDeadline`.
    public var stopper: @Sendable () -> Void { { [stopPipe] in stopPipe.wake() } }

    /// Serves until `stopper` is called. Throws only when epoll itself fails.
    public func run() throws {
        var nextTick = monotonic() + .seconds(1)
        while true {
            if let stopDeadline, gateway.isDrained || monotonic() >= stopDeadline { return }
            // (A listener paused at the descriptor limit waits for the tick.)
            if stopDeadline == nil {
                try reactor.setInterest(reactor.listeningPaused ? .none : .readable, for: Self.listening)
            }
            reactor.updateInterests(interest, failed: { token, error in
                let id = token >> 1
                if token & 1 == 0 {
                    apply(.browser(.failed(id, reason: "\(error)")))
                } else {
                    reactor.close(token)
                    apply(.upstreamClosed(id))
                }
                touch(id)
            })
            let deadline = stopDeadline == nil ? nextTick : min(nextTick, monotonic() + .milliseconds(50))
            for event in try reactor.wait(until: deadline, now: monotonic()) {
                guard event.id != Self.listening else { acceptAll(); continue }
                guard event.id != Self.pushWake else { takeDeliveries(); continue }
                guard event.id != Self.stopWake else { stop(); continue }
                guard reactor.contains(event.id) else { continue }
                let id = event.id >> 1
                if event.id & 1 == 1 {
                    readUpstream(id)
                } else {
                    if event.readable || event.broken { readBrowser(id) }
                    if event.writable, reactor.contains(event.id) { carryOut(writeOut(id)) }
                }
            }
            if monotonic() >= nextTick {
                apply(.clock(httpDate: Self.httpDate()))
                apply(.tick)
                reactor.markAllDirty()
                if stopDeadline == nil { reactor.resumeListening() }
                nextTick = monotonic() + (stopDeadline == nil ? .seconds(1) : .milliseconds(50))
            }
        }
    }

    /// Stops accepting and tells the gateway, which ends every stream.
    private func stop() {
        stopPipe.drain()
        guard stopDeadline == nil else { return }
        stopDeadline = monotonic() + Self.drainDeadline
        reactor.close(Self.listening)
        close(listenFD)
        apply(.shutdown)
    }

    /// What the gateway wants of the descriptor watched as `token`.
    private func interest(_ token: Int) -> Reactor.Interest {
        let wanted = gateway.interest(token >> 1)
        return token & 1 == 0 ? Reactor.Interest(read: wanted.read, write: wanted.write) : Reactor.Interest(read: wanted.upstreamRead, write: false)
    }

    /// Notes that client `id`'s interests may have changed.
    private func touch(_ id: ClientID) {
        reactor.markDirty(Self.browser(id))
        reactor.markDirty(Self.upstream(id))
    }

    private func apply(_ event: GatewayEvent) { carryOut(gateway.handle(event, at: monotonic())) }

    /// Performs effects in order, and those of the events they cause after them.
    private func carryOut(_ effects: [GatewayEffect]) { Reactor.carryOut(effects, perform) }

    private func perform(_ effect: GatewayEffect) -> [GatewayEffect] {
        let now = monotonic()
        switch effect {
        case .flush(let id): return writeOut(id)
        case .finishWriting(let id):
            touch(id)
            reactor.shutdown(Self.browser(id), reading: false)
        case .close(let id):
            touch(id)
            reactor.close(Self.browser(id))
        case .connectUpstream(let id):
            touch(id)
            do {
                if case .socket(let fd) = try upstream.connect(id) { reactor.adopt(fd, as: Self.upstream(id)) }
                return gateway.handle(.upstreamConnected(id), at: now)
            } catch {
                return gateway.handle(.upstreamUnavailable(id, reason: "\(error)"), at: now)
            }
        case .sendUpstream(let id, let bytes):
            // A request line is small and the socket new: it goes whole or the
            // connection is treated as gone. A pushed upstream takes it as it is.
            touch(id)
            guard reactor.contains(Self.upstream(id)) else {
                upstream.request(id, line: bytes)
                break
            }
            guard let written = reactor.write(Self.upstream(id), count: 1, from: 0, chunk: { _ in bytes }) else { break }
            if written.count != bytes.count {
                reactor.close(Self.upstream(id))
                return gateway.handle(.upstreamClosed(id), at: now)
            }
        case .closeUpstream(let id):
            touch(id)
            upstream.close(id)
            reactor.close(Self.upstream(id))
        case .log(let level, let message): log.log(level, message)
        case .releaseMemory: _ = malloc_trim(0)
        }
        return []
    }

    /// Lines and ends a pushed upstream delivered. A stream whose browser is past its
    /// buffer is not given more: its upstream ends (the browser is told and resumes from
    /// its last event id, from the upstream's tail), so it never holds up the others.
    private func takeDeliveries() {
        for item in upstream.takeDeliveries() {
            let id = item.client
            touch(id)
            guard gateway.output(id) != nil else {
                upstream.close(id)
                continue
            }
            switch item.delivery {
            case .bytes(let bytes):
                if gateway.takesPushedLine(id) {
                    apply(.upstreamReceived(id, bytes[...]))
                } else {
                    upstream.close(id)
                    apply(.upstreamClosed(id))
                }
            case .closed(let reason):
                apply(.upstreamClosed(id, reason: reason))
            }
        }
    }

    // MARK: - Sockets

    private func acceptAll() {
        do {
            // A fixed send buffer: the kernel would let a stalled browser's socket grow
            // to megabytes (TCP autotuning), beyond the gateway's own bound.
            // Always accepted: the gateway bounds the heads arriving by evicting the
            // oldest. Read at once: a browser's head is usually there already, and then
            // never waits in the table of pending heads (where a burst would evict it).
            // At most `acceptsPerWakeUp` at a time, so a flood of connections does not
            // keep the loop from the others (the listener, level-triggered, wakes it again).
            var accepted = 0
            try reactor.acceptPending(on: Self.listening, sendBuffer: Self.socketSendBuffer, while: { accepted < Self.acceptsPerWakeUp }) { fd in
                accepted += 1
                let id = nextID
                nextID += 1
                let peer = GatewayListener.peerHost(fd)
                readHeadsBeforeEviction(forNewFrom: peer)
                reactor.adopt(fd, as: Self.browser(id))
                apply(.browserAccepted(id, peer: peer, refusal: accountRefusal(fd)))
                readBrowser(id)
                touch(id)
            }
        } catch {
            log.log(.warning, "accept failed: \(error)\(reactor.listeningPaused ? " (not accepting until the next tick)" : "")")
        }
    }

    /// Reads the heads a new connection would evict once more first: the bytes of a
    /// browser in a burst may be there though its readiness was not reported yet. One
    /// wasted `recv` per connection under attack, when the oldest head has nothing new.
    /// Why the account at the other end of `fd` may not ask (`PeerPolicy`), on a loopback
    /// TCP listener with a policy; nil otherwise.
    private func accountRefusal(_ fd: Int32) -> String? {
        guard let policy = gateway.config.peerPolicy else { return nil }
        switch gateway.config.listen {
        case .inet, .inet6: break
        case .unix: return nil
        }
        let uid = PeerAccount.uid(ofPeerOf: fd)
        let refusal = policy.refusal(uid: uid, groups: UserDatabase.groups(ofUID:))
        if let refusal { log.log(.notice, "refused a connection from another account: \(refusal)") }
        return refusal
    }

    private func readHeadsBeforeEviction(forNewFrom peer: String) {
        var tried: Set<ClientID> = []
        while true {
            let victims = gateway.headsToEvict(forNewFrom: peer)
            guard let next = [victims.perAddress, victims.total].compactMap({ $0 }).first(where: { !tried.contains($0) }) else { return }
            tried.insert(next)
            readBrowser(next)
        }
    }

    private func readBrowser(_ id: ClientID) {
        reactor.read(Self.browser(id), rounds: 1) { received in
            switch received {
            case .bytes(let bytes): apply(.browser(.received(id, bytes)))
            case .end: apply(.browser(.peerClosed(id)))
            case .failed(let error): apply(.browser(.failed(id, reason: "read error (\(error))")))
            }
            touch(id)
            return false
        }
    }

    /// At most 256 KiB per wake-up (four reads), so one busy subscription cannot starve
    /// the others.
    private func readUpstream(_ id: ClientID) {
        guard gateway.interest(id).upstreamRead else { return }
        reactor.read(Self.upstream(id), rounds: 4) { received in
            touch(id)
            guard case .bytes(let bytes) = received else {
                reactor.close(Self.upstream(id))
                apply(.upstreamClosed(id))
                return false
            }
            apply(.upstreamReceived(id, bytes))
            return gateway.interest(id).upstreamRead
        }
    }

    /// Writes what the socket takes of the browser's queue; returns the gateway's answer.
    private func writeOut(_ id: ClientID) -> [GatewayEffect] {
        touch(id)
        guard let queue = gateway.output(id) else { return [] }
        let pending = queue.pending
        guard let written = reactor.write(Self.browser(id), count: pending.count, from: queue.offset, chunk: { pending[$0] }) else { return [] }
        let event: ConnectionEvent = written.broken ? .failed(id, reason: "write failed") : .wrote(id, count: written.count)
        return gateway.handle(.browser(event), at: monotonic())
    }

    /// Now as an HTTP `Date` (IMF-fixdate: `Tue, 01 Dec 2026 02:30:00 GMT`).
    public static func httpDate() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// Raises the soft limit on open descriptors to the hard one: each stream holds two.
    public static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(RLIMIT_NOFILE_VALUE, &limit)
    }
}

/// `RLIMIT_NOFILE` as the type Glibc's Swift overlay wants.
private let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
