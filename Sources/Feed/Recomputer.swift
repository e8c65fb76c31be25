import Foundation
import Agenda
import EventStore
import ICalendar
import SectionedDiff
import Support
import Synchronization

/// What the recomputer tells the event loop.
enum RecomputeOutput: Sendable {
    /// A view's new state: the message for new subscribers, and the diff from the
    /// previous state (nil for the first snapshot).
    case published(View, ViewPublication)
    /// The answer to a one-shot `snapshot` request.
    case oneShot(token: Int, message: [UInt8])
    /// Facts for `status` and view validation.
    case info(StoreInfo)
    /// A view whose first snapshot could not be built (a window over
    /// `SnapshotEngine.maxItems` items): its subscribers are told instead of waiting.
    case failed(View, message: String)
}

/// One state of a view.
struct ViewPublication: Sendable {
    var seq: Int64
    var snapshotMessage: [UInt8]
    var diffMessage: [UInt8]?
}

/// Store facts the loop keeps for `status` and for validating views.
struct StoreInfo: Sendable {
    var calendars: Set<String>
    var eventCount: Int
    var lastRecompute: Double
    var lastDurationMS: Double
    var healthy: Bool
    var problem: String?
}

/// Owns the database connection and every active view's snapshot. Runs on its own
/// thread: it recomputes on the timer, at each view's local midnight, at once
/// (coalesced) on refresh, and skips the work when neither the database
/// (`PRAGMA data_version`) nor any view's date changed.
final class Recomputer: @unchecked Sendable {
    enum Job: Sendable {
        case activate(View)
        case deactivate(View)
        case refresh
        case reopen
        case oneShot(View, token: Int)
        case stop
    }

    private struct ViewState {
        var snapshot: AgendaSnapshot
        var feed: FeedSnapshot
        var seq: Int64
    }

    private let config: DaemonConfiguration
    private let log: Logger
    private let clock: AgendaClock
    private let epoch: String
    private let output: @Sendable (RecomputeOutput) -> Void

    private let inbox = Mutex<[Job]>([])
    private let wake = NSCondition()
    private var thread: Thread?
    private let stopped = Mutex(false)

    // Owned by the recompute thread.
    private var store: EventStore?
    private var engine = SnapshotEngine()
    private var views: [View: ViewState] = [:]
    private var lastDataVersion: Int64 = -1
    private var lastRecompute: Double = 0
    private var nextTick: Double = 0
    private var refreshDue: Double?
    private var lastDuration: Double = 0
    private var problem: String?
    /// Set when the database file was removed or replaced under us; unlike `problem`
    /// (a failed recompute), only a successful reopen (SIGHUP) clears it.
    private var fileProblem: String?
    /// The highest seq published in this run, over all views. A view that is dropped and
    /// activated again continues above it, so that no seq a client may still hold from
    /// the earlier incarnation (for `resume`) is ever reused within the epoch.
    private var seqFloor: Int64 = 0
    /// `lastRecompute` as last published in `StoreInfo` (for `status`).
    private var publishedRecompute: Double = 0

    init(config: DaemonConfiguration, log: Logger, clock: AgendaClock, epoch: String,
         output: @escaping @Sendable (RecomputeOutput) -> Void) {
        self.config = config
        self.log = log
        self.clock = clock
        self.epoch = epoch
        self.output = output
    }

    // MARK: - Control (any thread)

    func start() throws {
        try openStore()
        // The calendar list is known before the first client can ask for a view.
        publishInfo()
        let thread = Thread { [self] in run() }
        thread.name = "eventd-recompute"
        thread.stackSize = 8 << 20
        self.thread = thread
        thread.start()
    }

    func submit(_ job: Job) {
        inbox.withLock { $0.append(job) }
        wake.lock()
        wake.signal()
        wake.unlock()
    }

    func stop() {
        submit(.stop)
        while !stopped.withLock({ $0 }) { usleep(1000) }
    }

    // MARK: - The thread

