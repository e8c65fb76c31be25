import Foundation
import CanonicalJSON
import Testing
import TestSupport

/// The clock changes snapshots too: at local midnight of a view's zone a sliding
/// window loses its first date, gains a new last one, and its labels move.
@Suite(.timeLimit(.minutes(1)))
struct MidnightTests {
    @Test func slidingWindowsRollOverAtLocalMidnight() async throws {
        // 22:59:52Z is 23:59:52 in Berlin (UTC+1 in November): midnight in 8 s.
        try await DaemonHarness.with(arguments: ["--interval", "1"],
                                     environment: ["EVENTD_FAKE_NOW": "2026-11-29T22:59:52Z"]) { daemon in
            var events: [TestEvent] = []
            for (n, day) in ["29", "30"].enumerated() {
                events.append(TestEvent("nov\(day)@x", "202611\(day)T090000Z", "202611\(day)T100000Z", "November \(day), \(n)"))
            }
            for day in 1...3 {
                events.append(TestEvent("dec\(day)@x", "2026120\(day)T090000Z", "2026120\(day)T100000Z", "December \(day)"))
            }
            try await daemon.importCalendar(icsCalendar(events))
            try await daemon.start()

            let sliding: JSONValue = ["tz": "Europe/Berlin", "days": 3]
            let withPast: JSONValue = ["tz": "Europe/Berlin", "past_days": 1, "days": 3, "empty_days": "placeholder"]
            let utc: JSONValue = ["tz": "UTC", "days": 3]
            let (slidingClient, slidingFirst) = try await daemon.subscribe(sliding)
            let (pastClient, pastFirst) = try await daemon.subscribe(withPast)
            let (utcClient, utcFirst) = try await daemon.subscribe(utc)
            var slidingState = slidingFirst, pastState = pastFirst, utcState = utcFirst

            func labels(_ s: FeedState) -> [String] {
                s.sections.map { "\($0["id"]?.stringValue ?? "?")=\($0["label"]?.stringValue ?? "null")" }
            }
            try #require(labels(slidingState) == ["2026-11-29=today", "2026-11-30=tomorrow", "2026-12-01=null"],
                         "the test must subscribe before Berlin midnight")
            #expect(labels(pastState) == ["2026-11-28=yesterday", "2026-11-29=today", "2026-11-30=tomorrow"])
            #expect(pastState.section("2026-11-28")?["items"]?[0]?["kind"] == "placeholder")

            // Midnight in Berlin.
            let diff = try await slidingClient.next("diff", timeout: 15)
            try slidingState.apply(diff)
            let changes = try #require(diff["changes"])
            #expect(changes["sections"]?["deleted"] == ["2026-11-29"], "the first date leaves the window")
            let inserted = (changes["sections"]?["inserted"]?.arrayValue ?? []).compactMap { $0["section"]?["id"]?.stringValue }
            #expect(inserted == ["2026-12-02"], "a new last date enters")
            let relabelled = (changes["sections"]?["updated"]?.arrayValue ?? []).compactMap { $0["section"]?["id"]?.stringValue }
            #expect(Set(relabelled) == ["2026-11-30", "2026-12-01"], "labels are section updates")
            #expect(labels(slidingState) == ["2026-11-30=today", "2026-12-01=tomorrow", "2026-12-02=null"])
            #expect(slidingState.digest == (try await daemon.oneShotSnapshot(sliding)).digest)

            try pastState.apply(try await pastClient.next("diff", timeout: 5))
            #expect(labels(pastState) == ["2026-11-29=yesterday", "2026-11-30=today", "2026-12-01=tomorrow"])
            #expect(pastState.digest == (try await daemon.oneShotSnapshot(withPast)).digest)

            // UTC's midnight is an hour later: no diff for that view now.
            let utcMessage = try await utcClient.messageWithin(0.5)
            #expect(utcMessage.map(FeedClient.brief) == nil, "a UTC view must not roll over at Berlin midnight: \(utcMessage.map(FeedClient.brief) ?? "")")
            #expect(utcState.digest == (try await daemon.oneShotSnapshot(utc)).digest)
            _ = utcState.seq
            utcState = try await daemon.oneShotSnapshot(utc)
            #expect(labels(utcState) == ["2026-11-29=today", "2026-11-30=tomorrow", "2026-12-01=null"])
        }
    }
}
