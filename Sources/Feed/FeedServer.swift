import Foundation
import Glibc
import Agenda
import ICalendar
import Support
import Synchronization

/// Events handed to the loop from other threads.
enum LoopEvent: Sendable {
    case recompute(RecomputeOutput)
    case shutdown
    case reopen
}

/// The feed socket's event loop: one thread, `poll`, non-blocking sockets. It owns
/// every connection and every view's published state (sequence, snapshot message,
/// retained diffs). Each diff is encoded once and the same bytes are queued for
/// every subscriber of its view.
final class FeedServer: @unchecked Sendable {
    struct ViewFeed {
        var seq: Int64 = 0
        var snapshotMessage: [UInt8] = []
        var history: [(seq: Int64, bytes: [UInt8])] = []
        var subscribers = Set<Int32>()
        var idleSince: Double?
    }

    private let config: DaemonConfiguration
    private let log: Logger
    private let clock: AgendaClock
    private let epoch: String
    private let listenFD: Int32
    private let ownsSocketFile: Bool
    private let notifier: SystemdNotifier?
    let recomputer: Recomputer

    private let inbox = Mutex<[LoopEvent]>([])
    /// A self-pipe: other threads write a byte to wake the loop.
    private let wakeRead: Int32
    private let wakeWrite: Int32

    private var connections: [Int32: ClientConnection] = [:]
    private var views: [View: ViewFeed] = [:]
    /// One-shot snapshot requests in the recomputer: the asking connection by fd and id
    /// (an fd closed meanwhile may already belong to a new connection).
    private var pendingOneShots: [Int: (fd: Int32, id: Int)] = [:]
    private var nextToken = 1
    private var nextConnectionID = 1
    private var info = StoreInfo(calendars: [], eventCount: 0, lastRecompute: 0, lastDurationMS: 0, healthy: true, problem: nil)
    private let started: Double
    private var stopping = false
    private var lastWatchdog: Double = 0
    private var lastStatusNotify: Double = 0
    private var ready = false
    /// Longest poll() wait: 1 s, or less so that watchdog pings are never late.
    private let idleTimeoutMS: Int32

    init(config: DaemonConfiguration, log: Logger, clock: AgendaClock, epoch: String, listenFD: Int32,
         ownsSocketFile: Bool, notifier: SystemdNotifier?, recomputerFactory: (@escaping @Sendable (RecomputeOutput) -> Void) -> Recomputer) {
        self.config = config
        self.log = log
        self.clock = clock
        self.epoch = epoch
        self.listenFD = listenFD
        self.ownsSocketFile = ownsSocketFile
        self.notifier = notifier
        idleTimeoutMS = notifier?.watchdogInterval.map { Int32(max(10, min(1000, $0 * 500))) } ?? 1000
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        self.wakeRead = fds[0]
        self.wakeWrite = fds[1]
        self.started = clock.preciseNow()
        let box = WeakBox()
        self.recomputer = recomputerFactory { output in box.server?.post(.recompute(output)) }
        box.server = self
    }

    private final class WeakBox: @unchecked Sendable { weak var server: FeedServer? }

    /// Hands an event to the loop (any thread).
    func post(_ event: LoopEvent) {
        inbox.withLock { $0.append(event) }
        var one: UInt8 = 1
        _ = write(wakeWrite, &one, 1)
    }

    // MARK: - The loop

