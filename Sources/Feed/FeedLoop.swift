import Agenda
import CLinux
import Diagnostics
import Glibc
import LiveSources
import Reactor
import RuntimeDirectories
import Synchronization
import Threads

/// Messages to the feed loop from other threads.
enum LoopMessage: Sendable {
    case recomputed(RecomputeOutput)
    case sources(SourceRunner.Report)
    case shutdown
    case reopen
}

/// The feed's I/O: one thread on the shared `Reactor` (epoll), non-blocking sockets. It
/// only moves bytes and time into `FeedHub` and carries out the effects the hub returns;
/// every decision (who gets what, when to close, when to ping the watchdog) is the hub's.
///
/// Each connection is registered with the interest the hub gives it (read unless it is
/// held back, write while output waits), and changed only when that changes: a wake-up
/// costs what is ready, not what is connected.
final class FeedLoop {
    private var hub: FeedHub
    private let log: Logger
    private let clocks: DaemonClocks
    private let listenFD: Int32
    private let socketPathToRemove: String?
    private let notifier: SystemdNotifier?
    private let recomputer: Recomputer
    private let sources: SourceRunner
    private let mailbox: Mailbox<LoopMessage>
    private let clockWatch: WallClockWatch
    private let reactor: Reactor
    /// Writes a diff's flushes to thousands of subscribers from every core.
    private let writers = WriterPool(threads: WriterPool.availableCores(), name: "eventd-writer")
    /// Ticks at least this often (a second, or less so that watchdog pings are never late).
    private let tickInterval: Duration
    /// Connection ids (the reactor's ids of their descriptors): never reused.
    private var nextConnectionID = 1
    private var listening = true
    private var exiting = false

    /// The reactor's ids of the fixed descriptors (connections count from 1).
    private enum Token {
        static let wake = -1
        static let clock = -2
        static let listen = -3
    }

    init(hub: FeedHub, log: Logger, clocks: DaemonClocks, listenFD: Int32, socketPathToRemove: String?,
         notifier: SystemdNotifier?, recomputer: Recomputer, sources: SourceRunner, mailbox: Mailbox<LoopMessage>,
         wakePipe: WakePipe, environment: [String: String]) throws {
        self.hub = hub
        self.log = log
        self.clocks = clocks
        self.listenFD = listenFD
        self.socketPathToRemove = socketPathToRemove
        self.notifier = notifier
        self.recomputer = recomputer
        self.sources = sources
        self.mailbox = mailbox
        clockWatch = WallClockWatch(environment: environment)
        reactor = try Reactor()
        tickInterval = min(.seconds(1), max(.milliseconds(10), (hub.watchdogInterval ?? .seconds(2)) / 2))
        try reactor.watch(wakePipe, as: Token.wake)
        if clockWatch.fd >= 0 { try reactor.watch(clockWatch.fd, as: Token.clock, interest: .readable) }
        try reactor.watch(listenFD, as: Token.listen, interest: .readable)
    }

    /// Runs until the hub says to exit (after shutdown, pending messages flushed or 2 s).
    func run() throws {
        var nextTick = clocks.monotonic()
        while !exiting {
            let stopping = hub.shutdownDeadline != nil
            let now = clocks.monotonic()
            var tickNow = stopping
            let deadline = stopping ? now + .milliseconds(50) : nextTick
            for event in try reactor.wait(until: deadline, now: now) {
                switch event.id {
                case Token.wake: takeMessages()
                case Token.clock: if clockWatch.acknowledge() { tickNow = true }
                case Token.listen: if listening { acceptAll() }
                case let id:
                    guard reactor.contains(id) else { continue }
                    if event.readable || event.broken { read(from: id) }
                    if event.writable, reactor.contains(id) { flush(id) }
                }
            }
            if tickNow || clocks.monotonic() >= nextTick {
                if let zone = clockWatch.zoneChange() { apply(.systemZoneChanged(zone)) }
                apply(.tick)
                reactor.recheckHeldBack()
                if listening { reactor.resumeListening() }
                nextTick = clocks.monotonic() + tickInterval
            }
            reactor.updateInterests({ id in
                let wanted = hub.interest(id)
                return Reactor.Interest(read: wanted.read, write: wanted.write)
            }, failed: { id, error in apply(.connection(.failed(id, reason: "\(error)"))) })
        }
        writers.stop()
        for id in reactor.ids where id >= 0 { reactor.close(id) }
    }

    private func apply(_ event: FeedEvent) { carryOut(hub.handle(event, at: clocks.now())) }

    /// Performs effects in order, and those of the events they cause after them. A run
    /// of flushes (a publication's, one per subscriber) is written as one batch.
    private func carryOut(_ effects: [FeedEffect]) {
        var queue = effects
        var i = 0
        while i < queue.count {
            var ids: [ConnectionID] = []
            while i < queue.count, case .flush(let id) = queue[i] {
                ids.append(id)
                i += 1
            }
            if !ids.isEmpty {
                queue += flush(ids)
            } else {
                queue += perform(queue[i])
                i += 1
            }
        }
    }