    private func run() {
        nextTick = clock.preciseNow() + config.interval
        publishInfo()
        loop: while true {
            let jobs = waitForJobs()
            var activated: [View] = []
            for job in jobs {
                switch job {
                case .stop: break loop
                case .activate(let view):
                    if views[view] == nil { activated.append(view) }
                case .deactivate(let view):
                    views[view] = nil
                    log.debug("view dropped: \(view.timeZone) \(view.days) days")
                case .refresh:
                    let earliest = lastRecompute + config.refreshCoalescing
                    refreshDue = min(refreshDue ?? .infinity, max(clock.preciseNow(), earliest))
                case .reopen:
                    log.notice("SIGHUP: reopening the database \(config.databasePath)")
                    // A file replaced since the last tick: first take our WAL/shm away from
                    // the new file. Then close before opening, so that the new connection
                    // shares nothing (SQLite's per-file state) with the old one.
                    checkFileReplaced()
                    store = nil
                    do {
                        try openStore()
                        engine.reset()
                        fileProblem = nil
                        problem = nil
                    } catch { report("cannot reopen \(config.databasePath): \(error)") }
                    for view in Array(views.keys) { recompute(view, force: true) }
                    publishInfo()
                case .oneShot(let view, let token):
                    answerOneShot(view, token: token)
                }
            }
            for view in activated where views[view] == nil { recompute(view, force: true) }
            let now = clock.preciseNow()
            if let due = refreshDue, now >= due {
                refreshDue = nil
                tick(reason: "refresh")
            } else if now >= nextTick {
                tick(reason: "timer")
            } else if views.values.contains(where: { dateChanged($0) }) {
                tick(reason: "midnight")
            }
            // `status` reports the last recompute: publish it after every one (first
            // snapshots and midnight included), not only when the database changed.
            if lastRecompute != publishedRecompute { publishInfo() }
        }
        views.removeAll()
        store = nil
        stopped.withLock { $0 = true }
    }

    private func waitForJobs() -> [Job] {
        wake.lock()
        defer { wake.unlock() }
        while true {
            let jobs = inbox.withLock { box -> [Job] in
                let taken = box
                box.removeAll()
                return taken
            }
            if !jobs.isEmpty { return jobs }
            let now = clock.preciseNow()
            var deadline = nextTick
            if let due = refreshDue { deadline = min(deadline, due) }
            if let midnight = nextMidnight() { deadline = min(deadline, midnight) }
            if deadline <= now { return [] }
            _ = wake.wait(until: Date(timeIntervalSinceNow: min(deadline - now, 3600)))
            if clock.preciseNow() >= deadline { return inbox.withLock { box in defer { box.removeAll() }; return box } }
        }
    }

    /// A timer tick: recompute only what changed (database or date).
    private func tick(reason: String) {
        nextTick = clock.preciseNow() + config.interval
        guard let store else { return }
        checkFileReplaced()
        let version = (try? store.dataVersion()) ?? -1
        let dataChanged = version != lastDataVersion
        for (view, state) in views where dataChanged || dateChanged(state) {
            recompute(view, force: false)
        }
        if dataChanged {
            lastDataVersion = version
            publishInfo()
            log.debug("\(reason): database changed, \(views.count) view(s) recomputed")
        }
    }

    private func dateChanged(_ state: ViewState) -> Bool {
        guard let zone = Zone.system(state.snapshot.view.timeZone) else { return false }
        return zone.local(atUTC: clock.now()).date != state.snapshot.today
    }

    private func nextMidnight() -> Double? {
        var earliest: Double?
        for state in views.values {
            guard let zone = Zone.system(state.snapshot.view.timeZone) else { continue }
            let t = Double(zone.instant(forLocal: CivilDateTime(date: state.snapshot.today.adding(days: 1))))
            earliest = min(earliest ?? t, t)
        }
        return earliest
    }

    // MARK: - Computing

