import Foundation
import Agenda
import EventStore
import ICalendar
import CalendarGenerator

/// `eventd-bench snapshot`: recompute a 30-day view (query, expand, section, order,
/// digest) over a store holding the generated 100,000-event calendar.
enum SnapshotBench {
    static func run(_ options: inout Options) throws {
        if options.flag("--one-change") { return try oneChange(options) }
        let events = options.int("--events") ?? 100_000
        let days = options.int("--days") ?? 30
        let dir = try BenchDirectory("eventd-bench"); defer { dir.remove() }
        // --db PATH reuses (or creates once) a store, so profiles see only the recompute.
        let path = options.value("--db") ?? dir.databasePath
        let fresh = !FileManager.default.fileExists(atPath: path)
        let store = try EventStore(path: path)
        if fresh {
            let bytes = Bench.generatedCalendar(events: events, seed: UInt64(options.int("--seed") ?? 42))
            try Bench.importGenerated(bytes, into: store)
        }
        let view = View(timeZone: options.value("--tz") ?? "Europe/Berlin", from: CivilDate(year: 2026, month: 11, day: 29),
                        days: days)
        let now = CivilDateTime(date: CivilDate(year: 2026, month: 11, day: 29), hour: 12).secondsAsIfUTC
        // Cold: a fresh engine expands every series. Warm: a whole rebuild with an engine
        // that has seen the view before (each series whose rows are unchanged reuses its
        // expansion); everything else runs again. The daemon's recompute after a change
        // starts from the view's last build instead: `oneChanged` below.
        let engine = SnapshotEngine()
        engine.incremental = false
        var t0 = Bench.now()
        var snapshot: AgendaSnapshot? = try engine.build(view, store: store, now: now)
        let cold = Bench.now() - t0
        let coldExpanded = engine.lastExpanded
        let runs = options.int("--runs") ?? 7
        var times: [Double] = []
        for _ in 0..<runs {
            t0 = Bench.now()
            snapshot = try engine.build(view, store: store, now: now)
            times.append(Bench.now() - t0)
        }
        print("cold_seconds=\(Bench.format(cold)) series=\(coldExpanded) warm_reused=\(engine.lastReused) warm_expanded=\(engine.lastExpanded)")
        let items = snapshot?.sections.reduce(0) { $0 + $1.items.count } ?? 0
        times.sort()
        print("store_events=\(events) days=\(days) sections=\(snapshot?.sections.count ?? 0) median_seconds=\(Bench.format(times[times.count / 2]))")
        print("seconds=\(Bench.format(times[0])) items=\(items) digest=\(snapshot?.digest.prefix(16) ?? "")")
        try scanAlone(store: store, view: view, runs: runs)
        if let snapshot { digestAlone(snapshot, runs: runs) }
        // --one-changed no: only the cold and warm builds (a profile of the warm rebuild alone).
        guard options.value("--one-changed") != "no" else { return }
        try oneChanged(store: store, view: view, now: now, runs: runs, profileUnchanged: options.int("--profile-unchanged") ?? 0)
    }

    /// `snapshot --one-change`: the calendar of issue 47 (100,000 events spread over the
    /// two years around the view's first date), a 30-day view in UTC (`--days`, `--tz`)
    /// with protocol 2's digests (`--protocol 1`: the whole view's), the daemon's
    /// default; a warm whole recompute, then one event changed.
    static func oneChange(_ options: Options) throws {
        let events = options.int("--events") ?? 100_000
        let today = CivilDate(year: 2026, month: 11, day: 29)
        let dir = try BenchDirectory("eventd-bench"); defer { dir.remove() }
        let path = options.value("--db") ?? dir.databasePath
        let fresh = !FileManager.default.fileExists(atPath: path)
        let store = try EventStore(path: path)
        if fresh {
            let bytes = Bench.generatedCalendar(events: events, seed: UInt64(options.int("--seed") ?? 42),
                                                firstDate: GeneratorDate(year: 2025, month: 11, day: 29), spanDays: 730)
            try Bench.importGenerated(bytes, into: store)
        }
        var view = View(timeZone: options.value("--tz") ?? "UTC", from: today, days: options.int("--days") ?? 30)
        view.digestVersion = View.DigestVersion(rawValue: Int64(options.int("--protocol") ?? 2)) ?? .sections
        let now = CivilDateTime(date: today, hour: 12).secondsAsIfUTC
        let engine = SnapshotEngine()
        engine.incremental = false
        let snapshot = try engine.build(view, store: store, now: now)
        var times: [Double] = []
        for _ in 0..<(options.int("--runs") ?? 7) {
            let t0 = Bench.now()
            _ = try engine.build(view, store: store, now: now)
            times.append(Bench.now() - t0)
        }
        times.sort()
        print("store_events=\(events) days=\(view.days) tz=\(view.timeZone) protocol=\(view.digestVersion.rawValue) "
              + "items=\(snapshot.itemCount) sections=\(snapshot.sections.count)")
        print("warm_seconds=\(Bench.format(times[0])) warm_median_seconds=\(Bench.format(times[times.count / 2]))")
        try oneChanged(store: store, view: view, now: now, runs: options.int("--runs") ?? 7)
    }

