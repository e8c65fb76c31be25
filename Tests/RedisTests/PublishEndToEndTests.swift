import CanonicalJSON
import Foundation
import RedisClient
import RedisFeed
import Testing
import TestSupport

/// The real eventd publishing to a real redis-server: the stream holds exactly the
/// lines a socket subscriber reads, and Redis's faults never reach the socket.
@Suite(.timeLimit(.minutes(2)))
struct PublishEndToEndTests {
    static let base: [TestEvent] = [
        TestEvent("a@x", "20261130T100000Z", "20261130T110000Z", "Alpha"),
        TestEvent("b@x", "20261201T090000Z", "20261201T100000Z", "Beta"),
        TestEvent("c@x", "20261202T140000Z", "20261202T150000Z", "Gamma"),
    ]
    static let published = try! PublishedView(query: "tz=UTC&days=7")
    static let keys = FeedKeys()

    /// One stream entry's fields.
    struct Entry: Equatable {
        var epoch: String, seq: Int64, type: String, line: [UInt8]
    }

    static func entries(_ redis: RedisConnection) throws -> [Entry] {
        let reply = try redis.call(RedisCommand(["XRANGE", keys.stream(published), "-", "+"]))
        return (reply.elements ?? []).compactMap { entry in
            guard let parts = entry.elements, parts.count == 2, let fields = parts[1].elements else { return nil }
            var map: [String: [UInt8]] = [:]
            for i in stride(from: 0, to: fields.count - 1, by: 2) {
                if case .string(let name) = fields[i], case .string(let value) = fields[i + 1] { map[String(decoding: name, as: UTF8.self)] = value }
            }
            return Entry(epoch: String(decoding: map["epoch"] ?? [], as: UTF8.self),
                         seq: Int64(String(decoding: map["seq"] ?? [], as: UTF8.self)) ?? -1,
                         type: String(decoding: map["type"] ?? [], as: UTF8.self), line: map["line"] ?? [])
        }
    }

    static func snapshotKey(_ redis: RedisConnection) throws -> [UInt8]? {
        if case .string(let bytes) = try redis.call(RedisCommand(["GET", keys.snapshot(published)])) { return bytes }
        return nil
    }

    static func connect(_ server: RedisServerProcess) throws -> RedisConnection {
        try RedisConnection(url: try RedisURL(parsing: server.url()), password: nil)
    }

    /// A socket subscriber's own snapshot line of the view now.
    static func socketSnapshotLine(_ daemon: DaemonHarness) async throws -> [UInt8] {
        let client = try await daemon.connect()
        defer { client.close() }
        try await client.send(["op": "subscribe", "view": DaemonHarness.weekView, "protocol": 2])
        _ = try await client.next("snapshot")
        return client.lastLine
    }

