import Diagnostics
import Threads
import Glibc
import LiveSources

/// Messages to the feed loop from other threads.
enum LoopMessage: Sendable {
    case recomputed(RecomputeOutput)
    case sources(SourceRunner.Report)
    case shutdown
    case reopen
}

/// The feed's I/O: one thread, epoll, non-blocking sockets. It only moves bytes and
/// time into `FeedHub` and carries out the effects the hub returns; every decision
/// (who gets what, when to close, when to ping the watchdog) is the hub's.
///
/// Each connection is registered once with the interest the hub gives it (read unless
/// it is held back, write while output waits), and changed only when that changes: a
/// wake-up costs what is ready, not what is connected.
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
    private let wakePipe: WakePipe
    private let clockWatch: WallClockWatch
    private let poller: EventPoller
    /// Ticks at least this often (a second, or less so that watchdog pings are never late).
    private let tickInterval: Double

    /// Each connection's descriptor, and what it is registered for, as last told to
    /// epoll (nil before the first registration).
    private var descriptors = ConnectionTable<(fd: Int32, registered: EventPoller.Interest?)>()
    /// Connections whose interest may have changed since it was last registered.
    private var dirty: [ConnectionID] = []
    /// Connections registered without read interest (held back): checked again each
    /// tick, since the hub may let them read again without output of theirs changing.
    private var heldBack: Set<ConnectionID> = []
    private var nextConnectionID = 1
    private var listening = true
    private var exiting = false
    private var readBuffer = [UInt8](repeating: 0, count: 65536)
    /// `send`'s vectors, kept between calls.
    private var vectors: [iovec] = []

    private enum Token {
        static let wake: UInt64 = 0
        static let clock: UInt64 = 1
        static let listen: UInt64 = 2
        /// Connection tokens are their ids plus this (ids are never reused; descriptors are).
        static let firstConnection: UInt64 = 16
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
        self.wakePipe = wakePipe
        clockWatch = WallClockWatch(environment: environment)
        poller = try EventPoller()
        tickInterval = min(1, max(0.01, (hub.watchdogInterval ?? 2) / 2))
        let readable = EventPoller.Interest(read: true, write: false)
        poller.add(wakePipe.readFD, token: Token.wake, interest: readable)
        if clockWatch.fd >= 0 { poller.add(clockWatch.fd, token: Token.clock, interest: readable) }
        poller.add(listenFD, token: Token.listen, interest: readable)
    }

    /// Runs until the hub says to exit (after shutdown, pending messages flushed or 2 s).
    func run() {
        var nextTick = clocks.monotonic()
        while !exiting {
            let stopping = hub.shutdownDeadline != nil
            let wait = stopping ? 0.05 : max(0, nextTick - clocks.monotonic())
            var tickNow = stopping
            for event in poller.wait(timeout: wait) {
                switch event.token {
                case Token.wake: wakePipe.drain(); takeMessages()
                case Token.clock: if clockWatch.acknowledge() { tickNow = true }
                case Token.listen: if listening { acceptAll() }
                default:
                    let id = ConnectionID(event.token - Token.firstConnection)
                    guard descriptors.contains(id) else { continue }
                    if event.readable || event.broken { read(from: id) }
                    if event.writable, descriptors.contains(id) { flush(id) }
                }
            }
            if tickNow || clocks.monotonic() >= nextTick {
                if let zone = clockWatch.zoneChange() { apply(.systemZoneChanged(zone)) }
                apply(.tick)
                dirty.append(contentsOf: heldBack)
                nextTick = clocks.monotonic() + tickInterval
            }
            registerInterests()
        }
        for id in descriptors.keys { closeConnection(id) }
    }

    /// Tells epoll what changed in the interests of the connections touched since the
    /// last wake-up.
    private func registerInterests() {
        for id in dirty {
            guard let (fd, registered) = descriptors[id] else { continue }
            let wanted = hub.interest(id)
            let interest = EventPoller.Interest(read: wanted.read, write: wanted.write)
            guard registered != interest else { continue }
            if registered == nil {
                poller.add(fd, token: Token.firstConnection + UInt64(id), interest: interest)
            } else {
                poller.modify(fd, token: Token.firstConnection + UInt64(id), interest: interest)
            }
            descriptors[live: id].registered = interest
            if interest.read { heldBack.remove(id) } else { heldBack.insert(id) }
        }
        dirty.removeAll(keepingCapacity: true)
    }

    private func apply(_ event: FeedEvent) { carryOut(hub.handle(event, at: clocks.now())) }

    /// Performs effects in order, and those of the events they cause after them.
    private func carryOut(_ effects: [FeedEffect]) {
        var queue = effects
        var i = 0
        while i < queue.count {
            queue.append(contentsOf: perform(queue[i]))
            i += 1
        }
    }

    /// Carries out one effect; returns the hub's effects of any event it caused.
    private func perform(_ effect: FeedEffect) -> [FeedEffect] {
        switch effect {
        case .flush(let id):
            dirty.append(id)
            return writeOut(id)
        case .refuse(let id, let bytes):
            if let (fd, _) = descriptors.removeValue(forKey: id) {
                _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                close(fd)
            }
        case .stopReading(let id):
            dirty.append(id)
            if let (fd, _) = descriptors[id] { shutdown(fd, Int32(SHUT_RD)) }
        case .close(let id): closeConnection(id)
        case .recompute(let job): recomputer.submit(job)
        case .syncSources(let names, let token): sources.sync(names: names, token: token)
        case .reloadSources: sources.reload()
        case .reopenSources: sources.reopen()
        case .notify(let message): notifier?.send(message)
        case .log(let level, let message): log.log(level, message)
        case .stopListening:
            guard listening else { break }
            listening = false
            poller.remove(listenFD)
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
                    let wall = Int((clocks.monotonic() - started) * 1000), cpu = Int((DaemonClocks.threadCPUSeconds() - startedCPU) * 1000)
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
        while true {
            let fd = accept(listenFD, nil, nil)
            if fd >= 0 {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
            if fd < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK { log.warning("accept failed: \(String(cString: strerror(errno)))") }
                return
            }
            let id = nextConnectionID
            nextConnectionID += 1
            descriptors[id] = (fd, nil)
            dirty.append(id)
            apply(.accepted(id))
        }
    }

    private func closeConnection(_ id: ConnectionID) {
        // Closing the descriptor also takes it out of the epoll set.
        if let (fd, _) = descriptors.removeValue(forKey: id) { close(fd) }
        heldBack.remove(id)
    }

    /// At most 256 KiB per wake-up: a client that writes as fast as it can gets its turn
    /// like every other one instead of keeping the loop to itself.
    private func read(from id: ConnectionID) {
        for _ in 0..<4 {
            guard let (fd, _) = descriptors[id] else { return }
            let n = readBuffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n == 0 { apply(.peerClosed(id)); return }
            if n < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK { apply(.failed(id, reason: "read error")) }
                return
            }
            apply(.received(id, readBuffer[0..<n]))
            dirty.append(id)
            if !hub.interest(id).read { return }
        }
    }

    private func flush(_ id: ConnectionID) {
        dirty.append(id)
        carryOut(writeOut(id))
    }

    /// Writes what the socket takes of the connection's queue; returns the hub's answers.
    /// When the kernel took a snapshot's whole piece, the hub is told (it takes the next
    /// piece) and writing goes on while the socket takes more.
    private func writeOut(_ id: ConnectionID) -> [FeedEffect] {
        var effects: [FeedEffect] = []
        while let (fd, _) = descriptors[id], let result = send(queueOf: id, to: fd) {
            let event: FeedEvent = result.broken ? .failed(id, reason: "write failed") : .wrote(id, count: result.written)
            effects += hub.handle(event, at: clocks.now())
            guard result.pieceDone, !result.broken else { break }
        }
        return effects
    }

    /// (Its own function so that the copy of the queue is gone before the hub changes it.)
    ///
    /// One `sendmsg` per call with up to `maxVectors` queued messages as its vectors, the
    /// shared bytes themselves (a diff encoded once is never copied per subscriber); more
    /// only if the kernel took all of them and more wait. It stops after a snapshot's
    /// piece that others follow (`pieceDone` when the kernel took all of it): the next
    /// piece is the hub's to take.
    private func send(queueOf id: ConnectionID, to fd: Int32) -> (written: Int, broken: Bool, pieceDone: Bool)? {
        guard let outbox = hub.output(id) else { return nil }
        var written = 0
        var pending = outbox.pending[...]
        var offset = outbox.offset
        while !pending.isEmpty {
            var batch = pending.prefix(Self.maxVectors)
            if let cut = batch.firstIndex(where: { $0.hasMorePieces }) { batch = batch[...cut] }
            // (One array for every send: an allocation per heartbeat showed in perf.)
            vectors.removeAll(keepingCapacity: true)
            let n = Self.withVectors(batch, first: offset, into: &vectors) { iov in
                var header = msghdr()
                header.msg_iov = UnsafeMutablePointer(mutating: iov.baseAddress)
                header.msg_iovlen = iov.count
                return sendmsg(fd, &header, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if n < 0 {
                if errno == EINTR { continue }
                return (written, errno != EAGAIN && errno != EWOULDBLOCK, false)
            }
            written += n
            // Advance over what the kernel took.
            var left = n + offset
            offset = 0
            while let first = pending.first, left >= first.bytes.count {
                left -= first.bytes.count
                pending = pending.dropFirst()
            }
            if left > 0 { return (written, false, false) } // the socket is full part-way through a message
            if batch.last!.hasMorePieces { return (written, false, true) }
            if batch.count < Self.maxVectors { break }
        }
        return (written, false, false)
    }

    /// Queued messages per `sendmsg` (well under `IOV_MAX`, 1024).
    private static let maxVectors = 64

    /// Calls `body` with an iovec per message (the first from `first`), each pointing into
    /// the message's own storage, which stays valid for the whole call because every
    /// `withUnsafeBytes` is still open when `body` runs.
    private static func withVectors(_ messages: ArraySlice<Outbox.Message>, first: Int, into vectors: inout [iovec],
                                    _ body: (UnsafeBufferPointer<iovec>) -> Int) -> Int {
        guard let message = messages.first else { return vectors.withUnsafeBufferPointer(body) }
        return message.bytes.withUnsafeBytes { raw in
            let skip = vectors.isEmpty ? first : 0
            if raw.count > skip {
                vectors.append(iovec(iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + skip), iov_len: raw.count - skip))
            }
            return withVectors(messages.dropFirst(), first: first, into: &vectors, body)
        }
    }
}
