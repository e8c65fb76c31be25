import Foundation
import Testing
import Agenda
import EventStore
import ICalendar
import CanonicalJSON
import Digests
import TestSupport

/// docs/data-model.md: the digest is the lowercase hex SHA-256 of the canonical JSON of
/// `sections`, escaped as Python's `json.dumps(sort_keys=True, separators=(",", ":"),
/// ensure_ascii=True)`.
@Suite struct DigestTests {
    /// Python re-serialises what it parses and hashes it: prints the digest of
    /// `sections`, then the canonical `sections`, then the canonical whole document,
    /// separated by NUL bytes.
    static let script = """
        import sys, json, hashlib
        doc = json.loads(sys.stdin.buffer.read().decode("utf-8"))
        dump = lambda v: json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        sections = dump(doc["sections"])
        out = hashlib.sha256(sections.encode("ascii")).hexdigest() + "\\0" + sections + "\\0" + dump(doc)
        sys.stdout.buffer.write(out.encode("ascii"))
        """

    /// Summary as written in the file, and as it must come out.
    static let summaryICS = "SUMMARY:Z\u{FC}rich \u{6771}\u{4EAC} \u{1F600} \"quoted\" C:\\\\Users\\\\x tab\there\\nnext\\, semi\\; ctl\u{1}end"
    static let summary = "Z\u{FC}rich \u{6771}\u{4EAC} \u{1F600} \"quoted\" C:\\Users\\x tab\there\nnext, semi; ctl\u{1}end"
    static let locationICS = "LOCATION:\u{7F}del \u{2028}ls\u{2029}ps \u{FEFF}bom </script> \u{1F}us \u{E9}e\u{301} \u{10FFFF}"
    static let location = "\u{7F}del \u{2028}ls\u{2029}ps \u{FEFF}bom </script> \u{1F}us \u{E9}e\u{301} \u{10FFFF}"

    static func trickyStore() throws -> ScratchStore {
        let s = try ScratchStore()
        try s.load([
            ICS.event("tricky@x", "DTSTART;TZID=Europe/Berlin:20261129T100000", "DTEND;TZID=Europe/Berlin:20261130T101500",
                      summaryICS, locationICS, "STATUS:TENTATIVE"),
            ICS.event("\u{5F53}\u{5730}\"uid\\\\@x", "DTSTART:20261130T080000Z", "SUMMARY:\u{1F600}\u{1F600}"),
            ICS.allDay("day@x", "20261201", nil, summary: "Caf\u{E9} \\\\ \"q\""),
        ], calendar: "work")
        return s
    }

