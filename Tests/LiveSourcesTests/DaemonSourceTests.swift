import EventStore
import Foundation
import CanonicalJSON
import Testing
import TestSupport

/// End to end: eventd and eventctl as built, the local HTTP server, Radicale and
/// vdirsyncer; a subscriber sees the diffs.
@Suite(.serialized) struct DaemonSourceTests {
    /// The summaries in a feed state, sorted.
    static func summaries(_ state: FeedState) -> [String] {
        state.sections.flatMap { $0["items"]?.arrayValue ?? [] }.compactMap { $0["summary"]?.stringValue }.sorted()
    }

    @Test func anICSURLFollowsTheServedFileAndAnUnchangedSyncWritesNothing() async throws {
        let server = try LocalHTTPServer()
        try server.serve("team.ics", Fixture.calendar(3))
        try await DaemonHarness.with { daemon in
            let add = try await daemon.eventctl(["source", "add", server.url("/files/team.ics?token=s3cret"), "--calendar", "team"])
            #expect(add.succeeded, "\(add.stderr)")
            #expect(add.stdout.contains("added source team (url, http://127.0.0.1:\(server.port)/…)"))
            #expect(!(add.stdout + add.stderr).contains("s3cret"))
            try await daemon.start()
            let (client, first) = try await daemon.subscribe()
            var state = first
            #expect(Self.summaries(state) == ["Meeting 0", "Meeting 1", "Meeting 2"])

            try server.serve("team.ics", Fixture.calendar(3, summary: "Renamed"))
            let sync = try await daemon.eventctl(["source", "sync", "team"])
            #expect(sync.succeeded, "\(sync.stderr)")
            #expect(sync.stdout.contains("team: 0 added, 3 updated, 0 removed"))
            try state.apply(try await client.next("diff"))
            #expect(Self.summaries(state) == ["Renamed 0", "Renamed 1", "Renamed 2"])

            // Nothing changed: no diff, and no write at all.
            let other = try EventStore(path: daemon.dbPath)
            let version = try other.dataVersion()
            let again = try await daemon.eventctl(["source", "sync", "--json"])
            #expect(again.succeeded)
            let outcome = try JSONValue.parse(Array(again.stdout.utf8))
            #expect(outcome[0]?["summary"]?.stringValue == "not modified")
            #expect(try await client.messageWithin(1) == nil)
            #expect(try other.dataVersion() == version)

            let status = try await daemon.status()
            let sources = try #require(status["sources"]?.arrayValue)
            #expect(sources.count == 1)
            #expect(sources[0]["location"]?.stringValue == "http://127.0.0.1:\(server.port)/…")
            #expect(sources[0]["events"]?.intValue == 3)
            #expect(!status.canonicalString().contains("s3cret"))
            let list = try await daemon.eventctl(["source", "list"])
            #expect(list.stdout.contains("team: url http://127.0.0.1:\(server.port)/… -> calendar team, 3 events"))
            #expect(!daemon.log.contains("s3cret"))

            // Removed: its events go, and the subscriber sees that too.
            let remove = try await daemon.eventctl(["source", "remove", "team"])
            #expect(remove.succeeded)
            try state.apply(try await client.next("diff"))
            #expect(Self.summaries(state).isEmpty)
            client.close()
        }
    }

    @Test func exitStatusesOfTheSourceCommand() async throws {
        try await DaemonHarness.with { daemon in
            #expect(try await daemon.eventctl(["source", "add", daemon.directory + "/missing.ics"]).status == 66)
            #expect(try await daemon.eventctl(["source", "add", "ftp://example.org/x.ics"]).status == 64)
            #expect(try await daemon.eventctl(["source", "frobnicate"]).status == 64)
            #expect(try await daemon.eventctl(["source", "list", "--every", "5m"]).status == 64)
            #expect(try await daemon.eventctl(["source", "add", "https://example.org/x.ics", "--every", "10s"]).status == 64)
            // A URL nothing answers on its first sync is added, with one warning, and exits 0.
            let port = try freeLoopbackPort()
            let add = try await daemon.eventctl(["source", "add", "http://127.0.0.1:\(port)/cal.ics", "--calendar", "down"])
            #expect(add.status == 0)
            #expect(add.stderr.contains("warning: source down") && !add.stdout.contains("down: failed"), "\(add.stdout)\(add.stderr)")
            // One that answers with no calendar (a login page, an HTTP error) is not kept: 65,
            // said once, on stderr.
            let server = try LocalHTTPServer()
            try server.serve("login.html", "<!DOCTYPE html><html><body><form>Sign in</form></body></html>")
            for (path, name) in [("/files/login.html", "login"), ("/status/403", "forbidden")] {
                let refused = try await daemon.eventctl(["source", "add", server.url(path), "--calendar", name])
                #expect(refused.status == 65, "\(refused.stdout)\(refused.stderr)")
                #expect(refused.stdout.isEmpty, "\(refused.stdout)")
                #expect(refused.stderr.split(separator: "\n").count == 1 && refused.stderr.contains("source \(name): ")
                        && refused.stderr.contains("not added"), "\(refused.stderr)")
                #expect(try await daemon.eventctl(["source", "list"]).stdout.contains("\(name):") == false)
            }
            #expect(try await daemon.eventctl(["source", "add", "http://127.0.0.1:\(port)/cal.ics", "--calendar", "down"]).status == 65)
            #expect(try await daemon.eventctl(["source", "sync", "down"]).status == 74)
            #expect(try await daemon.eventctl(["source", "sync", "nonesuch"]).status == 65)
            #expect(try await daemon.eventctl(["source", "remove", "nonesuch"]).status == 65)
        }
    }

    @Test(.enabled(if: CalDAVServer.isAvailable, "needs Radicale and vdirsyncer in .venv (make venv)"))
    func caldavThroughVdirsyncerReachesASubscriber() async throws {
        let caldav = try CalDAVServer()
        try await caldav.makeCalendar()
        // Outside the view; it keeps vdirsyncer from refusing to sync a calendar that
        // became empty (its guard against wiping both sides).
        try await caldav.put("keeper.ics", icsCalendar([TestEvent("keeper@caldav", "20270601T090000Z", "20270601T100000Z", "Keeper")]))
        try await caldav.sync()
        try await DaemonHarness.with { daemon in
            let add = try await daemon.eventctl(["source", "add", caldav.vdir, "--calendar", "caldav"])
            #expect(add.succeeded, "\(add.stderr)")
            try await daemon.start()
            let (client, first) = try await daemon.subscribe()
            var state = first
            #expect(Self.summaries(state).isEmpty)

            func event(_ summary: String) -> String {
                icsCalendar([TestEvent("standup@caldav", "20261130T090000Z", "20261130T091500Z", summary)])
            }
            try await caldav.put("standup.ics", event("Standup"))
            try await caldav.sync()
            try state.apply(try await client.next("diff"))
            #expect(Self.summaries(state) == ["Standup"])

            try await caldav.put("standup.ics", event("Standup (moved room)"))
            try await caldav.sync()
            try state.apply(try await client.next("diff"))
            #expect(Self.summaries(state) == ["Standup (moved room)"])

            try await caldav.delete("standup.ics")
            try await caldav.sync()
            try state.apply(try await client.next("diff"))
            #expect(Self.summaries(state).isEmpty)
            client.close()
        }
    }
}
