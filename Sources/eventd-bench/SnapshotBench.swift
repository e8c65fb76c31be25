import Foundation
import Agenda
import EventStore
import ICalendar

/// `eventd-bench snapshot`: recompute a 30-day view (query, expand, section, order,
/// digest) over a store holding the generated 100,000-event calendar.
enum SnapshotBench {
    static func run(_ options: inout Options) throws {
        let events = options.int("--events") ?? 100_000
        let days = options.int("--days") ?? 30
        let dir = try Bench.temporaryDirectory("eventd-bench")
        defer { try? FileManager.default.removeItem(at: dir) }
        // --db PATH reuses (or creates once) a store, so profiles see only the recompute.
        let path = options.value("--db") ?? dir.appendingPathComponent("events.db").path
        let fresh = !FileManager.default.fileExists(atPath: path)
        let store = try EventStore(path: path)
        if fresh {
            let bytes = Bench.generatedCalendar(events: events, seed: UInt64(options.int("--seed") ?? 42))
            _ = try store.importCalendars([ImportInput(path: "/bench/calendar.ics", displayName: "generated",
                                                       bytes: bytes, calendar: "bench")])
        }
        let view = View(timeZone: options.value("--tz") ?? "Europe/Berlin", from: CivilDate(year: 2026, month: 11, day: 29),
                        days: days)
        let now = CivilDateTime(date: CivilDate(year: 2026, month: 11, day: 29), hour: 12).secondsAsIfUTC
        // Cold: a fresh engine expands every series. Warm: the daemon's case, a
        // recompute with an engine that has seen the view before (each series whose rows
        // are unchanged reuses its expansion); everything else runs again.
        let engine = SnapshotEngine()
        var t0 = Bench.now()
        var snapshot: AgendaSnapshot? = try engine.build(view, store: store, now: now)
        let cold = Bench.now() - t0
        let coldExpanded = engine.lastExpanded
        var best = Double.infinity
        var times: [Double] = []
        for _ in 0..<(options.int("--runs") ?? 7) {
            t0 = Bench.now()
            snapshot = try engine.build(view, store: store, now: now)
            let dt = Bench.now() - t0
            times.append(dt)
            best = min(best, dt)
        }
        print("cold_seconds=\(Bench.format(cold)) series=\(coldExpanded) warm_reused=\(engine.lastReused) warm_expanded=\(engine.lastExpanded)")
        let items = snapshot?.sections.reduce(0) { $0 + $1.items.count } ?? 0
        times.sort()
        print("store_events=\(events) days=\(days) sections=\(snapshot?.sections.count ?? 0) median_seconds=\(Bench.format(times[times.count / 2]))")
        print("seconds=\(Bench.format(best)) items=\(items) digest=\(snapshot?.digest.prefix(16) ?? "")")
    }
}
