import CanonicalJSON
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// eventd publishing to a real redis-server and eventd-web gateways reading it
/// (`--upstream`): browsers get exactly a socket subscriber's lines, and resume by
/// Last-Event-ID across a gateway's restart.
@Suite(.timeLimit(.minutes(2)))
struct UpstreamEndToEndTests {
    static let query = "tz=UTC&days=7"

    /// Through README's Redis users: each limited to the commands it uses, so a command
    /// missing from README's list fails this test.
    @Test func browsersOnTwoGatewaysGetTheSocketsLines() async throws {
        let users = try await ReadmeRedisUsers.start()
        defer { users.remove() }
        try await DaemonHarness.with(running: PublishEndToEndTests.base, arguments: users.eventdArguments) { daemon in
            let (socket, _) = try await daemon.subscribe(protocolVersion: 2)
            let upstream = users.gatewayArguments
            let web1 = try await WebGatewayHarness.start(for: daemon, arguments: upstream, name: "web1")
            let web2 = try await WebGatewayHarness.start(for: daemon, arguments: upstream, name: "web2")
            // Two browsers on the first gateway, one on the second.
            let browsers = [try await web1.stream(query: Self.query), try await web1.stream(query: Self.query),
                            try await web2.stream(query: Self.query)]
            let snapshotLine = String(decoding: socket.lastLine, as: UTF8.self)
            for browser in browsers {
                let snapshot = try await browser.next("snapshot", timeout: 30)
                #expect(snapshot.data == snapshotLine)
            }
            var events = PublishEndToEndTests.base
            var lastID: String?
            for round in 1...3 {
                events[round - 1].summary += " v\(round)"
                try await daemon.importCalendar(icsCalendar(events))
                let diff = try await socket.next("diff")
                let line = String(decoding: socket.lastLine, as: UTF8.self)
                for browser in browsers {
                    let event = try await browser.next("diff")
                    #expect(event.data == line, "round \(round)")
                    #expect(event.id == "\(diff["epoch"]!.stringValue!).\(diff["seq"]!.intValue!)")
                    lastID = event.id
                }
            }
            // Both gateways asked for the view: eventd publishes it once.
            #expect(daemon.logLineCount(containing: "a gateway wants it") == 1)

            // The first gateway killed; a change meanwhile; a new gateway: its browser
            // resumes from the stream, without a snapshot.
            kill(web1.pid, SIGKILL)
            _ = try await ChildProcess.wait(web1.pid, timeout: 5)
            events.append(TestEvent("late@x", "20261203T120000Z", "20261203T130000Z", "Late"))
            try await daemon.importCalendar(icsCalendar(events))
            _ = try await socket.next("diff")
            let missed = String(decoding: socket.lastLine, as: UTF8.self)
            let web3 = try await WebGatewayHarness.start(for: daemon, arguments: upstream, name: "web3")
            let resumed = try await web3.stream(query: Self.query, lastEventID: lastID)
            let first = try await resumed.next("diff", timeout: 30)
            #expect(first.data == missed)
            #expect(!resumed.events.contains { $0.event == "snapshot" })
            socket.close()
        }
    }

    /// Redis stopped for 10 s: the browsers are told (`offline`, which the page shows as
    /// "reconnecting"), the socket is served all along, and a browser that reconnects
    /// with its Last-Event-ID once Redis answers ends on the socket subscriber's state.
    @Test func browsersAreToldOfAnOutageAndCatchUp() async throws {
        let redis = try await RedisServerProcess()
        try await DaemonHarness.with(running: PublishEndToEndTests.base, arguments: ["--publish", redis.url()]) { daemon in
            let (socket, _) = try await daemon.subscribe(protocolVersion: 2)
            let web = try await WebGatewayHarness.start(for: daemon, arguments: ["--upstream", redis.url()])
            let browser = try await web.stream(query: Self.query)
            let snapshot = try await browser.next("snapshot", timeout: 30)

            redis.suspend()
            defer { redis.resume() }
            let offline = try await browser.next("offline", timeout: 15)
            #expect(try offline.json()["type"]?.stringValue == "offline")
            var events = PublishEndToEndTests.base
            events[0].summary = "During the outage"
            try await daemon.importCalendar(icsCalendar(events))
            let diff = try await socket.next("diff")
            try await pause(6)
            redis.resume()
            let answering = monotonicNow()

            // The browser reconnects (EventSource does it by itself after `retry`).
            var state: String?
            let caughtUp = try await eventually(timeout: 30, every: 0.5) {
                guard let again = try? await web.stream(query: Self.query, lastEventID: snapshot.id) else { return false }
                // The missed diff, or (the publisher wrote the state again after the
                // outage) a snapshot of the same state.
                let event: ServerSentEventRecord
                if let missed = try? await again.next("diff", timeout: 3) {
                    event = missed
                } else if let fresh = again.events.last(where: { $0.event == "snapshot" }) {
                    event = fresh
                } else {
                    return false
                }
                state = try event.json()["digest"]?.stringValue
                return state != nil
            }
            #expect(caughtUp)
            #expect(state == diff["digest"]?.stringValue)
            let took = monotonicNow() - answering
            print("a browser caught up \(took) s after Redis answered again")
            #expect(took < 30)
            #expect(web.log.components(separatedBy: "browsers are told the upstream is unavailable").count - 1 == 1)
            socket.close()
        }
    }

