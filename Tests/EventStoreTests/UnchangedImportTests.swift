import EventStore
import Testing
import TestSupport
@testable import EventStore

/// An import of bytes a source last synchronised completely costs reading and
/// hashing: nothing is parsed or written. Any change of the source's rows by another
/// source makes the next import parse again.
@Suite struct UnchangedImportTests {
    typealias S = StoreICS

    @Test func theSameBytesAgainAreNotParsedAndWriteNothing() throws {
        let s = try ScratchStore()
        let text = S.calendar([S.event("a@x", day: 1), S.event("b@x", day: 2)])
        let first = try s.run(S.input("a.ics", text))
        #expect(!first.sameBytes && first.added == 2)
        let watcher = try s.watcher()
        let version = try watcher.dataVersion()
        let again = try s.run(S.input("a.ics", text))
        #expect(again.sameBytes)
        #expect((again.added, again.updated, again.removed, again.unchanged) == (0, 0, 0, 2))
        #expect(try watcher.dataVersion() == version)
        // --strict and --replace always parse.
        #expect(try !s.run(S.input("a.ics", text), strict: true).sameBytes)
        #expect(try !s.run(S.input("a.ics", text), replace: true).sameBytes)
    }

    /// A database written before the fingerprint was SHA-256 holds FNV-1a hashes: such a
    /// file is parsed once more, changes nothing, and is then recognised again.
    @Test func aSourceStoredWithAnOlderHashIsParsedOnceAndChangesNothing() throws {
        let s = try ScratchStore()
        let input = S.input("a.ics", S.calendar([S.event("a@x", day: 1), S.event("b@x", day: 2)]))
        _ = try s.run(input)
        try s.store.db.execute("UPDATE source SET content_hash = 'cbf29ce484222325', synced_hash = 'cbf29ce484222325'")
        let upgraded = try s.run(input)
        #expect(!upgraded.sameBytes)
        #expect((upgraded.added, upgraded.updated, upgraded.removed, upgraded.unchanged) == (0, 0, 0, 2))
        #expect(try s.store.db.scalarText("SELECT synced_hash FROM source") == ContentHash.of(bytes: input.bytes))
        #expect(try s.run(input).sameBytes)
    }

    @Test func aFileWithWarningsIsParsedEveryTimeSoItsWarningsAreReported() throws {
        let s = try ScratchStore()
        let text = S.calendar([S.event("a@x"), ["UID:nostart@x", "SUMMARY:No start"]])
        _ = try s.run(S.input("a.ics", text))
        let again = try s.run(S.input("a.ics", text))
        #expect(!again.sameBytes)
        #expect(again.skipped == 1 && again.warnings.count == 1)
    }

    @Test func anotherSourceTakingARowMakesTheNextImportParse() throws {
        let s = try ScratchStore()
        // Two files of one vdir source (one owner: the conflict rule applies between them).
        let a = S.calendar([S.event("shared@x", summary: "from a"), S.event("a@x")])
        _ = try s.run(S.input("a.ics", a, liveSource: "vdir"))
        // b.ics has the shared event with a higher SEQUENCE: it takes the row over.
        _ = try s.run(S.input("b.ics", S.calendar([S.event("shared@x", summary: "from b", extra: ["SEQUENCE:5"])]), liveSource: "vdir"))
        #expect(try s.summary("shared@x") == "from b")
        let again = try s.run(S.input("a.ics", a, liveSource: "vdir"))
        #expect(!again.sameBytes)
        // b.ics gone (deleted from the vdir): a.ics is parsed and brings its event back.
        #expect(try s.store.removeInputs(["/tmp/eventd-store-tests/b.ics"], of: S.vdir()) == 1)
        let back = try s.run(S.input("a.ics", a, liveSource: "vdir"))
        #expect(!back.sameBytes && back.added == 1)
        #expect(try s.summary("shared@x") == "from a")
    }

    @Test func replaceElsewhereInTheCalendarInvalidatesItsSources() throws {
        let s = try ScratchStore()
        let a = S.calendar([S.event("a@x")])
        _ = try s.run(S.input("a.ics", a))
        _ = try s.run(S.input("b.ics", S.calendar([S.event("b@x")])), replace: true)
        #expect(try s.uids() == ["b@x"])
        let again = try s.run(S.input("a.ics", a))
        #expect(!again.sameBytes && again.added == 1)
    }
}