    @Test func theTrickyStringsSurviveTheRoundTrip() throws {
        let s = try Self.trickyStore()
        let snapshot = try s.build(Fixture.view(emptyDays: .placeholder))
        let item = try #require(snapshot.items(uid: "tricky@x").first?.item)
        #expect(item.string("summary").map { Array($0.unicodeScalars) } == Array(Self.summary.unicodeScalars))
        #expect(item.string("location").map { Array($0.unicodeScalars) } == Array(Self.location.unicodeScalars))
        #expect(snapshot.items(uid: "\u{5F53}\u{5730}\"uid\\\\@x").count == 1
                || snapshot.items(uid: "\u{5F53}\u{5730}\"uid\\@x").count == 1)
        #expect(snapshot.items(uid: "day@x").first?.item.string("summary") == "Caf\u{E9} \\ \"q\"")
    }

    @Test func digestMatchesPython() throws {
        let s = try Self.trickyStore()
        for view in [Fixture.view(emptyDays: .placeholder), Fixture.view(Fixture.newYork), Fixture.view(days: 1)] {
            let snapshot = try s.build(view)
            let output = try Python.run(Self.script, input: snapshot.agendaJSON)
            let parts = output.split(separator: 0, omittingEmptySubsequences: false).map { Array($0) }
            try #require(parts.count == 3)
            let pythonDigest = String(decoding: parts[0], as: UTF8.self)
            #expect(snapshot.digest == pythonDigest)
            #expect(snapshot.sectionsJSON == parts[1], "Swift: \(snapshot.sectionsText)\nPython: \(String(decoding: parts[1], as: UTF8.self))")
            #expect(snapshot.agendaJSON == parts[2])
            #expect(snapshot.digest == AgendaSnapshot.digest(of: snapshot.sections))
            #expect(snapshot.digest == SHA256.hexDigest(snapshot.sectionsJSON))
            #expect(snapshot.digest.count == 64)
            #expect(snapshot.digest.allSatisfy { "0123456789abcdef".contains($0) })
        }
    }

    @Test func escapingIsASCIIOnly() throws {
        let s = try Self.trickyStore()
        let snapshot = try s.build(Fixture.view())
        let bytes = snapshot.sectionsJSON
        #expect(bytes.allSatisfy { $0 < 0x80 }, "canonical JSON is ASCII (ensure_ascii)")
        let text = snapshot.sectionsText
        // Spot checks of the escapes Python writes.
        for escape in [#"\u00fc"#, #"\u6771\u4eac"#, #"\ud83d\ude00"#, #"\"quoted\""#, #"C:\\Users\\x"#, #"tab\there"#,
                       #"\nnext"#, #"ctl\u0001end"#, #"\u2028ls\u2029ps"#, #"\ufeffbom"#, #"\u001fus"#,
                       #"\u00e9e\u0301"#, #"\udbff\udfff"#, #"\u007fdel"#, "</script>"] {
            #expect(text.contains(escape), "missing \(escape)")
        }
        // Each item's own bytes are canonical too.
        for item in snapshot.allItems {
            #expect(item.json.allSatisfy { $0 < 0x80 })
            #expect(item.value.canonicalBytes() == item.json)
        }
    }

    @Test func agendaJSONShape() throws {
        let s = try Self.trickyStore()
        let view = Fixture.view(Fixture.newYork, calendars: ["work"], emptyDays: .placeholder)
        let snapshot = try s.build(view)
        let doc = try JSONValue.parse(snapshot.agendaJSON)
        #expect(Set(doc.objectValue?.keys.map { $0 } ?? []) == ["view", "digest", "sections"])
        #expect(doc["digest"]?.stringValue == snapshot.digest)
        #expect(doc["view"] == view.json)
        #expect(doc["sections"]?.canonicalBytes() == snapshot.sectionsJSON)
        #expect(doc["view"]?.canonicalString() ==
            #"{"calendars":["work"],"days":7,"empty_days":"placeholder","from":"2026-11-28","past_days":0,"tz":"America/New_York"}"#)
    }

    @Test func equalSnapshotsHaveEqualDigests() throws {
        let a = try Self.trickyStore()
        let b = try ScratchStore()
        // The same events, imported the other way round and from another file.
        try b.load([
            ICS.allDay("day@x", "20261201", nil, summary: "Caf\u{E9} \\\\ \"q\""),
            ICS.event("\u{5F53}\u{5730}\"uid\\\\@x", "DTSTART:20261130T080000Z", "SUMMARY:\u{1F600}\u{1F600}"),
            ICS.event("tricky@x", "DTSTART;TZID=Europe/Berlin:20261129T100000", "DTEND;TZID=Europe/Berlin:20261130T101500",
                      Self.summaryICS, Self.locationICS, "STATUS:TENTATIVE"),
        ], calendar: "work", file: "elsewhere.ics")
        for view in [Fixture.view(), Fixture.view(Fixture.newYork, emptyDays: .placeholder)] {
            let x = try a.build(view), y = try b.build(view)
            #expect(x == y)
            #expect(x.digest == y.digest)
            #expect(try a.build(view).digest == x.digest)
        }
    }

    @Test func anyChangeChangesTheDigest() throws {
        let base = [
            ICS.berlin("a", "20261129T100000", "20261129T110000", summary: "A", "LOCATION:Room"),
            ICS.berlin("b", "20261130T100000", "20261130T110000", summary: "B"),
        ]
        var variants: [[[String]]] = [base]
        variants.append([ICS.berlin("a", "20261129T100000", "20261129T110000", summary: "A.", "LOCATION:Room"), base[1]])
        variants.append([ICS.berlin("a", "20261129T100000", "20261129T110000", summary: "A", "LOCATION:Room."), base[1]])
        variants.append([ICS.berlin("a", "20261129T100000", "20261129T110000", summary: "A"), base[1]])
        variants.append([ICS.berlin("a", "20261129T100000", "20261129T110000", summary: "A", "LOCATION:Room",
                                    "STATUS:TENTATIVE"), base[1]])
        variants.append([ICS.berlin("a", "20261129T100001", "20261129T110000", summary: "A", "LOCATION:Room"), base[1]])
        variants.append([ICS.berlin("a", "20261129T100000", "20261129T110001", summary: "A", "LOCATION:Room"), base[1]])
        variants.append([ICS.berlin("a2", "20261129T100000", "20261129T110000", summary: "A", "LOCATION:Room"), base[1]])
        variants.append([base[0]])
        variants.append(base + [ICS.berlin("c", "20261201T100000", "20261201T110000", summary: "C")])
        variants.append([base[0], ICS.allDay("b", "20261130", nil, summary: "B")])
        var digests: [String] = []
        for events in variants {
            let s = try ScratchStore()
            try s.load(events)
            digests.append(try s.build(Fixture.view()).digest)
        }
        // Other calendar, labels, zone and empty_days.
        let s = try ScratchStore()
        try s.load(base, calendar: "other")
        digests.append(try s.build(Fixture.view()).digest)
        digests.append(try s.build(Fixture.view(), now: utc(2026, 11, 30, 12)).digest)
        digests.append(try s.build(Fixture.view("Europe/London")).digest)
        digests.append(try s.build(Fixture.view(emptyDays: .placeholder)).digest)
        #expect(Set(digests).count == digests.count, "\(digests)")
    }

    @Test func digestDoesNotCoverTheView() throws {
        // Two views that produce the same sections have the same digest.
        let s = try ScratchStore()
        try s.load([ICS.berlin("a", "20261129T100000", "20261129T110000")])
        let a = try s.build(Fixture.view(from: "2026-11-29", days: 1))
        let b = try s.build(Fixture.view(from: nil, days: 1))
        let c = try s.build(Fixture.view(from: "2026-11-29", days: 1, calendars: ["work"]))
        #expect(a.view != b.view && a.view != c.view)
        #expect(a.digest == b.digest && a.digest == c.digest)
        #expect(a.agendaJSON != c.agendaJSON)
    }
}
