import Testing
@testable import EventStore
import TestSupport

/// `EventCounts` kept up to date from the change log equals counting every calendar
/// again (`count(*)`), after random imports, changes, removals of events, files and
/// calendars, and after a bulk load; and small changes count only what they touched.
@Suite struct EventCountsTests {
    static func calendar(_ uids: [String], summary: String = "x") -> [UInt8] {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//t//EN"]
        for (n, uid) in uids.enumerated() {
            lines += ["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20260101T000000Z",
                      "DTSTART:202612\(String(format: "%02d", 1 + n % 28))T100000Z", "DTEND:202612\(String(format: "%02d", 1 + n % 28))T110000Z",
                      "SUMMARY:\(summary) \(n)", "END:VEVENT"]
        }
        lines.append("END:VCALENDAR")
        return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func incrementalCountsEqualAFullCount(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let s = try ScratchStore()
        var counts = EventCounts()
        try counts.update(s.store)
        #expect(counts.total == 0)
        let calendars = ["work", "home", "club"]
        var incremental = 0
        for round in 0..<60 {
            let calendar = calendars[rng.below(calendars.count)]
            switch rng.below(10) {
            case 0:
                // A calendar removed (the log cannot name its series).
                _ = try? s.store.removeCalendar(calendar)
            case 1:
                // A file's events all gone.
                _ = try s.store.removeInputs(["/t/\(calendar)-\(rng.below(3)).ics"],
                                             of: LiveSource(name: calendar, kind: .vdir, location: "/t", calendar: calendar, everySeconds: 60))
            default:
                // A file (one of three per calendar) imported with some events, or changed.
                let file = rng.below(3)
                let uids = (0..<rng.below(6)).map { _ in "\(calendar)-\(file)-\(rng.below(8))@t" }
                _ = try s.store.importCalendars([ImportInput(path: "/t/\(calendar)-\(file).ics", displayName: "f",
                                                             bytes: Self.calendar(uids, summary: "r\(round)"), calendar: calendar,
                                                             liveSource: calendar)])
            }
            try counts.update(s.store)
            if counts.lastUsedChangeLog { incremental += 1 }
            #expect(counts.total == (try s.store.eventCount()), "round \(round)")
            #expect(counts.byCalendar == (try s.store.eventCountsByCalendar()), "round \(round)")
        }
        // Most rounds counted only the calendars the log named.
        #expect(incremental > 20)
    }
}