    /// Runs until shutdown; returns after pending messages were flushed (bounded).
    func run() {
        var shutdownDeadline: Double?
        var listening = true
        var fds: [pollfd] = []
        while true {
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
            if listening { fds.append(pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0)) }
            for c in connections.values {
                // A subscriber owed a resync (its queue was dropped) waits for POLLOUT too:
                // the resync goes out as soon as it reads again.
                let reading = !c.closeAfterFlush && acceptsRequests(c)
                let events = (reading ? Int16(POLLIN) : 0) | (c.hasPending || c.needsResync ? Int16(POLLOUT) : 0)
                fds.append(pollfd(fd: c.fd, events: events, revents: 0))
            }
            let n = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), stopping ? 50 : idleTimeoutMS) }
            let now = clock.preciseNow()
            if n > 0 {
                for p in fds where p.revents != 0 {
                    if p.fd == wakeRead { drainEvents(now: now); continue }
                    if listening, p.fd == listenFD { if !stopping { acceptAll(now: now) }; continue }
                    guard let c = connections[p.fd] else { continue }
                    if p.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 { readFrom(c, now: now) }
                    if connections[p.fd] != nil, p.revents & Int16(POLLOUT) != 0 { flush(c, now: now) }
                }
                // Requests held back (see acceptsRequests) go on once their client caught up.
                for c in connections.values where !c.closeAfterFlush && c.readBuffer.contains(10) && acceptsRequests(c) {
                    if connections[c.fd] === c { processLines(c, now: now) }
                }
            }
            if stopping {
                if shutdownDeadline == nil {
                    shutdownDeadline = now + 2
                    beginShutdown(now: now)
                    listening = false
                }
                let pending = connections.values.contains { $0.hasPending }
                if !pending || now >= shutdownDeadline! { break }
                continue
            }
            housekeeping(now: now)
        }
        for fd in Array(connections.keys) { closeConnection(fd, reason: nil) }
        close(wakeRead)
        close(wakeWrite)
    }

    // MARK: - Connections

    private func acceptAll(now: Double) {
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
            if connections.count >= config.maxClients {
                let message = Messages.error(.overloaded, "too many connections (limit \(config.maxClients)); try again later")
                _ = message.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
                close(fd)
                log.warning("connection refused: \(config.maxClients) clients already")
                continue
            }
            let c = ClientConnection(fd: fd, id: nextConnectionID, now: now)
            nextConnectionID += 1
            connections[fd] = c
            send(c, Messages.hello(epoch: epoch), droppable: false, now: now)
            log.debug("client \(c.id) connected (\(connections.count) total)")
        }
    }

    private func closeConnection(_ fd: Int32, reason: String?) {
        guard let c = connections.removeValue(forKey: fd) else { return }
        if let view = c.view { unsubscribe(c, from: view) }
        close(fd)
        if let reason { log.info("client \(c.id) disconnected: \(reason)") }
    }

    private func readFrom(_ c: ClientConnection, now: Double) {
        var chunk = [UInt8](repeating: 0, count: 65536)
        // At most 256 KiB per wakeup: a client that writes as fast as it can gets its
        // turn like every other one instead of keeping the loop to itself.
        for _ in 0..<4 {
            let n = chunk.withUnsafeMutableBytes { recv(c.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n == 0 {
                // The client closed its side: finish what it asked for (including answers
                // still being computed), then close.
                if c.hasPending || awaitsAnswer(c) { c.closeAfterFlush = true; shutdown(c.fd, Int32(SHUT_RD)); flush(c, now: now) }
                else { closeConnection(c.fd, reason: nil) }
                return
            }
            if n < 0 {
                if errno == EINTR { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK { closeConnection(c.fd, reason: "read error") }
                return
            }
            if c.closeAfterFlush { continue } // ignore input after a fatal error
            c.readBuffer.append(contentsOf: chunk[0..<n])
            processLines(c, now: now)
            if connections[c.fd] == nil || c.closeAfterFlush || !acceptsRequests(c) { return }
        }
    }

    /// Most `snapshot` requests of one connection waiting for the recomputer.
    static let maxOneShotsPerConnection = 4

    /// Whether to read and act on more requests of `c`: not while more than
    /// --client-buffer bytes of answers wait unread, nor while it has
    /// `maxOneShotsPerConnection` snapshots being computed. Its requests then wait in the
    /// kernel, so a client that floods the socket without reading can neither grow the
    /// daemon's memory (answers are never dropped) nor flood the recomputer.
    private func acceptsRequests(_ c: ClientConnection) -> Bool {
        c.queuedBytes <= config.clientBuffer && c.oneShotsWaiting < Self.maxOneShotsPerConnection
    }

    private func processLines(_ c: ClientConnection, now: Double) {
        var start = 0
        let buffer = c.readBuffer
        while acceptsRequests(c), let newline = buffer[start...].firstIndex(of: 10) {
            var line = buffer[start..<newline]
            start = newline + 1
            if line.count > config.maxRequestLine {
                fatal(c, .lineTooLong, "request line over \(config.maxRequestLine) bytes", now: now)
                return
            }
            if line.last == 13 { line = line.dropLast() }
            if line.allSatisfy({ $0 == 32 || $0 == 9 }) { continue }
            handle(line, from: c, now: now)
            if connections[c.fd] == nil || c.closeAfterFlush { return }
        }
        c.readBuffer.removeFirst(start)
        // (Complete lines held back by acceptsRequests are checked when they are read.)
        if c.readBuffer.count > config.maxRequestLine, !c.readBuffer.contains(10) {
            fatal(c, .lineTooLong, "request line over \(config.maxRequestLine) bytes", now: now)
        }
    }

    /// Answers with an error, then closes the connection once the answer is out.
    private func fatal(_ c: ClientConnection, _ code: ErrorCode, _ message: String, now: Double) {
        c.readBuffer = []
        send(c, Messages.error(code, message), droppable: false, now: now)
        c.closeAfterFlush = true
        shutdown(c.fd, Int32(SHUT_RD))
        flush(c, now: now)
    }

    // MARK: - Requests

    private func handle(_ line: ArraySlice<UInt8>, from c: ClientConnection, now: Double) {
        switch Request.decode(line) {
        case .failure(let error):
            send(c, Messages.error(error.code, error.message), droppable: false, now: now)
        case .success(.ping):
            send(c, Messages.pong, droppable: false, now: now)
        case .success(.refresh):
            send(c, Messages.ok, droppable: false, now: now)
            recomputer.submit(.refresh)
        case .success(.status):
            send(c, statusMessage(now: now), droppable: false, now: now)
        case .success(.snapshot(let viewJSON)):
            guard let view = parseView(viewJSON, for: c, now: now) else { return }
            let token = nextToken
            nextToken += 1
            pendingOneShots[token] = (c.fd, c.id)
            c.oneShotsWaiting += 1
            recomputer.submit(.oneShot(view, token: token))
        case .success(.subscribe(let viewJSON, let resume)):
            guard let view = parseView(viewJSON, for: c, now: now) else { return }
            subscribe(c, to: view, resume: resume, now: now)
        }
    }

    private func parseView(_ json: JSONValue?, for c: ClientConnection, now: Double) -> View? {
        do {
            return try View.parse(json, defaultZone: config.timeZone, knownCalendars: info.calendars)
        } catch {
            send(c, Messages.error(.invalidView, error.message), droppable: false, now: now)
            return nil
        }
    }

    private func subscribe(_ c: ClientConnection, to view: View, resume: Request.Resume?, now: Double) {
        // Distinct views cost a recompute each: bound them (views without subscribers
        // count until their grace period ends).
        if views[view] == nil, views.count >= config.maxViews {
            send(c, Messages.error(.invalidView, "too many distinct views (limit \(config.maxViews)); use a view others use"),
                 droppable: false, now: now)
            return
        }
        if let old = c.view { unsubscribe(c, from: old) }
        c.view = view
        c.needsResync = false
        c.awaitingSnapshot = false
        c.pendingResync = nil
        var feed = views[view] ?? ViewFeed()
        feed.subscribers.insert(c.fd)
        feed.idleSince = nil
        views[view] = feed
        guard feed.seq > 0 else {
            // First subscriber of this view: compute it; the snapshot follows.
            c.awaitingSnapshot = true
            // The view is new in this run: a resume from another run is an epoch
            // change, one from this run has expired (the view was dropped).
            if let resume { c.pendingResync = resume.epoch == epoch ? "expired" : "epoch" }
            recomputer.submit(.activate(view))
            return
        }
        if let resume {
            if resume.epoch != epoch {
                send(c, Messages.resync("epoch"), droppable: false, now: now)
            } else if resume.seq == feed.seq {
                c.lastSeq = feed.seq
                return
            } else if resume.seq < feed.seq, let first = feed.history.first, first.seq <= resume.seq + 1 {
                for entry in feed.history where entry.seq > resume.seq { send(c, entry.bytes, droppable: true, now: now) }
                c.lastSeq = feed.seq
                return
            } else {
                send(c, Messages.resync("expired"), droppable: false, now: now)
            }
        }
        send(c, feed.snapshotMessage, droppable: true, now: now)
        c.lastSeq = feed.seq
    }

    private func unsubscribe(_ c: ClientConnection, from view: View) {
        guard var feed = views[view] else { return }
        feed.subscribers.remove(c.fd)
        if feed.subscribers.isEmpty { feed.idleSince = clock.preciseNow() }
        views[view] = feed
        c.view = nil
    }

    // MARK: - Publishing

    private func drainEvents(now: Double) {
        var drain = [UInt8](repeating: 0, count: 256)
        while read(wakeRead, &drain, 256) > 0 {}
        let events = inbox.withLock { box -> [LoopEvent] in defer { box.removeAll() }; return box }
        for event in events {
            switch event {
            case .shutdown: stopping = true
            case .reopen: recomputer.submit(.reopen)
            case .recompute(.info(let newInfo)):
                info = newInfo
                if !ready {
                    ready = true
                    notifier?.send("READY=1\nSTATUS=serving \(config.socketPath)")
                }
            case .recompute(.oneShot(let token, let message)):
                if let asker = pendingOneShots.removeValue(forKey: token), let c = connections[asker.fd], c.id == asker.id {
                    c.oneShotsWaiting -= 1
                    send(c, message, droppable: false, now: now)
                }
            case .recompute(.published(let view, let publication)):
                publish(view, publication, now: now)
            case .recompute(.failed(let view, let message)):
                failView(view, message, now: now)
            }
        }
    }

    /// A view whose first snapshot could not be built: its subscribers get
    /// `invalid_view` (their connections stay open) and the view is dropped.
    private func failView(_ view: View, _ message: String, now: Double) {
        guard let feed = views[view], feed.seq == 0 else { return }
        for fd in feed.subscribers {
            guard let c = connections[fd], c.view == view else { continue }
            c.view = nil
            c.awaitingSnapshot = false
            c.pendingResync = nil
            send(c, Messages.error(.invalidView, message), droppable: false, now: now)
        }
        views[view] = nil
        recomputer.submit(.deactivate(view))
    }

    private func publish(_ view: View, _ p: ViewPublication, now: Double) {
        guard var feed = views[view] else { return }
        let first = feed.seq == 0
        feed.seq = p.seq
        feed.snapshotMessage = p.snapshotMessage
        if let diff = p.diffMessage {
            feed.history.append((p.seq, diff))
            if feed.history.count > config.history { feed.history.removeFirst(feed.history.count - config.history) }
        }
        views[view] = feed
        for fd in feed.subscribers {
            guard let c = connections[fd] else { continue }
            if c.awaitingSnapshot || first {
                if let reason = c.pendingResync { send(c, Messages.resync(reason), droppable: false, now: now) }
                c.pendingResync = nil
                c.awaitingSnapshot = false
                send(c, p.snapshotMessage, droppable: true, now: now)
            } else if let diff = p.diffMessage, !c.needsResync {
                send(c, diff, droppable: true, now: now)
            }
            c.lastSeq = p.seq
        }
    }

    /// Queues a message; on overflow, queued subscription data is dropped and the
    /// subscriber gets `resync` and a fresh snapshot once it reads again.
    private func send(_ c: ClientConnection, _ bytes: [UInt8], droppable: Bool, now: Double) {
        if droppable, c.queuedBytes + bytes.count > config.clientBuffer, c.queuedBytes > 0 {
            c.dropUnstarted()
            if !c.needsResync { log.notice("client \(c.id) fell behind: queued diffs dropped, resync when it reads again") }
            c.needsResync = true
            return
        }
        c.enqueue(bytes, droppable: droppable, now: now)
        flush(c, now: now)
    }

    /// A snapshot the connection asked for is still being computed (a one-shot, or the
    /// first snapshot of a new view).
    private func awaitsAnswer(_ c: ClientConnection) -> Bool {
        c.awaitingSnapshot || pendingOneShots.values.contains { $0.id == c.id }
    }

    private func flush(_ c: ClientConnection, now: Double) {
        guard c.flush(now: now) else { closeConnection(c.fd, reason: "write failed"); return }
        if !c.hasPending {
            if c.closeAfterFlush {
                if !awaitsAnswer(c) { closeConnection(c.fd, reason: nil) }
                return
            }
            if c.needsResync, let view = c.view, let feed = views[view], feed.seq > 0 {
                c.needsResync = false
                c.enqueue(Messages.resync("overflow"), droppable: false, now: now)
                c.enqueue(feed.snapshotMessage, droppable: true, now: now)
                c.lastSeq = feed.seq
                flush(c, now: now)
                return
            }
        }
    }

    // MARK: - Timers

    private func housekeeping(now: Double) {
        for c in Array(connections.values) {
            // Dropped diffs (needsResync) are still unread data: the stall clock keeps running.
            if c.hasPending || c.needsResync, now - c.lastDrain > config.stallTimeout {
                closeConnection(c.fd, reason: "stalled for \(Int(config.stallTimeout)) s with unread data")
                continue
            }
            if let view = c.view, !c.hasPending, !c.awaitingSnapshot, now - c.lastSent >= config.heartbeat,
               let feed = views[view] {
                send(c, Messages.heartbeat(epoch: epoch, seq: feed.seq, time: Self.utcStamp(now)), droppable: true, now: now)
            }
        }
        for (view, feed) in views where feed.subscribers.isEmpty {
            if let idle = feed.idleSince, now - idle > config.viewGrace {
                views[view] = nil
                recomputer.submit(.deactivate(view))
            }
        }
        if let notifier {
            if let interval = notifier.watchdogInterval, now - lastWatchdog >= interval {
                lastWatchdog = now
                notifier.send("WATCHDOG=1")
            }
            if ready, now - lastStatusNotify >= 10 {
                lastStatusNotify = now
                let subscribers = views.values.reduce(0) { $0 + $1.subscribers.count }
                notifier.send("STATUS=\(views.count) view(s), \(subscribers) subscriber(s), \(connections.count) connection(s)")
            }
        }
    }

    private func beginShutdown(now: Double) {
        notifier?.send("STOPPING=1")
        close(listenFD)
        if ownsSocketFile { unlink(config.socketPath) }
        log.notice("shutting down: \(connections.count) connection(s), flushing pending messages")
    }

    // MARK: - Status

    private func statusMessage(now: Double) -> [UInt8] {
        let subscribers = views.values.reduce(0) { $0 + $1.subscribers.count }
        var fields: [String: JSONValue] = [
            "version": .string("0.1.0"),
            "epoch": .string(epoch),
            "uptime_seconds": .int(Int64(now - started)),
            "views": .int(Int64(views.count)),
            "subscribers": .int(Int64(subscribers)),
            "connections": .int(Int64(connections.count)),
            "database": .string(config.databasePath),
            "socket": .string(config.socketPath),
            "events": .int(Int64(info.eventCount)),
            "calendars": .int(Int64(info.calendars.count)),
            "healthy": .bool(info.healthy),
            "last_recompute": info.lastRecompute > 0
                ? .object(["time": .string(Self.utcStamp(info.lastRecompute)),
                           "duration_ms": .double((info.lastDurationMS * 10).rounded() / 10)])
                : .null,
        ]
        if let problem = info.problem { fields["problem"] = .string(problem) }
        return Messages.status(fields)
    }

    static func utcStamp(_ t: Double) -> String {
        let c = CivilDateTimeFormat.from(seconds: Int64(t))
        return c + "Z"
    }
}

/// `YYYY-MM-DDTHH:MM:SS` of a UTC instant.
enum CivilDateTimeFormat {
    static func from(seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = Int(seconds - days * 86_400)
        let d = CivilDate(daysSinceEpoch: Int(days))
        func p(_ v: Int, _ w: Int) -> String { let s = String(v); return String(repeating: "0", count: max(0, w - s.count)) + s }
        return "\(p(d.year, 4))-\(p(d.month, 2))-\(p(d.day, 2))T\(p(rest / 3600, 2)):\(p(rest / 60 % 60, 2)):\(p(rest % 60, 2))"
    }
}