    private func recompute(_ view: View, force: Bool) {
        guard let store else { return }
        let started = clock.preciseNow()
        let t0 = Date()
        do {
            let snapshot = try engine.build(view, store: store, now: Int64(started))
            lastDuration = Date().timeIntervalSince(t0)
            lastRecompute = started
            problem = nil
            if var state = views[view] {
                guard snapshot.digest != state.snapshot.digest || snapshot.today != state.snapshot.today else {
                    state.snapshot = snapshot
                    views[view] = state
                    return
                }
                let feed = try snapshot.feedSnapshot
                let changes = FeedDiff(from: state.feed, to: feed)
                if changes.isEmpty {
                    state.snapshot = snapshot
                    views[view] = state
                    return
                }
                state.seq += 1
                seqFloor = max(seqFloor, state.seq)
                state.snapshot = snapshot
                state.feed = feed
                views[view] = state
                let diff = Messages.diff(epoch: epoch, seq: state.seq, new: snapshot, changes: changes)
                output(.published(view, ViewPublication(seq: state.seq,
                                                        snapshotMessage: Messages.snapshot(epoch: epoch, seq: state.seq, snapshot: snapshot),
                                                        diffMessage: diff)))
                log.info("view \(view.timeZone)/\(view.days)d: seq \(state.seq), \(changes.changeCount) change(s) in \(Int(lastDuration * 1000)) ms")
            } else {
                let seq = seqFloor + 1
                seqFloor = seq
                let state = ViewState(snapshot: snapshot, feed: try snapshot.feedSnapshot, seq: seq)
                views[view] = state
                output(.published(view, ViewPublication(seq: seq, snapshotMessage: Messages.snapshot(epoch: epoch, seq: seq, snapshot: snapshot),
                                                        diffMessage: nil)))
                log.info("view \(view.timeZone)/\(view.days)d: first snapshot in \(Int(lastDuration * 1000)) ms")
            }
        } catch {
            if views[view] == nil {
                // Never built: nothing good to serve. The daemon itself is fine.
                log.warning("view \(view.timeZone)/\(view.days)d cannot be built: \(error)")
                output(.failed(view, message: "\(error)"))
            } else {
                report("recompute failed for view \(view.timeZone): \(error); serving the last good snapshot")
            }
        }
    }

    private func answerOneShot(_ view: View, token: Int) {
        if let state = views[view] {
            output(.oneShot(token: token, message: Messages.snapshot(epoch: epoch, seq: state.seq, snapshot: state.snapshot)))
            return
        }
        guard let store else {
            output(.oneShot(token: token, message: Messages.error(.invalidView, "the database is not available")))
            return
        }
        do {
            let snapshot = try engine.build(view, store: store, now: clock.now())
            output(.oneShot(token: token, message: Messages.snapshot(epoch: epoch, seq: 0, snapshot: snapshot)))
        } catch {
            output(.oneShot(token: token, message: Messages.error(.invalidView, "\(error)")))
        }
    }

    // MARK: - The database

    private func openStore() throws {
        store = try EventStore(path: config.databasePath, options: .daemon)
        try store?.loadAllZones()
        lastDataVersion = -1
    }

    /// The database file replaced or removed under us: keep serving the last good
    /// snapshots and say so; SIGHUP reopens it.
    private func checkFileReplaced() {
        guard fileProblem == nil, let change = store?.files.replacedOrRemoved() else { return }
        let message = "the database \(config.databasePath) was \(change); serving the last good snapshots until SIGHUP"
        fileProblem = message
        log.error(message)
        detachStaleFiles()
        publishInfo()
    }

    /// Takes our WAL and shared-memory files away from the file now at the path (see
    /// `EventStore.detachStaleFiles`).
    private func detachStaleFiles() {
        do { try store?.detachStaleFiles() } catch { log.warning("checkpoint before detaching \(config.databasePath)-wal: \(error)") }
    }

    private func report(_ message: String) {
        problem = message
        log.error(message)
        publishInfo()
    }

    private func publishInfo() {
        let calendars = Set((try? store?.calendarNames()) ?? [])
        let events = (try? store?.eventCount()) ?? 0
        publishedRecompute = lastRecompute
        output(.info(StoreInfo(calendars: calendars, eventCount: events, lastRecompute: lastRecompute,
                               lastDurationMS: lastDuration * 1000, healthy: problem == nil && fileProblem == nil,
                               problem: fileProblem ?? problem)))
    }
}
