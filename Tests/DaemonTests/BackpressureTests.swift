import Foundation
import CanonicalJSON
import Testing
import TestSupport

/// Slow subscribers: bounded buffers, resync on overflow, disconnect on stall, and
/// no effect on a subscriber that keeps up.
@Suite(.timeLimit(.minutes(1)))
struct BackpressureTests {
    /// How big the messages are. The kernel takes a Unix stream write in pieces of
    /// about 32 KiB, so ~70 KB diffs are often half written when the socket fills up,
    /// while ~28 KB diffs go whole or not at all (then nothing queued has "started").
    struct Shape: CustomTestStringConvertible, Sendable {
        var events: Int
        var summaryLength: Int
        var testDescription: String { "\(events) events × \(summaryLength)-byte summaries" }
    }

    static let shapes = [Shape(events: 100, summaryLength: 288), Shape(events: 40, summaryLength: 320)]

    /// `shape.events` events over the week, each with a long summary that changes
    /// every round: every round's diff updates all of them.
    static func bigCalendar(round: Int, shape: Shape) -> String {
        let filler = String(repeating: "lorem ipsum dolor ", count: shape.summaryLength / 18)
        var events: [TestEvent] = []
        for i in 0..<shape.events {
            let day = 29 + i % 7
            let date = day <= 30 ? "202611\(day)" : "2026120\(day - 30)"
            let minutes = 8 * 60 + (i / 7) * 30
            let hh = String(format: "%02d", minutes / 60), mm = String(format: "%02d", minutes % 60)
            let endHH = String(format: "%02d", minutes / 60 + 1)
            events.append(TestEvent("big\(i)@x", "\(date)T\(hh)\(mm)00Z", "\(date)T\(endHH)\(mm)00Z",
                                    "Round \(round) item \(i) \(filler)"))
        }
        return icsCalendar(events)
    }

    @Test(arguments: shapes)
    func slowSubscribersAreResyncedOrDisconnectedWithoutDelayingOthers(shape: Shape) async throws {
        try await DaemonHarness.with(arguments: ["--client-buffer", "65536", "--stall-timeout", "3", "--heartbeat", "60"]) { daemon in
            try await daemon.importCalendar(Self.bigCalendar(round: 0, shape: shape))
            try await daemon.start()
            let subscribe: JSONValue = ["op": "subscribe", "view": DaemonHarness.weekView]

            let (reader, readerFirst) = try await daemon.subscribe()
            var readerState = readerFirst
            // Two subscribers that ask and then read nothing: one never will, one will
            // start again before the stall timeout.
            let stalled = try FeedClient(connecting: daemon.socketPath)
            try await stalled.send(subscribe)
            let paused = try FeedClient(connecting: daemon.socketPath)
            try await paused.send(subscribe)
            try await pause(0.3)
            let rssBefore = try #require(daemon.residentKiB())

            var worstLatency = 0.0
            var rounds = 0
            while rounds < 24 {
                rounds += 1
                try await daemon.importCalendar(Self.bigCalendar(round: rounds, shape: shape))
                let imported = monotonicNow()
                let diff = try await reader.next("diff", timeout: 5)
                worstLatency = max(worstLatency, monotonicNow() - imported)
                try readerState.apply(diff)
                if rounds >= 4, daemon.logLineCount(containing: "fell behind") >= 2 { break }
            }
            #expect(daemon.logLineCount(containing: "fell behind") >= 2,
                    "both silent subscribers should overflow a 64 KiB buffer within \(rounds) rounds")
            #expect(worstLatency < 1.5, "the reading subscriber waited \(worstLatency) s for a diff")
            #expect(readerState.item(uid: "big0@x")?.item["summary"]?.stringValue?.hasPrefix("Round \(rounds) ") == true)

            // The paused subscriber reads again: what the kernel held, then resync
            // (overflow) and a fresh snapshot, promptly and without any further change.
            let readAgain = monotonicNow()
            #expect(try await paused.next(timeout: 2, skipHeartbeats: false)["type"] == "hello")
            var pausedState = try FeedState(snapshot: try await paused.next("snapshot", timeout: 2))
            var resyncReason: String?
            while resyncReason == nil {
                guard let message = try await paused.messageWithin(3) else { break }
                switch message["type"]?.stringValue {
                case "diff": try pausedState.apply(message)
                case "resync": resyncReason = message["reason"]?.stringValue
                default: Issue.record("unexpected message before the resync: \(FeedClient.brief(message))")
                }
            }
            #expect(resyncReason == "overflow",
                    "a subscriber that fell behind and reads again must get resync overflow (waited \(monotonicNow() - readAgain) s)")
            if resyncReason != nil {
                pausedState = try FeedState(snapshot: try await paused.next("snapshot", timeout: 3))
                #expect(pausedState.seq == readerState.seq)
                #expect(pausedState.digest == readerState.digest)
                #expect(monotonicNow() - readAgain < 2.5, "the resync took \(monotonicNow() - readAgain) s")

                // From then on it gets live diffs again, like the reader.
                try await daemon.importCalendar(Self.bigCalendar(round: rounds + 1, shape: shape))
                try readerState.apply(try await reader.next("diff", timeout: 3))
                try pausedState.apply(try await paused.next("diff", timeout: 3))
                #expect(pausedState.digest == readerState.digest)
            }

            // The subscriber that never reads is disconnected after --stall-timeout.
            #expect(try await daemon.waitForLog("stalled", timeout: 8),
                    "a subscriber that reads nothing for 3 s must be disconnected; log:\n\(daemon.log)")
            let ending = await stalled.readUntilClosed(timeout: 5)
            #expect(ending.isClosed, "the stalled subscriber's socket should reach EOF, got \(ending)")

            // The reader was never disturbed, and memory stayed bounded.
            #expect(try await reader.request(["op": "ping"])["type"] == "pong")
            let rssAfter = try #require(daemon.residentKiB())
            #expect(rssAfter - rssBefore < 64 * 1024, "RSS grew from \(rssBefore) KiB to \(rssAfter) KiB")
            #expect(rssAfter < 256 * 1024, "RSS \(rssAfter) KiB")
        }
    }
}
