import Foundation
import Testing
import TestSupport

@Suite struct AgendaCLITests {
    /// The digest is SHA-256 of the sections in Python's canonical JSON: recompute it
    /// with Python's own json.dumps and hashlib.
    @Test func digestMatchesPythonCanonicalJSON() throws {
        let cli = CLIRunner()
        defer { cli.cleanUp() }
        for name in ["team.ics", "trip.ics", "conference.ics", "holidays.ics"] {
            #expect(try cli.run(["import", cli.sample(name)]).status == 0)
        }
        let r = try cli.run(["agenda", "--json", "--days", "30", "--tz", "Europe/Berlin", "--empty-days", "placeholder"],
                            extraEnvironment: ["EVENTD_FAKE_NOW": "2026-11-29T12:00:00Z"])
        #expect(r.status == 0, "\(r.stderr)")
        let path = cli.file("agenda.json", r.stdout)
        let python = try ChildProcess.runBlocking("/usr/bin/env", ["python3", "-c", """
            import json, hashlib, sys
            doc = json.load(open(sys.argv[1]))
            canon = json.dumps(doc["sections"], sort_keys=True, separators=(",", ":"), ensure_ascii=True)
            print(hashlib.sha256(canon.encode()).hexdigest(), doc["digest"])
            """, path])
        let words = python.stdout.split(separator: " ")
        #expect(words.count == 2)
        #expect(words.first.map(String.init) == words.last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
    }

    @Test func snapshotShapeAndLabels() throws {
        let cli = CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["import", cli.sample("team.ics")]).status == 0)
        let r = try cli.run(["agenda", "--json", "--days", "3", "--tz", "Europe/Berlin", "--empty-days", "placeholder"],
                            extraEnvironment: ["EVENTD_FAKE_NOW": "2026-11-29T12:00:00Z"])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let sections = try #require(doc["sections"] as? [[String: Any]])
        #expect(sections.map { $0["id"] as? String } == ["2026-11-29", "2026-11-30", "2026-12-01"])
        #expect(sections.map { $0["label"] as? String } == ["today", "tomorrow", nil])
        let view = try #require(doc["view"] as? [String: Any])
        #expect(view["tz"] as? String == "Europe/Berlin")
        #expect(view["days"] as? Int == 3)
        // Every item has every field, absent ones as null.
        for section in sections {
            for item in section["items"] as? [[String: Any]] ?? [] where item["kind"] as? String == "event" {
                for key in ["id", "calendar", "uid", "recurrence_id", "summary", "location", "status", "all_day",
                            "start", "end", "continues_from_previous_day", "continues_to_next_day"] {
                    #expect(item.keys.contains(key), "missing \(key)")
                }
            }
        }
    }

    @Test func invalidViewOptions() throws {
        let cli = CLIRunner()
        defer { cli.cleanUp() }
        #expect(try cli.run(["import", cli.sample("team.ics")]).status == 0)
        #expect(try cli.run(["agenda", "--days", "0"]).status == 64)
        #expect(try cli.run(["agenda", "--tz", "Mars/Olympus"]).status == 64)
        let unknown = try cli.run(["agenda", "--calendar", "nope"])
        #expect(unknown.status == 65 && unknown.stderr.contains("no calendar named \"nope\""))
        #expect(try cli.run(["agenda", "--from", "2026-13-01"]).status == 64)
    }
}
