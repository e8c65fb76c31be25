import Foundation
import Testing
@testable import EventStore
import TestSupport

/// Ownership (docs/data-model.md): a live source never takes over, and its removal never
/// deletes, what `eventctl import` (or another source) brought into a calendar of the
/// same name; sources are added all or none.
@Suite struct OwnershipTests {
    typealias S = StoreICS

    /// The import's `shared@x` and the source's newer one (a higher SEQUENCE, which
    /// would win between two imports).
    static let imported = S.calendar([S.event("shared@x", summary: "imported"), S.event("mine@x")])
    static let synced = S.calendar([S.event("shared@x", summary: "from the source", extra: ["SEQUENCE:5"]), S.event("new@x")])

    @Test func aLiveSourceNeverTakesOverAnImportedEvent() throws {
        let s = try ScratchStore()
        _ = try s.run(S.input("conference.ics", Self.imported))
        let result = try s.run(S.input("vdir/x.ics", Self.synced, liveSource: "vdir"))
        #expect(result.added == 1 && result.updated == 0 && result.keptFromOthers == 1)
        #expect(result.warnings.contains { $0.message.contains("kept those") })
        #expect(try s.summary("shared@x") == "imported")
        #expect(try s.uids() == ["mine@x", "new@x", "shared@x"])
        // Between two imports the conflict rule still applies.
        _ = try s.run(S.input("other.ics", Self.synced))
        #expect(try s.summary("shared@x") == "from the source")
    }

    @Test func aLiveSourceDoesNotWriteIntoAnImportsFile() throws {
        let s = try ScratchStore()
        _ = try s.run(S.input("conference.ics", Self.imported))
        let before = try s.snapshot()
        // The same path, read by a source into the same calendar: nothing of it is written.
        let result = try s.run(S.input("conference.ics", Self.synced, liveSource: "conference"))
        #expect(result.added + result.updated + result.removed == 0 && result.keptFromOthers == 2)
        #expect(try s.snapshot() == before)
        #expect(try s.store.ownedInputPaths(of: S.vdir("conference")).isEmpty)
    }

    @Test func anImportOfASourcesFileIsRefusedAndChangesNothing() throws {
        let s = try ScratchStore()
        try s.store.addLiveSource(S.vdir())
        _ = try s.run(S.input("x.ics", Self.synced, liveSource: "vdir"))
        let before = try s.snapshot()
        #expect(throws: ImportError.self) { try s.run(S.input("x.ics", Self.imported)) }
        #expect(try s.snapshot() == before)
    }

    @Test func removingASourceKeepsTheImportedEventsOfItsCalendar() throws {
        let s = try ScratchStore()
        try s.store.addLiveSource(S.vdir(calendar: "work"))
        _ = try s.run(S.input("conference.ics", Self.imported))
        _ = try s.run(S.input("x.ics", Self.synced, liveSource: "vdir"))
        #expect(try s.store.removeLiveSource(named: "vdir") == 1)
        #expect(try s.uids() == ["mine@x", "shared@x"])
        #expect(try s.summary("shared@x") == "imported")
        #expect(try s.store.liveSources().isEmpty)
    }

    @Test func sourcesAreAddedAllOrNone() throws {
        let s = try ScratchStore()
        try s.store.addLiveSource(S.vdir("outlook", calendar: "outlook"))
        let batch = ["conference", "outlook", "team"].map { S.vdir($0, calendar: $0) }
        #expect(throws: LiveSourceError.duplicate("outlook")) { try s.store.addLiveSources(batch) }
        #expect(try s.store.liveSources().map(\.name) == ["outlook"])
        // A name given twice in one batch is a collision too.
        #expect(throws: LiveSourceError.duplicate("a")) { try s.store.addLiveSources([S.vdir("a"), S.vdir("a")]) }
        try s.store.addLiveSources([S.vdir("a"), S.vdir("b")])
        #expect(try s.store.liveSources().map(\.name) == ["a", "b", "outlook"])
        #expect(throws: LiveSourceError.unknown("nonesuch")) { try s.store.removeLiveSources(named: ["a", "nonesuch"]) }
        #expect(try s.store.liveSources().map(\.name) == ["a", "b", "outlook"])
    }

    @Test func aMigratedDatabaseGivesEachSourceItsOwnInputsOnly() throws {
        let path = DatabaseFiles.scratchPath("ownership")
        defer { DatabaseFiles.remove(path) }
        do {
            let store = try EventStore(path: path)
            try store.addLiveSource(S.vdir(calendar: "work"))
            try store.addLiveSource(LiveSource(name: "web", kind: .url, location: "https://example.org/c.ics", calendar: "web", everySeconds: 900))
            _ = try store.importCalendars([S.input("x.ics", Self.synced, liveSource: "vdir"),
                                           ImportInput(path: "live:web", displayName: "web", bytes: Array(Self.synced.utf8), calendar: "web", liveSource: "web"),
                                           ImportInput(path: "/elsewhere/conference.ics", displayName: "c", bytes: Array(Self.imported.utf8), calendar: "work")])
            try store.db.execute("ALTER TABLE source DROP COLUMN live_source; PRAGMA user_version = 9;")
        }
        let store = try EventStore(path: path)
        #expect(try store.ownedInputPaths(of: S.vdir(calendar: "work")) == ["/tmp/eventd-store-tests/x.ics"])
        #expect(try store.ownedInputPaths(of: try #require(try store.liveSource(named: "web"))) == ["live:web"])
    }
}
