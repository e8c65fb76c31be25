import Foundation
import CanonicalJSON
import Testing
import TestSupport

/// The non-subscription requests, and heartbeats.
@Suite(.timeLimit(.minutes(1)))
struct RequestTests {
    static let events = [
        TestEvent("q1@x", "20261130T100000Z", "20261130T110000Z", "Query one"),
        TestEvent("q2@x", "20261201", "20261202", "All day"),
        TestEvent("q3@x", "20261210T100000Z", "20261210T110000Z", "Outside the week"),
    ]

    @Test func snapshotRequestAnswersOnceWithoutSubscribing() async throws {
        try await DaemonHarness.with(running: Self.events) { daemon in
            let client = try await daemon.connect()
            let answer = try await client.request(["op": "snapshot", "view": ["days": 7, "calendars": ["work"]]])
            let state = try FeedState(snapshot: answer)
            #expect(state.epoch == client.hello["epoch"]?.stringValue)
            #expect(state.view == ["tz": "UTC", "from": nil, "past_days": 0, "days": 7, "calendars": ["work"], "empty_days": "omit"],
                    "the normalised view: \(state.view)")
            #expect(state.sectionIDs == ["2026-11-30", "2026-12-01"])
            #expect(state.section("2026-12-01")?["items"]?[0]?["all_day"] == true)

            // The same snapshot eventctl prints for that view.
            let agenda = try await daemon.eventctl(["agenda", "--json", "--days", "7", "--tz", "UTC", "--calendar", "work"])
            #expect(agenda.succeeded, "\(agenda.stderr)")
            let printed = try JSONValue.parse(agenda.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(printed["digest"]?.stringValue == state.digest)

            // Default view: the daemon's zone, 14 days.
            let defaults = try FeedState(snapshot: try await client.request(["op": "snapshot"]))
            #expect(defaults.view["days"] == 14 && defaults.view["tz"] == "UTC")
            #expect(defaults.sectionIDs.contains("2026-12-10"))

            // No subscription was made: a change sends nothing.
            try await daemon.importCalendar(icsCalendar(Array(Self.events.dropFirst())))
            let after = try await client.messageWithin(0.6)
            #expect(after.map(FeedClient.brief) == nil, "a snapshot request must not subscribe: \(after.map(FeedClient.brief) ?? "")")
            #expect((try await daemon.status())["subscribers"] == 0)
        }
    }

    @Test func statusReportsViewsSubscribersEventsAndDatabase() async throws {
        try await DaemonHarness.with(running: Self.events) { daemon in
            let (a, _) = try await daemon.subscribe()
            let (b, _) = try await daemon.subscribe()
            let (c, _) = try await daemon.subscribe(["tz": "Asia/Tokyo", "days": 2])
            let status = try await a.request(["op": "status"])
            #expect(status["type"] == "status")
            #expect(status["version"]?.stringValue?.isEmpty == false)
            #expect(status["epoch"] == a.hello["epoch"])
            #expect(status["uptime_seconds"]?.intValue != nil)
            #expect(status["views"] == 2)
            #expect(status["subscribers"] == 3)
            #expect(status["events"] == 3)
            #expect(status["database"]?.stringValue == daemon.dbPath)
            let last = status["last_recompute"]
            #expect(last?["time"]?.stringValue != nil && last?["duration_ms"]?.doubleValue != nil,
                    "three snapshots were computed, yet last_recompute is \(last.map(FeedClient.brief) ?? "missing")")

            // Subscribers leave: counted down.
            b.close()
            c.close()
            let counted = try await eventually(timeout: 3, every: 0.05) {
                (try await a.request(["op": "status"]))["subscribers"] == 1
            }
            #expect(counted, "subscribers should drop to 1 after two disconnects")
        }
    }

    @Test func refreshAnswersOkAndRecomputes() async throws {
        try await DaemonHarness.with(running: Self.events) { daemon in
            let (subscriber, first) = try await daemon.subscribe()
            var state = first
            // Change the database behind the daemon's back (eventctl would refresh by
            // itself; this import goes to the database without a socket to nudge).
            let path = daemon.directory + "/quiet.ics"
            try icsCalendar([TestEvent("q1@x", "20261130T100000Z", "20261130T110000Z", "Refreshed")])
                .write(toFile: path, atomically: true, encoding: .utf8)
            var env = daemon.daemonEnvironment()
            env["NO_COLOR"] = "1"
            let quiet = try await ChildProcess.run(DaemonHarness.eventctl,
                                                   ["--db", daemon.dbPath, "--socket", daemon.directory + "/nobody.sock",
                                                    "import", path, "--calendar", "other"],
                                                   environment: env, directory: daemon.directory)
            #expect(quiet.succeeded, "\(quiet.stderr)")
            let early = try await subscriber.messageWithin(0.3)
            #expect(early.map(FeedClient.brief) == nil, "nothing before the refresh (interval 60 s): \(early.map(FeedClient.brief) ?? "")")
            let client = try await daemon.connect()
            #expect(try await client.request(["op": "refresh"]) == ["type": "ok"])
            let diff = try await subscriber.next("diff", timeout: 3)
            try state.apply(diff)
            #expect(state.items(uid: "q1@x").count == 2, "the same UID in two calendars is two events")
        }
    }

    @Test func idleSubscribersGetHeartbeats() async throws {
        try await DaemonHarness.with(arguments: ["--heartbeat", "1"]) { daemon in
            try await daemon.importCalendar(icsCalendar(Self.events))
            try await daemon.start()
            let (client, state) = try await daemon.subscribe()
            let beat = try await client.next(timeout: 3, skipHeartbeats: false)
            #expect(beat["type"] == "heartbeat")
            #expect(beat["seq"]?.intValue == state.seq)
            #expect(beat["epoch"]?.stringValue == state.epoch)
            let time = beat["time"]?.stringValue ?? ""
            #expect(time.hasPrefix("2026-11-29T12:00:0") && time.hasSuffix("Z"), "heartbeat time \(time) (fake clock 12:00:00Z)")
            let second = try await client.next(timeout: 3, skipHeartbeats: false)
            #expect(second["type"] == "heartbeat")
            // A connection without a subscription gets none.
            let plain = try await daemon.connect()
            #expect(try await plain.messageWithin(1.5).map(FeedClient.brief) == nil)
            #expect(plain.received.count == 1, "only the hello")
        }
    }
}