    /// Carries out one effect; returns the hub's effects of any event it caused.
    private func perform(_ effect: FeedEffect) -> [FeedEffect] {
        switch effect {
        case .flush(let id):
            reactor.markDirty(id)
            return writeOut(id)
        case .refuse(let id, let bytes):
            _ = reactor.write(id, count: 1, from: 0, chunk: { _ in bytes })
            reactor.close(id)
        case .stopReading(let id):
            reactor.markDirty(id)
            reactor.shutdown(id, reading: true)
        case .close(let id): reactor.close(id)
        case .recompute(let job): recomputer.submit(job)
        case .syncSources(let names, let token): sources.sync(names: names, token: token)
        case .reloadSources: sources.reload()
        case .reopenSources: sources.reopen()
        case .notify(let message): notifier?.send(message)
        case .log(let level, let message): log.log(level, message)
        case .stopListening:
            guard listening else { break }
            listening = false
            reactor.close(Token.listen)
            close(listenFD)
            if let path = socketPathToRemove { unlink(path) }
        case .exit: exiting = true
        }
        return []
    }

    private func takeMessages() {
        for message in mailbox.takeAll() {
            switch message {
            case .recomputed(let output):
                let started = clocks.monotonic(), startedCPU = DaemonClocks.threadCPUSeconds()
                apply(.recomputed(output))
                // How long handing one state to every subscriber took (the fan-out), and
                // how much of it this thread ran (the rest, the readers had the cores).
                if case .published(let view, let publication) = output {
                    let wall = Int((clocks.monotonic() - started).seconds * 1000), cpu = Int((DaemonClocks.threadCPUSeconds() - startedCPU) * 1000)
                    log.debug("view \(view.timeZone)/\(view.days)d: seq \(publication.seq) handed out in \(wall) ms (\(cpu) ms of this thread's CPU)")
                }
            case .sources(let report): apply(.sources(report))
            case .shutdown: apply(.shutdown)
            case .reopen: apply(.reopen)
            }
        }
    }

    // MARK: - Sockets

    private func acceptAll() {
        do {
            try reactor.acceptPending(on: Token.listen, while: { listening }) { fd in
                let id = nextConnectionID
                nextConnectionID += 1
                reactor.adopt(fd, as: id)
                let peer = SocketPeer.uid(fd)
                apply(peer == getuid() || peer == 0 ? .ownUserConnected(id) : .connection(.accepted(id)))
            }
        } catch {
            log.warning("accept failed: \(error)\(reactor.listeningPaused ? " (not accepting until the next tick)" : "")")
        }
    }

    /// At most 256 KiB per wake-up (four reads).
    private func read(from id: ConnectionID) {
        reactor.read(id, rounds: 4) { received in
            switch received {
            case .bytes(let bytes):
                apply(.connection(.received(id, bytes)))
                reactor.markDirty(id)
                return hub.interest(id).read
            case .end: apply(.connection(.peerClosed(id)))
            case .failed(let error): apply(.connection(.failed(id, reason: "read error (\(error))")))
            }
            return false
        }
    }

    private func flush(_ id: ConnectionID) {
        reactor.markDirty(id)
        carryOut(writeOut(id))
    }

    /// Writes what the socket takes of the connection's queue; returns the hub's answers.
    /// When the kernel took a snapshot's whole piece, the hub is told (it takes the next
    /// piece) and writing goes on while the socket takes more.
    private func writeOut(_ id: ConnectionID) -> [FeedEffect] {
        var effects: [FeedEffect] = []
        let now = clocks.now()
        while let result = send(queueOf: id) {
            effects += wrote(result, to: id, at: now)
            guard result.stoppedAfterMark, !result.broken else { break }
        }
        return effects
    }

    private func wrote(_ result: Reactor.Written, to id: ConnectionID, at now: Moment) -> [FeedEffect] {
        let event: ConnectionEvent = result.broken ? .failed(id, reason: "write failed") : .wrote(id, count: result.count)
        return hub.handle(.connection(event), at: now)
    }

