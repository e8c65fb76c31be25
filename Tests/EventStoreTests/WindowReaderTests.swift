import CalendarGenerator
import Testing
@testable import EventStore
import TestSupport

/// A large window scan reads its longest span classes and joins its masters to their
/// overrides on a second connection (`WindowReader`): the fingerprints must be those of
/// the one-connection scan, in the same order, and rows read at another change log
/// position than the scan's own must not be used.
@Suite struct WindowReaderTests {
    static func loaded(seed: UInt64) throws -> ScratchStore {
        let s = try ScratchStore()
        let bytes = BulkLoadTests.generated(3_000, seed: seed)
        _ = try s.store.importCalendars([BulkLoadTests.input(bytes)], now: 1_790_000_000)
        return s
    }

    /// Every fingerprint of windows across the calendar's span, as text.
    static func fingerprints(_ store: EventStore, from: Int64, days: Int64) throws -> [String] {
        try store.read {
            try store.seriesFingerprints(fromMinute: from, toMinute: from + days * 1440)
                .map { "\($0.calendar) \($0.uid) \($0.rowIDs) \($0.fingerprint)" }
        }
    }

    @Test(arguments: [UInt64(3), 11])
    func secondConnectionFindsTheSameSeries(seed: UInt64) throws {
        let s = try Self.loaded(seed: seed)
        var overridesSeen = 0, windowRowsSeen = 0
        for (start, days) in [(minutes(2026, 1, 1), Int64(30)), (minutes(2026, 2, 10), 7), (minutes(2026, 3, 1), 90)] {
            s.store.parallelWindowRows = .max
            let alone = try Self.fingerprints(s.store, from: start, days: days)
            s.store.parallelWindowRows = 0
            let joinedElsewhere = try Self.fingerprints(s.store, from: start, days: days)
            #expect(s.store.windowReader != nil, "the second connection took the join")
            // Compared without printing thousands of series on a failure.
            #expect(joinedElsewhere.count == alone.count)
            let differing = zip(joinedElsewhere, alone).first { $0 != $1 }
            #expect(differing == nil, "window from \(start), \(days) days")
            let part = try s.store.read {
                try s.store.accepted(s.store.startSecondPart(fromMinute: start, toMinute: start + days * 1440)!.join())
            }
            overridesSeen += part?.overrides.count ?? 0
            windowRowsSeen += part?.windowRows.count ?? 0
        }
        #expect(overridesSeen > 0, "the windows hold recurring masters with overrides")
        #expect(windowRowsSeen > 0, "the windows hold rows of the second connection's span classes")
    }

    @Test func rowsOfAnotherStateAreNotUsed() throws {
        let s = try Self.loaded(seed: 5)
        s.store.parallelWindowRows = 0
        let (from, to) = (minutes(2026, 1, 1), minutes(2026, 2, 1))
        // The join reads the database as it is now...
        let joined = try #require(s.store.startSecondPart(fromMinute: from, toMinute: to)).join()
        #expect(try s.store.read { try s.store.accepted(joined) } != nil)
        // ...and another connection commits a change before the scan's transaction begins.
        let other = try EventStore(path: s.path)
        _ = try other.importCalendars([StoreICS.input("more.ics", StoreICS.calendar([[
            "UID:more@x", "DTSTAMP:20260101T000000Z", "DTSTART:20260110T090000Z", "DTEND:20260110T100000Z", "SUMMARY:more",
        ]]))],
                                      now: 1_790_000_000)
        #expect(try s.store.read { try s.store.accepted(joined) } == nil)
        // The scan then joins on its own connection and still finds the new state.
        let found = try Self.fingerprints(s.store, from: from, days: 31)
        s.store.parallelWindowRows = .max
        let alone = try Self.fingerprints(s.store, from: from, days: 31)
        #expect(found.count == alone.count && found == alone)
        #expect(found.contains { $0.contains("more@x") })
    }

    @Test func closedBeforeTheStoreNeedsTheFileToItself() throws {
        let s = try Self.loaded(seed: 9)
        s.store.parallelWindowRows = 0
        _ = try Self.fingerprints(s.store, from: minutes(2026, 1, 1), days: 30)
        #expect(s.store.windowReader != nil)
        // A large import into a database nobody else holds switches to a rollback journal.
        var options = ImportOptions()
        options.rollbackJournalBytes = 0...(32 << 20)
        let bytes = BulkLoadTests.generated(3_000, seed: 10)
        _ = try s.store.importCalendars([BulkLoadTests.input(bytes, name: "other.ics", calendar: "other")], options: options,
                                        now: 1_790_000_000)
        #expect(s.store.windowReader == nil)
        try s.store.detachStaleFiles()
        _ = try Self.fingerprints(s.store, from: minutes(2026, 1, 1), days: 30)
        #expect(s.store.windowReader == nil, "not opened again once the file may have been replaced")
    }
}
