import Testing
import Agenda
import EventStore
import TestSupport

/// A recurring master in the window brings every override of its series, also those
/// whose original and new times both lie outside the window (the window's fingerprints
/// find them with one query over the recurring series), so that the window scan and the change
/// log's named read fingerprint a series alike; an override that moves an instance out
/// of the window removes it.
@Suite struct WindowOverrideTests {
    static let moved: [[String]] = [
        ICS.berlin("weekly", "20261130T090000", "20261130T100000", summary: "Weekly", "RRULE:FREQ=WEEKLY;COUNT=4"),
        ICS.event("weekly", "RECURRENCE-ID;TZID=Europe/Berlin:20261130T090000",
                  "DTSTART;TZID=Europe/Berlin:20270301T090000", "DTEND;TZID=Europe/Berlin:20270301T100000",
                  "SUMMARY:Weekly (moved to March)"),
        ICS.event("weekly", "RECURRENCE-ID;TZID=Europe/Berlin:20261221T090000",
                  "DTSTART;TZID=Europe/Berlin:20270308T090000", "DTEND;TZID=Europe/Berlin:20270308T100000",
                  "SUMMARY:Weekly (the last, moved to March)"),
        ICS.berlin("other", "20261201T090000", "20261201T100000", summary: "Other"),
    ]

    @Test func anOverrideMovedOutOfTheWindowRemovesItsInstance() throws {
        let s = try ScratchStore()
        try s.load(Self.moved)
        let snapshot = try s.build(Fixture.view(days: 7))
        #expect(snapshot.items(uid: "weekly").isEmpty)
        #expect(snapshot.items(uid: "other").map(\.date) == ["2026-12-01"])
    }

    @Test func theWindowScanAndTheNamedReadGiveTheSameRows() throws {
        let s = try ScratchStore()
        try s.load(Self.moved)
        let from = utc(2026, 11, 27, 23) / 60, to = utc(2026, 12, 4, 23) / 60
        let scan = try s.store.read { try s.store.seriesFingerprints(fromMinute: from, toMinute: to) }
        let named = try s.store.read {
            try s.store.seriesFingerprints(of: [SeriesName(calendar: "work", uid: "weekly"),
                                                SeriesName(calendar: "work", uid: "other")],
                                           fromMinute: from, toMinute: to)
        }
        let weekly = try #require(scan.first { $0.uid == "weekly" })
        #expect(weekly.rowIDs.count == 3)
        #expect(Dictionary(uniqueKeysWithValues: scan.map { ($0.uid, $0.fingerprint) })
            == Dictionary(uniqueKeysWithValues: named.map { ($0.uid, $0.fingerprint) }))
        #expect(Dictionary(uniqueKeysWithValues: scan.map { ($0.uid, $0.rowIDs) })
            == Dictionary(uniqueKeysWithValues: named.map { ($0.uid, $0.rowIDs) }))
    }
}