    /// Flushes many connections at once: their queues written on every core
    /// (`WriterPool`), all before the hub hears of any write, so that the last
    /// subscriber's bytes leave as soon as the first one's; then the hub is told of each
    /// write in turn, on this thread alone. Each connection is written once however
    /// often it is named (a second flush finds nothing new to write).
    private func flush(_ ids: [ConnectionID]) -> [FeedEffect] {
        guard ids.count >= writers.minimumJobsPerThread else { return ids.flatMap { perform(.flush($0)) } }
        var batch = WriteBatch(capacity: ids.count)
        var written: [ConnectionID] = []
        written.reserveCapacity(ids.count)
        reactor.beginBatch()
        for id in ids {
            reactor.markDirty(id)
            guard let fd = reactor.claimForBatch(id), let outbox = hub.output(id) else { continue }
            // Up to the first snapshot piece that others follow: the hub takes the next one.
            let pending = outbox.pending, first = pending.startIndex
            let cut = pending.firstIndex(where: \.hasMorePieces)
            batch.add(fd: fd, offset: outbox.offset, stopsAfterLast: cut != nil, count: (cut.map { $0 + 1 } ?? pending.endIndex) - first,
                      chunk: { pending[first + $0].bytes })
            written.append(id)
        }
        let results = writers.write(batch)
        let now = clocks.now()
        var effects: [FeedEffect] = []
        for (id, result) in zip(written, results) {
            effects += wrote(result, to: id, at: now)
            if result.stoppedAfterMark, !result.broken { effects += writeOut(id) }
        }
        return effects
    }

    /// (Its own function so that the copy of the queue is gone before the hub changes it.)
    ///
    /// The queued messages are the vectors themselves (a diff encoded once is never
    /// copied per subscriber). It stops after a snapshot's piece that others follow
    /// (`stoppedAfterMark` when the kernel took all of it): the next piece is the hub's
    /// to take.
    private func send(queueOf id: ConnectionID) -> Reactor.Written? {
        guard let outbox = hub.output(id) else { return nil }
        let pending = outbox.pending
        let first = pending.startIndex
        return reactor.write(id, count: pending.count, from: outbox.offset, chunk: { pending[first + $0].bytes },
                             stopAfter: { pending[first + $0].hasMorePieces })
    }
}

/// The feed loop's thread (`eventd-feed`) as a service of the daemon: its stop posts
/// `.shutdown`, and the loop stops accepting, flushes its subscribers (at most 2 s) and
/// returns. `body` runs the loop; it ends before a stop only when the loop failed.
final class FeedLoopService: Service {
    let name = "feed loop"
    /// The loop's own flush deadline (2 s) and a margin to close.
    let stopDeadline: Duration = .seconds(3)
    private let mailbox: Mailbox<LoopMessage>
    private let body: @Sendable () -> Void
    private let thread = Mutex<ServiceThread<Never>?>(nil)

    init(mailbox: Mailbox<LoopMessage>, body: @escaping @Sendable () -> Void) {
        self.mailbox = mailbox
        self.body = body
    }

    func start() {
        let body = self.body
        thread.withLock { $0 = ServiceThread(name: "eventd-feed") { _ in body() } }
    }

    func requestStop() { mailbox.post(.shutdown) }

    func join(deadline: Duration) -> Bool { thread.withLock { $0 }?.join(deadline: deadline) ?? true }
}

/// Wakes the feed loop the moment the wall clock is set (`timerfd` with
/// `TFD_TIMER_CANCEL_ON_SET`: an absolute timer far in the future that the kernel
/// cancels when `CLOCK_REALTIME` steps), and reads the system's zone name so that a
/// change of `/etc/localtime` is seen within a tick. Steps the kernel does not report
/// (resume from suspend, libfaketime) are caught by `ClockJumpDetector` at the next tick.
final class WallClockWatch {
    /// Readable when the wall clock was set; -1 when timerfd is not available.
    let fd: Int32
    private let environment: [String: String]
    private(set) var zoneName: String
    /// A valid `TZ` names the zone for the life of the process: nothing to watch.
    private let fixedByTZ: Bool

    init(environment: [String: String]) {
        self.environment = environment
        zoneName = AgendaClock.systemZoneName(environment: environment)
        fixedByTZ = AgendaClock.zoneNameFromTZ(environment) != nil
        fd = timerfd_create(CLOCK_REALTIME, eventd_tfd_cloexec | eventd_tfd_nonblock)
        arm()
    }

    deinit { if fd >= 0 { close(fd) } }

    private func arm() {
        guard fd >= 0 else { return }
        var spec = itimerspec()
        spec.it_value.tv_sec = Int(Int32.max) // 2038: far enough; re-armed after every step
        _ = timerfd_settime(fd, eventd_tfd_timer_abstime | eventd_tfd_timer_cancel_on_set, &spec, nil)
    }

    /// After `fd` was readable: whether the clock was set (then the timer is re-armed).
    func acknowledge() -> Bool {
        var expirations: UInt64 = 0
        let n = read(fd, &expirations, 8)
        let stepped = n < 0 && errno == ECANCELED
        arm()
        return stepped
    }

    /// The system's zone now, when it differs from the last one seen.
    func zoneChange() -> String? {
        guard !fixedByTZ else { return nil }
        let name = AgendaClock.systemZoneName(environment: environment)
        guard name != zoneName else { return nil }
        zoneName = name
        return name
    }
}