    /// The recompute after one event changed: a one-event file of the same calendar is
    /// imported with the event on another date each time (a move across dates and a new
    /// summary), then the view is built from its last build; the import is not timed.
    /// Also the incremental build with nothing changed (the window query and comparison).
    static func oneChanged(store: EventStore, view: View, now: Int64, runs: Int, profileUnchanged: Int = 0) throws {
        let engine = SnapshotEngine()
        // The first two dates of the window (the whole digest is computed again), or
        // for the `late` figure its last two (the digest goes on from the kept state
        // before them).
        var late = false
        func importMoving(_ k: Int) throws {
            let day = late ? "202612\(27 + k % 2)" : "202611\(29 + k % 2)"
            let text = icsCalendar(["BEGIN:VEVENT", "UID:bench-moving", "DTSTAMP:20260101T000000Z",
                                    "DTSTART;TZID=Europe/Berlin:\(day)T0930\(k % 6)0",
                                    "DTEND;TZID=Europe/Berlin:\(day)T1030\(k % 6)0",
                                    "SUMMARY:moving \(k)", "END:VEVENT"])
            _ = try store.importCalendars([ImportInput(path: "/bench/moving.ics", displayName: "moving",
                                                       bytes: Array(text.utf8), calendar: "bench")])
        }
        try importMoving(0)
        _ = try engine.build(view, store: store, now: now)
        var changed: [Double] = []
        var unchanged: [Double] = []
        var sections = 0
        for k in 1...runs {
            try importMoving(k)
            var t0 = Bench.now()
            let snapshot = try engine.build(view, store: store, now: now)
            changed.append(Bench.now() - t0)
            sections = engine.lastChange?.sectionIDs.count ?? -1
            t0 = Bench.now()
            let again = try engine.build(view, store: store, now: now)
            unchanged.append(Bench.now() - t0)
            precondition(again == snapshot)
        }
        changed.sort()
        unchanged.sort()
        print("one_changed_seconds=\(Bench.format(changed[0])) one_changed_median_seconds=\(Bench.format(changed[changed.count / 2])) "
              + "changed_sections=\(sections) expanded=\(engine.lastExpanded)")
        late = true
        var lateChanged: [Double] = []
        for k in 1...runs {
            try importMoving(k)
            let t0 = Bench.now()
            _ = try engine.build(view, store: store, now: now)
            lateChanged.append(Bench.now() - t0)
        }
        lateChanged.sort()
        print("one_changed_late_seconds=\(Bench.format(lateChanged[0])) one_changed_late_median_seconds=\(Bench.format(lateChanged[lateChanged.count / 2]))")
        // --profile-unchanged N: that many more builds with nothing changed, for a profiler.
        for _ in 0..<(profileUnchanged) { _ = try engine.build(view, store: store, now: now) }
        print("unchanged_seconds=\(Bench.format(unchanged[0])) unchanged_median_seconds=\(Bench.format(unchanged[unchanged.count / 2]))")
    }

    /// The window query alone (the fingerprints of every series of the window, as the
    /// warm rebuild reads them): the part of the warm figure that is SQLite's.
    static func scanAlone(store: EventStore, view: View, runs: Int) throws {
        guard let zone = Zone.system(view.timeZone), let first = view.from else { return }
        let from = zone.instant(forLocal: CivilDateTime(date: first))
        let to = zone.instant(forLocal: CivilDateTime(date: first.adding(days: view.days)))
        var times: [Double] = []
        var series = 0
        for _ in 0..<runs {
            let t0 = Bench.now()
            series = try store.read { try store.seriesFingerprints(fromMinute: from / 60 - 1, toMinute: to / 60 + 2).count }
            times.append(Bench.now() - t0)
        }
        times.sort()
        print("scan_seconds=\(Bench.format(times[0])) scan_median_seconds=\(Bench.format(times[times.count / 2])) scan_series=\(series)")
    }

    /// The snapshot's digest alone (SHA-256 over its sections' JSON, which every build
    /// computes): the part of each figure that is hashing.
    static func digestAlone(_ snapshot: AgendaSnapshot, runs: Int) {
        var times: [Double] = []
        for _ in 0..<runs {
            let t0 = Bench.now()
            precondition(AgendaSnapshot.digest(of: snapshot.sections) == snapshot.digest)
            times.append(Bench.now() - t0)
        }
        times.sort()
        print("digest_seconds=\(Bench.format(times[0])) digest_bytes=\(snapshot.sectionsJSON.count)")
    }

    /// A VCALENDAR around content lines, CRLF-terminated.
    static func icsCalendar(_ lines: [String]) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//eventd//bench//EN"] + lines + ["END:VCALENDAR"]).map { $0 + "\r\n" }.joined()
    }
}
