import Foundation
import Testing
@testable import EventStore
import ICalendar
import TestSupport

/// The `timezone` table holds a definition only while an event uses it, is read only
/// for the events a query reads, and is bounded per database.
@Suite struct ZoneStorageTests {
    typealias S = StoreICS

    /// A fixed-offset definition under a TZID no system knows, unique to one test.
    static func definition(_ tzid: String, offset: String = "+0300") -> [String] {
        ["BEGIN:VTIMEZONE", "TZID:\(tzid)", "BEGIN:STANDARD", "DTSTART:19700101T000000",
         "TZOFFSETFROM:\(offset)", "TZOFFSETTO:\(offset)", "END:STANDARD", "END:VTIMEZONE"]
    }

    static func file(zones: [String], events: [(uid: String, tzid: String?)]) -> String {
        let body = zones.flatMap { definition($0) } + events.flatMap { event in
            ["BEGIN:VEVENT", "UID:\(event.uid)", "DTSTAMP:20260101T000000Z",
             event.tzid.map { "DTSTART;TZID=\($0):20260601T090000" } ?? "DTSTART:20260601T090000Z", "DURATION:PT1H", "END:VEVENT"]
        }
        return (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x"] + body + ["END:VCALENDAR"]).map { $0 + "\r\n" }.joined()
    }

    static func storedTZIDs(_ s: ScratchStore) throws -> [String] {
        try s.db.statement("SELECT tzid FROM timezone ORDER BY tzid").map { $0.text(0) }
    }

    static func run() -> String { String(UUID().uuidString.prefix(8)) }

    /// A feed of thousands of definitions stores only the ones its events use.
    @Test func onlyUsedDefinitionsAreStored() throws {
        let s = try ScratchStore()
        let r = Self.run()
        let zones = (0..<3000).map { "Bomb/\(r)-\($0)" }
        _ = try s.run(S.input("bomb.ics", Self.file(zones: zones, events: [("a@x", zones[5]), ("b@x", zones[2000])])))
        #expect(try Self.storedTZIDs(s) == [zones[2000], zones[5]].sorted())
        #expect(try s.store.storedZones().count == 2)
    }

    /// Removing the events (calendar, source, files, re-sync, --replace) leaves no unused row.
    @Test func rowsGoWithTheirLastEvent() throws {
        let s = try ScratchStore()
        let r = Self.run()
        let a = "Keep/\(r)-a", b = "Keep/\(r)-b"
        _ = try s.run(S.input("one.ics", Self.file(zones: [a, b], events: [("1@x", a), ("2@x", b)]), liveSource: "vdir"))
        _ = try s.run(S.input("two.ics", Self.file(zones: [a], events: [("3@x", a)]), liveSource: "vdir"))
        #expect(try Self.storedTZIDs(s) == [a, b])
        // A re-sync whose event no longer names b.
        _ = try s.run(S.input("one.ics", Self.file(zones: [a, b], events: [("1@x", a), ("2@x", nil)]), liveSource: "vdir"))
        #expect(try Self.storedTZIDs(s) == [a])
        // a is still used by two.ics after one.ics goes.
        #expect(try s.store.removeInputs([S.input("one.ics", "").path], of: S.vdir()) == 2)
        #expect(try Self.storedTZIDs(s) == [a])
        // --replace with a file that uses no definition.
        _ = try s.run(S.input("three.ics", Self.file(zones: [], events: [("4@x", nil)])), replace: true)
        #expect(try Self.storedTZIDs(s) == [])
        _ = try s.run(S.input("four.ics", Self.file(zones: [b], events: [("5@x", b)]), calendar: "home"))
        #expect(try Self.storedTZIDs(s) == [b])
        #expect(try s.store.removeCalendar("home") == 1)
        #expect(try Self.storedTZIDs(s) == [])
    }

    static func keys(_ s: ScratchStore, of tzid: String) throws -> [String] {
        try s.db.statement("SELECT key FROM timezone WHERE tzid = ?").map([.text(tzid)]) { $0.text(0) }
    }

    /// Removing a definition's last event drops it from this process's registry too, and
    /// a store opened again reads only the definitions of the events a query reads.
    @Test func aRestartLoadsNothingUnused() throws {
        let s = try ScratchStore()
        let r = Self.run()
        let used = "Lazy/\(r)-used", gone = "Lazy/\(r)-gone", orphan = "Lazy/\(r)-orphan"
        _ = try s.run(S.input("one.ics", Self.file(zones: [used], events: [("1@x", used)]), liveSource: "vdir"))
        _ = try s.run(S.input("two.ics", Self.file(zones: [gone], events: [("2@x", gone)]), liveSource: "vdir"))
        let usedKey = try #require(Self.keys(s, of: used).first)
        let goneKey = try #require(Self.keys(s, of: gone).first)
        #expect(ZoneRegistry.shared.isLoaded(goneKey))
        _ = try s.store.removeInputs([S.input("two.ics", "").path], of: S.vdir())
        #expect(try Self.keys(s, of: gone).isEmpty)
        #expect(!ZoneRegistry.shared.isLoaded(goneKey))
        // A row an older eventd left without events: never loaded, collected on request.
        let text = Self.definition(orphan).map { $0 + "\r\n" }.joined()
        let orphanKey = "vtz:orphan-\(r)"
        try s.db.statement("INSERT INTO timezone(key, tzid, definition) VALUES (?, ?, ?)")
            .run([.text(orphanKey), .text(orphan), .text(text)])
        ZoneRegistry.shared.forget([usedKey])
        try s.reopen()
        #expect(!ZoneRegistry.shared.isLoaded(usedKey) && !ZoneRegistry.shared.isLoaded(orphanKey))
        let series = try s.store.series(fromMinute: minutes(2026, 5, 1), toMinute: minutes(2026, 7, 1))
        #expect(series.count == 1)
        #expect(ZoneRegistry.shared.isLoaded(usedKey))
        #expect(!ZoneRegistry.shared.isLoaded(orphanKey))
        #expect(try s.store.collectUnusedZones() == 1)
        #expect(try Self.storedTZIDs(s) == [used])
    }

    /// Past the database's bound, an import whose events need more definitions fails
    /// with a clear error and writes nothing.
    @Test func definitionsAreBoundedPerDatabase() throws {
        let s = try ScratchStore()
        let r = Self.run()
        let perFile = 64
        let files = EventStore.maxStoredZones / perFile
        for f in 0..<files {
            let zones = (0..<perFile).map { "Db/\(r)-\(f)-\($0)" }
            _ = try s.run(S.input("f\(f).ics", Self.file(zones: zones, events: zones.map { ("\($0)@x", $0) }), liveSource: "vdir"))
        }
        #expect(try s.store.storedZones().count == EventStore.maxStoredZones)
        let before = try s.snapshot()
        let extra = "Db/\(r)-extra"
        #expect {
            _ = try s.run(S.input("extra.ics", Self.file(zones: [extra], events: [("x@x", extra)])))
        } throws: { error in
            guard case ImportError.zoneBound(let file, _, _) = error else { return false }
            return file == "extra.ics" && "\(error)".contains("past its bound of 512 definitions")
        }
        #expect(try s.snapshot() == before)
        // Freeing room (one file's events gone) lets it in.
        _ = try s.store.removeInputs([S.input("f0.ics", "").path], of: S.vdir())
        _ = try s.run(S.input("extra.ics", Self.file(zones: [extra], events: [("x@x", extra)])))
        #expect(try s.store.storedZones().count == EventStore.maxStoredZones - perFile + 1)
    }
}