/// The digest checked independently of the project's own JSON code: Python's
/// `json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=True)`, as
/// docs/data-model.md defines it, over text that needs escaping.
@Suite(.timeLimit(.minutes(1)))
struct DigestReferenceTests {
    static let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test func digestsMatchPythonJSONDumps() async throws {
        guard let python = Self.python else {
            print("SKIPPED digestsMatchPythonJSONDumps: no python3")
            return
        }
        try await DaemonHarness.with { daemon in
            try await daemon.importCalendar(icsCalendar([
                TestEvent("u1@x", "20261130T100000Z", "20261130T110000Z", "Café ☕ naïve 😀 \"quoted\" back\\\\slash",
                          extra: ["LOCATION:Zürich\\, Raum 4\\; Tür \"B\""]),
                TestEvent("u2@x", "20261130T120000Z", "20261130T130000Z", "Line one\\nline two\ttab \u{7f} \u{2028} 中文 𝄞"),
                TestEvent("u3@x", "20261201", "20261202", "Ünïcödé all day"),
            ]))
            try await daemon.start()
            let client = try await daemon.connect()
            try await client.send(["op": "subscribe", "view": DaemonHarness.weekView])
            let snapshot = try await client.next("snapshot")
            let snapshotLine = client.lastLine
            let state = try FeedState(snapshot: snapshot)
            #expect(state.item(uid: "u1@x")?.item["summary"]?.stringValue?.contains("😀") == true)
            #expect(state.item(uid: "u2@x")?.item["summary"]?.stringValue?.contains("\n") == true)

            try await daemon.importCalendar(icsCalendar([
                TestEvent("u1@x", "20261130T100000Z", "20261130T110000Z", "Geändert ✓ «guillemets»"),
                TestEvent("u3@x", "20261201", "20261202", "Ünïcödé all day"),
            ]))
            _ = try await client.next("diff", timeout: 3)
            let diffLine = client.lastLine

            let script = """
            import hashlib, json, sys
            for path in sys.argv[1:]:
                m = json.loads(open(path, encoding="utf-8").read())
                if "sections" in m:
                    text = json.dumps(m["sections"], sort_keys=True, separators=(",", ":"), ensure_ascii=True)
                    print(m["digest"], hashlib.sha256(text.encode("ascii")).hexdigest())
                else:
                    print(m["digest"], "-")
            """
            let scriptPath = daemon.directory + "/digest.py"
            try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
            let snapshotPath = daemon.directory + "/snapshot.json", diffPath = daemon.directory + "/diff.json"
            try Data(snapshotLine).write(to: URL(fileURLWithPath: snapshotPath))
            try Data(diffLine).write(to: URL(fileURLWithPath: diffPath))
            let result = try await ChildProcess.run(python, [scriptPath, snapshotPath], environment: [:], directory: daemon.directory)
            #expect(result.succeeded, "\(result.stderr)")
            let pair = result.stdout.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            #expect(pair.count == 2 && pair[0] == pair[1], "daemon digest vs Python's: \(pair)")

            // The diff's digest is that of the next snapshot, which Python checks too.
            let fresh = try await client.request(["op": "snapshot", "view": DaemonHarness.weekView])
            let diffMessage = try JSONValue.parse(diffLine)
            #expect(fresh["digest"] == diffMessage["digest"])
            try Data(client.lastLine).write(to: URL(fileURLWithPath: snapshotPath))
            let second = try await ChildProcess.run(python, [scriptPath, snapshotPath], environment: [:], directory: daemon.directory)
            let pair2 = second.stdout.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            #expect(pair2.count == 2 && pair2[0] == pair2[1], "after the diff, daemon digest vs Python's: \(pair2)")
        }
    }
}

/// Connections come and go while the recomputer works; answers must reach the
/// connection that asked, never a newer one that happens to get the same descriptor.
@Suite(.timeLimit(.minutes(1)))
struct ConnectionReuseTests {
    @Test func aSnapshotAnswerNeverReachesAnotherConnection() async throws {
        try await DaemonHarness.with { daemon in
            // Daily events and a long window: a one-shot snapshot takes a while to build.
            try await daemon.importCalendar(icsCalendar((0..<3).map {
                TestEvent("daily\($0)@x", "20261101T0\($0)0000Z", "20261101T0\($0)3000Z", "Daily \($0)", extra: ["RRULE:FREQ=DAILY"])
            }))
            try await daemon.start()
            for attempt in 0..<3 {
                let asker = try await daemon.connect()
                try await asker.send(["op": "snapshot", "view": ["days": .int(2000 - Int64(attempt))]])
                asker.close() // gone before the answer is ready
                try await pause(0.03) // the daemon closes its side; the fd number is free again
                let newcomer = try await daemon.connect()
                let stray = try await newcomer.messageWithin(1)
                #expect(stray.map(FeedClient.brief) == nil, "attempt \(attempt): a new connection received another client's answer: \(stray.map(FeedClient.brief) ?? "")")
                newcomer.close()
            }
        }
    }
}
