import Testing
@testable import EventStore
import TestSupport

/// The window scan groups its rows into series as they come: the same series as the
/// per-name lookup, whatever the UIDs look like.
@Suite struct FingerprintScanTests {
    /// UIDs that share long prefixes, are prefixes of one another, differ only in their
    /// last byte or only past the first eight, and are not ASCII.
    static let uids = ["a", "ab", "abc", "abcdefgh", "abcdefghi", "abcdefgi", "same-prefix-0000000001@x",
                       "same-prefix-0000000002@x", "été@x", "日本@x", "", "weekly@x"]

    @Test func findsTheSameSeriesAsThePerNameLookup() throws {
        let scratch = try ScratchStore()
        let weekly = ["RRULE:FREQ=WEEKLY;COUNT=10"]
        let moved = ["UID:weekly@x", "DTSTAMP:20260101T000000Z", "RECURRENCE-ID:20260615T090000Z",
                     "DTSTART:20260616T120000Z", "DTEND:20260616T130000Z", "SUMMARY:moved"]
        var events = Self.uids.dropLast().enumerated().map { StoreICS.event($1, day: 11 + $0 % 8) }
        events.append(StoreICS.event("weekly@x", day: 1, extra: weekly))
        events.append(moved)
        _ = try scratch.run(StoreICS.input("a.ics", StoreICS.calendar(events)))
        let (from, to) = (minutes(2026, 6, 10), minutes(2026, 6, 20))
        let scanned = try scratch.store.seriesFingerprints(fromMinute: from, toMinute: to)
        let names = scanned.map { SeriesName(calendar: $0.calendar, uid: $0.uid) }
        let looked = try scratch.store.seriesFingerprints(of: names, fromMinute: from, toMinute: to)
        func show(_ f: [SeriesFingerprint]) -> [String] { f.map { "\($0.calendar) \($0.uid) \($0.rowIDs) \($0.fingerprint)" }.sorted() }
        #expect(show(scanned) == show(looked))
        #expect(Set(scanned.map(\.uid)).count == scanned.count, "one fingerprint per series")
        let stored = Set(try scratch.db.statement("SELECT uid FROM event").map { $0.text(0) })
        // (The empty UID is stored under a synthesized one.)
        #expect(Set(scanned.map(\.uid)) == stored && stored.count == Self.uids.count)
        #expect(scanned.first { $0.uid == "weekly@x" }?.rowIDs.count == 2, "the master and its override")
    }

    /// A UID whose stored bytes are not UTF-8 (written by something else than eventd):
    /// both of its rows are still one series, named as `row.text` decodes it.
    @Test func aUIDThatIsNotUTF8IsStillOneSeries() throws {
        let scratch = try ScratchStore()
        let weekly = ["RRULE:FREQ=WEEKLY;COUNT=10"]
        let moved = ["UID:w@x", "DTSTAMP:20260101T000000Z", "RECURRENCE-ID:20260615T090000Z",
                     "DTSTART:20260616T120000Z", "DTEND:20260616T130000Z", "SUMMARY:moved"]
        _ = try scratch.run(StoreICS.input("a.ics", StoreICS.calendar([StoreICS.event("w@x", day: 1, extra: weekly), moved])))
        try scratch.db.execute("UPDATE event SET uid = CAST(X'77FF40' AS TEXT) WHERE uid = 'w@x'")
        let found = try scratch.store.seriesFingerprints(fromMinute: minutes(2026, 6, 10), toMinute: minutes(2026, 6, 20))
        #expect(found.count == 1 && found.first?.rowIDs.count == 2, "\(found.map { ($0.uid, $0.rowIDs) })")
        #expect(found.first?.uid == "w\u{FFFD}@")
    }
}