    /// eventd restarted: a new epoch in the stream, which browsers get as `resync`
    /// (reason `epoch`) and a snapshot, as a socket subscriber resuming would.
    @Test func aRestartedEventdIsAResyncForBrowsers() async throws {
        let redis = try await RedisServerProcess()
        try await DaemonHarness.with(running: PublishEndToEndTests.base, arguments: ["--publish", redis.url()]) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon, arguments: ["--upstream", redis.url()])
            let browser = try await web.stream(query: Self.query)
            let before = try await browser.next("snapshot", timeout: 30)
            _ = await daemon.stop()
            try await daemon.start()
            let resync = try await browser.next("resync", timeout: 30)
            #expect(try resync.json()["reason"]?.stringValue == "epoch")
            let after = try await browser.next("snapshot", timeout: 10)
            let (socket, state) = try await daemon.subscribe(protocolVersion: 2)
            #expect(try after.json()["epoch"]?.stringValue == state.epoch)
            #expect(try after.json()["epoch"]?.stringValue != before.json()["epoch"]?.stringValue)
            #expect(try after.json()["digest"]?.stringValue == state.digest)
            socket.close()
        }
    }

    /// Many browsers arriving at once cost the gateway's view reader a few snapshot reads
    /// in all, not one each: joins wait for the reader's next turn and share one read.
    @Test func manyBrowsersAtOnceShareTheReads() async throws {
        let redis = try await RedisServerProcess()
        try await DaemonHarness.with(running: PublishEndToEndTests.base, arguments: ["--publish", redis.url()]) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon, arguments: ["--upstream", redis.url()])
            let first = try await web.stream(query: Self.query)
            _ = try await first.next("snapshot", timeout: 30)
            _ = try await redis.cli(["CONFIG", "RESETSTAT"])
            var browsers: [EventStreamClient] = []
            for _ in 0..<60 { browsers.append(try await web.stream(query: Self.query)) }
            for browser in browsers { _ = try await browser.next("snapshot", timeout: 30) }
            let stats = try await redis.cli(["INFO", "commandstats"])
            let gets = Self.field("cmdstat_get", "calls", in: stats)
            print("60 browsers joining at once: \(gets) snapshot read(s) by the gateway")
            #expect(gets >= 1)
            #expect(gets <= 20, "\(stats)")
        }
    }

    /// A retry wave (every browser of a view reconnecting at once with its
    /// `Last-Event-ID`, as after a load balancer's restart) is served from the gateway's
    /// tail of the stream: no new Redis connection, no snapshot read, no range read.
    @Test func aRetryWaveIsServedFromTheGatewaysTail() async throws {
        let redis = try await RedisServerProcess()
        try await DaemonHarness.with(running: PublishEndToEndTests.base, arguments: ["--publish", redis.url()]) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon, arguments: ["--upstream", redis.url()])
            // One browser stays, so the gateway keeps reading the view.
            let stays = try await web.stream(query: Self.query)
            _ = try await stays.next("snapshot", timeout: 30)
            var ids: [String] = []
            for _ in 0..<60 {
                let browser = try await web.stream(query: Self.query)
                ids.append(try #require(try await browser.next("snapshot", timeout: 30).id))
                browser.connection.close()
            }
            _ = try await redis.cli(["CONFIG", "RESETSTAT"])
            var wave: [EventStreamClient] = []
            for id in ids { wave.append(try await web.stream(query: Self.query, lastEventID: id)) }
            var events = PublishEndToEndTests.base
            events[0].summary = "After the wave"
            try await daemon.importCalendar(icsCalendar(events))
            let diff = try await stays.next("diff", timeout: 30)
            for browser in wave {
                #expect(try await browser.next("diff", timeout: 30).data == diff.data)
                #expect(!browser.events.contains { $0.event == "snapshot" })
            }
            let commands = try await redis.cli(["INFO", "commandstats"])
            let connections = Self.field("total_connections_received", nil, in: try await redis.cli(["INFO", "stats"]))
            print("60 browsers resuming at once: \(connections) Redis connection(s), "
                  + "\(Self.field("cmdstat_get", "calls", in: commands)) GET, \(Self.field("cmdstat_xrange", "calls", in: commands)) XRANGE")
            #expect(connections == 2, "only redis-cli's two INFO connections")
            #expect(Self.field("cmdstat_get", "calls", in: commands) == 0, "\(commands)")
            #expect(Self.field("cmdstat_xrange", "calls", in: commands) == 0, "\(commands)")
            #expect(Self.field("cmdstat_xrevrange", "calls", in: commands) == 0, "\(commands)")
        }
    }

    /// A number from `INFO`: `name:value` or, with `part`, `name:part=value,…`.
    static func field(_ name: String, _ part: String?, in info: String) -> Int {
        // (INFO's lines end in CRLF, one Character in Swift: split on any newline.)
        guard let line = info.split(whereSeparator: \.isNewline).first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
        let value = line.dropFirst(name.count + 1)
        guard let part else { return Int(value) ?? 0 }
        return value.split(separator: ",").first { $0.hasPrefix(part + "=") }.flatMap { Int($0.dropFirst(part.count + 1)) } ?? 0
    }
}
