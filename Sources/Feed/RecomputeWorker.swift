import Foundation
import Agenda
import EventStore
import ICalendar
import SectionedDiff
import Diagnostics
import Threads

/// What the recomputer tells the event loop.
enum RecomputeOutput: Sendable {
    /// A view's new state: its first snapshot, or the diff from the previous state.
    case published(View, ViewPublication)
    /// The view's current state (`seq`) as a snapshot message, asked for by
    /// `RecomputeJob.encodeSnapshot`.
    case snapshot(View, seq: Int64, message: SnapshotMessage)
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
    /// The state as a snapshot message: with a first snapshot only. A diff's state is
    /// made a message when a subscriber needs it (`RecomputeJob.encodeSnapshot`), not
    /// with every diff: the hub would otherwise keep the previous state's items alive.
    var snapshotMessage: SnapshotMessage?
    var diffMessage: [UInt8]?
    /// About the size of the state's snapshot message, which bounds the view's history
    /// (nil: not known, no bound but the count and the daemon-wide one).
    var snapshotBytes: Int? = nil
    /// The state's items, counted against the daemon's budget (nil: not counted).
    var items: Int? = nil
    /// When the recompute that made it started (wall clock) and how long it took: the
    /// hub's `status` is then never behind what a subscriber has been sent.
    var recomputedAt: WallInstant? = nil
    var durationMS: Double = 0
}

/// Store facts the loop keeps for `status` and for validating views.
struct StoreInfo: Sendable, Equatable {
    var calendars: Set<String>
    /// The colours calendars have (chosen or their own), by name.
    var colors: [String: String] = [:]
    var eventCount: Int
    /// Wall-clock time of the last recompute (nil: none yet).
    var lastRecompute: WallInstant?
    var lastDurationMS: Double
    var healthy: Bool
    var problem: String?
}

/// Owns the database connection and every active view's snapshot, on the recompute
/// thread (created there by `Recomputer`, never shared). It recomputes on the timer,
/// at each view's local midnight or when the wall clock steps, at once (coalesced) on
/// refresh, and skips the work when neither the database (`PRAGMA data_version`) nor
/// any view's date changed.
final class RecomputeWorker {
    struct ViewState {
        /// The last snapshot; its diff form is made only while diffing (the ids' index
        /// would otherwise stay in memory beside it).
        var snapshot: AgendaSnapshot
        var seq: Int64
    }

    let config: DaemonConfiguration
    let log: Logger
    let clocks: DaemonClocks
    let epoch: String
    let mailbox: Mailbox<RecomputeJob>
    let output: @Sendable (RecomputeOutput) -> Void

    var store: EventStore?
    var engine = SnapshotEngine()
    var views: [View: ViewState] = [:]
    var schedule: RecomputeSchedule
    var lastDataVersion: Int64 = -1
    /// The store's event counts for `status`, counted again only where the change log
    /// says something changed (`EventCounts`).
    var counts = EventCounts()
    /// Wall-clock time and duration of the last recompute, for `status`.
    var lastRecompute: WallInstant?
    var lastDuration: Duration = .zero
    /// The problem as last published in `StoreInfo` (nil: healthy).
    var publishedProblem: String?
    /// A failed recompute; cleared by the next good one.
    var problem: String?
    /// The database file was removed or replaced under us; unlike `problem`, only a
    /// successful reopen (SIGHUP) clears it.
    var fileProblem: String?
    /// The highest seq published in this run, over all views. A view that is dropped and
    /// activated again continues above it, so that no seq a client may still hold from
    /// the earlier incarnation (for `resume`) is ever reused within the epoch.
    var seqFloor: Int64 = 0

    init(config: DaemonConfiguration, log: Logger, clocks: DaemonClocks, epoch: String,
         mailbox: Mailbox<RecomputeJob>, output: @escaping @Sendable (RecomputeOutput) -> Void) throws {
        self.config = config
        self.log = log
        self.clocks = clocks
        self.epoch = epoch
        self.mailbox = mailbox
        self.output = output
        schedule = RecomputeSchedule(interval: config.interval, coalescing: config.refreshCoalescing, now: clocks.monotonic())
        try openStore()
        // The calendar list is known before the first client can ask for a view.
        publishInfo()
    }