    @Test func theStreamHoldsTheSocketsLines() async throws {
        let redis = try await RedisServerProcess()
        try await DaemonHarness.with(running: Self.base, arguments: ["--publish", redis.url(), "--publish-view", "tz=UTC&days=7"]) { daemon in
            let (client, first) = try await daemon.subscribe(protocolVersion: 2)
            var socketLines: [Int64: [UInt8]] = [first.seq: client.lastLine]
            // Until the publisher has connected, only the latest state would be written
            // (as a snapshot): the changes start once the first one is in Redis.
            let store = try Self.connect(redis)
            #expect(try await eventually(timeout: 10) { try Self.snapshotKey(store) != nil })
            var events = Self.base
            for round in 1...3 {
                events[round - 1].summary += " v\(round)"
                events.append(TestEvent("n\(round)@x", "2026120\(round)T120000Z", "2026120\(round)T130000Z", "New \(round)"))
                try await daemon.importCalendar(icsCalendar(events))
                let diff = try await client.next("diff")
                socketLines[diff["seq"]!.intValue!] = client.lastLine
            }
            let last = socketLines.keys.max()!
            let reached = try await eventually(timeout: 10) { try Self.entries(store).contains { $0.seq == last } }
            #expect(reached, "the stream did not reach seq \(last)")
            let entries = try Self.entries(store).filter { $0.type != "heartbeat" }
            // The first entry is the view's first snapshot; every later one is the diff
            // the socket subscriber read, byte for byte.
            #expect(entries.first?.type == "snapshot")
            for entry in entries where entry.type == "diff" {
                #expect(socketLines[entry.seq] == entry.line, "seq \(entry.seq) differs")
            }
            #expect(entries.filter { $0.type == "diff" }.map(\.seq) == Array(first.seq + 1...last),
                    "\(entries.map { "\($0.type) \($0.seq)" }); eventd's log:\n\(daemon.log)")
            // The snapshot key is the state after the last diff, as the daemon writes it.
            #expect(try Self.snapshotKey(store) == (try await Self.socketSnapshotLine(daemon)))
            client.close()
        }
    }

    @Test func redisFaultsNeverReachTheSocket() async throws {
        let redis = try await RedisServerProcess()
        try await DaemonHarness.with(running: Self.base, arguments: ["--publish", redis.url(), "--publish-view", "tz=UTC&days=7"]) { daemon in
            let (client, _) = try await daemon.subscribe(protocolVersion: 2)
            var store = try Self.connect(redis)
            #expect(try await eventually(timeout: 10) { try Self.snapshotKey(store) != nil })

            // Stopped for 10 s: the socket is served all along (a change arrives as a
            // diff), and the outage is logged once.
            redis.suspend()
            var events = Self.base
            events[0].summary = "During the stop"
            try await daemon.importCalendar(icsCalendar(events))
            let diff = try await client.next("diff", timeout: 5)
            try await pause(10)
            #expect(try await daemon.status()["type"]?.stringValue == "status")
            redis.resume()
            #expect(try await daemon.waitForLog("Redis is reachable again", timeout: 35))
            #expect(daemon.logLineCount(containing: "the feed socket is served as before") == 1)
            store = try Self.connect(redis)
            let seq = diff["seq"]!.intValue!
            #expect(try await eventually(timeout: 5) { try Self.entries(store).last.map { $0.type == "snapshot" && $0.seq == seq } ?? false })
            #expect(try Self.snapshotKey(store) == (try await Self.socketSnapshotLine(daemon)))

            // Killed and restarted empty: the snapshot is written again.
            try await redis.restart(keepData: false)
            #expect(try await eventually(timeout: 35) {
                guard let again = try? Self.connect(redis) else { return false }
                return try Self.snapshotKey(again) != nil
            })
            store = try Self.connect(redis)
            #expect(try Self.snapshotKey(store) == (try await Self.socketSnapshotLine(daemon)))
            #expect(daemon.logLineCount(containing: "the feed socket is served as before") == 2)
            client.close()
        }
    }

    /// Redis answering with errors (out of memory with `noeviction`): one warning, the
    /// socket unaffected, and the view's state written once Redis accepts writes again.
    @Test func refusedWritesAreLoggedOnceAndRepaired() async throws {
        let redis = try await RedisServerProcess()
        try await DaemonHarness.with(running: Self.base, arguments: ["--publish", redis.url(), "--publish-view", "tz=UTC&days=7"]) { daemon in
            let (client, _) = try await daemon.subscribe(protocolVersion: 2)
            let store = try Self.connect(redis)
            #expect(try await eventually(timeout: 10) { try Self.snapshotKey(store) != nil })
            try store.call(RedisCommand(["CONFIG", "SET", "maxmemory-policy", "noeviction"]))
            try store.call(RedisCommand(["CONFIG", "SET", "maxmemory", "1"]))
            var events = Self.base
            for round in 1...2 {
                events[0].summary = "Refused \(round)"
                try await daemon.importCalendar(icsCalendar(events))
                _ = try await client.next("diff")
            }
            #expect(try await daemon.waitForLog("Redis refused the feed's writes", timeout: 10))
            #expect(daemon.logLineCount(containing: "Redis refused the feed's writes") == 1)
            #expect(daemon.log.contains("OOM"))
            try store.call(RedisCommand(["CONFIG", "SET", "maxmemory", "0"]))
            #expect(try await daemon.waitForLog("Redis accepts the feed's writes again", timeout: 15))
            let expected = try await Self.socketSnapshotLine(daemon)
            #expect(try await eventually(timeout: 10) { try Self.snapshotKey(store) == expected })
            client.close()
        }
    }

    /// A publishing eventd stops as any other: its relay's subscriber, blocked reading
    /// its own socket, and its status relay end at once, and it exits 0 within 2 s.
    @Test func sigtermStopsTheRelayAndExitsZeroWithinTwoSeconds() async throws {
        let redis = try await RedisServerProcess()
        try await DaemonHarness.with(running: Self.base, arguments: ["--publish", redis.url(), "--publish-view", "tz=UTC&days=7"]) { daemon in
            let store = try Self.connect(redis)
            #expect(try await eventually(timeout: 10) { try Self.snapshotKey(store) != nil })
            let signalled = monotonicNow()
            daemon.signal(SIGTERM)
            let exit = try await daemon.waitForExit(timeout: 2)
            #expect(exit == .exited(0), "\(exit.map { "\($0)" } ?? "still running"): \(daemon.log)")
            #expect(monotonicNow() - signalled < 2, "stopping took \(monotonicNow() - signalled) s")
            #expect(!daemon.log.contains("did not stop"), "log:\n\(daemon.log)")
        }
    }
}