    /// Runs until `.stop`.
    func run() {
        loop: while true {
            let wait = schedule.wait(at: clocks.monotonic(), untilMidnight: untilMidnight())
            let jobs = mailbox.take(waitingAtMost: min(wait, .seconds(3600)))
            var activated: [View] = []
            var dropped = false
            defer { if dropped { ReleasedMemory.returnToSystem() } }
            for job in jobs {
                switch job {
                case .stop: break loop
                case .activate(let view):
                    if views[view] == nil { activated.append(view) }
                case .deactivate(let view):
                    views[view] = nil
                    engine.forget(view)
                    dropped = true
                    log.debug("view dropped: \(view.timeZone) \(view.days) days")
                case .refresh:
                    schedule.requestRefresh(at: clocks.monotonic())
                case .reopen:
                    reopen()
                case .clockChanged:
                    break // the date check below runs on every wake-up
                case .oneShot(let view, let token):
                    answerOneShot(view, token: token)
                case .encodeSnapshot(let view):
                    if let state = views[view] {
                        output(.snapshot(view, seq: state.seq, message: SnapshotMessage(epoch: epoch, seq: state.seq, snapshot: state.snapshot)))
                    } else {
                        // Not active here (cannot happen while the hub has subscribers
                        // for it): build it, which publishes a first snapshot.
                        activated.append(view)
                    }
                }
            }
            for view in activated where views[view] == nil { recompute(view, force: true) }
            let dateChanged = views.values.contains { self.dateChanged($0) }
            if let reason = schedule.due(at: clocks.monotonic(), dateChanged: dateChanged) {
                tick(reason: reason.rawValue)
            }
            // Each publication tells the hub its recompute's time; the store's facts go
            // out again only when a good recompute cleared a problem (the counts did
            // not change without a new data version, which `tick` publishes).
            if (fileProblem ?? problem) != publishedProblem { publishInfo() }
        }
        views.removeAll()
        store = nil
    }

    /// A timer tick: recompute only what changed (database or date).
    func tick(reason: String) {
        guard let store else { return }
        checkFileReplaced()
        let version = (try? store.dataVersion()) ?? -1
        let dataChanged = version != lastDataVersion
        // The counts first: the mailbox is in order, so a client that sees a diff and
        // then asks for `status` sees counts at least as new (the run loop publishes
        // the recompute's time after).
        if dataChanged { publishInfo() }
        for (view, state) in views where dataChanged || dateChanged(state) {
            recompute(view, force: false)
        }
        if dataChanged {
            lastDataVersion = version
            log.debug("\(reason): database changed, \(views.count) view(s) recomputed")
        }
    }

    func dateChanged(_ state: ViewState) -> Bool {
        guard let zone = Zone.system(state.snapshot.view.timeZone) else { return false }
        return zone.local(atUTC: clocks.wall().unixSeconds).date != state.snapshot.today
    }

    /// The time until the earliest local midnight of the active views (wall clock; a step
    /// of it is noticed by the feed loop, which then posts `.clockChanged`).
    func untilMidnight() -> Duration? {
        let wall = clocks.wall()
        var earliest: Int64?
        for state in views.values {
            guard let zone = Zone.system(state.snapshot.view.timeZone) else { continue }
            let t = Int64(zone.instant(forLocal: CivilDateTime(date: state.snapshot.today.adding(days: 1))))
            earliest = min(earliest ?? t, t)
        }
        return earliest.map { WallInstant(unixSeconds: $0) - wall }
    }

    func report(_ message: String) {
        problem = message
        log.error(message)
        publishInfo()
    }

    func publishInfo() {
        var calendars = Set<String>()
        var colors: [String: String] = [:]
        var events = 0
        if let store {
            colors = (try? store.calendarColors()) ?? [:]
            do {
                try counts.update(store)
                calendars = Set(counts.byCalendar.keys)
                events = counts.total
            } catch {
                // Counted again in full next time.
                log.warning("cannot count the events for status: \(error)")
                counts = EventCounts()
                calendars = Set((try? store.calendarNames()) ?? [])
            }
        }
        publishedProblem = fileProblem ?? problem
        output(.info(StoreInfo(calendars: calendars, colors: colors, eventCount: events, lastRecompute: lastRecompute,
                               lastDurationMS: lastDuration / .milliseconds(1), healthy: problem == nil && fileProblem == nil,
                               problem: fileProblem ?? problem)))
    }
}
