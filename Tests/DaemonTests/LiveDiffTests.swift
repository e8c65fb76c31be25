import Foundation
import CanonicalJSON
import Testing
import TestSupport

/// Subscriptions that follow imports: diffs arrive promptly, apply by the reference
/// steps, and land on the daemon's own state.
@Suite(.timeLimit(.minutes(1)))
struct LiveDiffTests {
    static let base: [TestEvent] = [
        TestEvent("h@x", "20261130", "20261201", "Holiday"),
        TestEvent("a@x", "20261130T100000Z", "20261130T110000Z", "Alpha"),
        TestEvent("b@x", "20261201T090000Z", "20261201T100000Z", "Beta"),
        TestEvent("c@x", "20261201T140000Z", "20261201T150000Z", "Gamma"),
        TestEvent("d@x", "20261202T100000Z", "20261202T110000Z", "Delta"),
        TestEvent("e@x", "20261203T100000Z", "20261203T110000Z", "Epsilon"),
    ]

    /// Rename a, move c to another day (DTSTART), add f (new day) and g (existing
    /// day), delete e (its day goes). Order: h a b c d f g.
    static let change1: [TestEvent] = {
        var events = base
        events[1].summary = "Alpha (renamed)"
        (events[3].start, events[3].end) = ("20261202T080000Z", "20261202T090000Z")
        events[5] = TestEvent("f@x", "20261204T100000Z", "20261204T110000Z", "Zeta")
        events.append(TestEvent("g@x", "20261130T150000Z", "20261130T160000Z", "Eta"))
        return events
    }()

    /// Reorder inside a day (d before c), delete b (its day goes), move f to another
    /// day with a new summary (moved and updated), add a two-day event (a new day).
    /// Order: h a c d f g m.
    static let change2: [TestEvent] = {
        var events = change1
        events.remove(at: 2)
        (events[3].start, events[3].end) = ("20261202T070000Z", "20261202T075000Z")
        (events[4].start, events[4].end, events[4].summary) = ("20261202T120000Z", "20261202T130000Z", "Zeta (moved)")
        events.append(TestEvent("m@x", "20261204T200000Z", "20261205T020000Z", "Night train"))
        return events
    }()

    @Test func importsProduceDiffsThatApplyAndMatchFreshSnapshots() async throws {
        try await DaemonHarness.with(running: Self.base) { daemon in
            let (client, first) = try await daemon.subscribe()
            var state = first
            #expect(state.sectionIDs == ["2026-11-30", "2026-12-01", "2026-12-02", "2026-12-03"])
            #expect(state.section("2026-11-30")?["label"] == "tomorrow")
            let cID = try #require(state.item(uid: "c@x")?.item["id"]?.stringValue)
            let fOldID: String?

            // Change 1.
            var started = monotonicNow()
            try await daemon.importCalendar(icsCalendar(Self.change1))
            let diff1 = try await client.next("diff", timeout: 3)
            #expect(monotonicNow() - started < 2.5, "diff 1 took \(monotonicNow() - started) s after the import")
            try state.apply(diff1)
            #expect(diff1["base_seq"]?.intValue == first.seq)
            #expect(diff1["seq"]?.intValue == first.seq + 1)
            let changes1 = try #require(diff1["changes"])
            let moved1 = changes1["items"]?["moved"]?.arrayValue ?? []
            #expect(moved1.contains {
                $0["id"]?.stringValue == cID && $0["from"]?["section"] == "2026-12-01" && $0["to"]?["section"] == "2026-12-02"
                    && $0["to"]?["index"] == 0
            }, "c@x should move 2026-12-01 → 2026-12-02[0]: \(FeedClient.brief(changes1))")
            let aID = try #require(state.item(uid: "a@x")?.item["id"]?.stringValue)
            let updated1 = (changes1["items"]?["updated"]?.arrayValue ?? []).compactMap { $0["item"]?["id"]?.stringValue }
            #expect(Set(updated1) == [aID, cID], "a@x renamed, c@x has new times")
            #expect(changes1["sections"]?["deleted"] == ["2026-12-03"])
            let insertedSections = (changes1["sections"]?["inserted"]?.arrayValue ?? []).compactMap { $0["section"]?["id"]?.stringValue }
            #expect(insertedSections == ["2026-12-04"])
            let insertedItems = (changes1["items"]?["inserted"]?.arrayValue ?? []).compactMap { $0["item"]?["uid"]?.stringValue }
            #expect(insertedItems == ["g@x"], "g@x is inserted into an existing day; f@x travels inside its new section")
            #expect(state.item(uid: "c@x")?.item["id"]?.stringValue == cID, "a moved event keeps its id")
            #expect(state.item(uid: "a@x")?.item["summary"] == "Alpha (renamed)")
            #expect(state.items(uid: "e@x").isEmpty)
            #expect(state.sectionIDs == ["2026-11-30", "2026-12-01", "2026-12-02", "2026-12-04"])
            fOldID = state.item(uid: "f@x")?.item["id"]?.stringValue
            var fresh = try await daemon.oneShotSnapshot()
            #expect(fresh.seq == state.seq)
            #expect(fresh.digest == state.digest)
            #expect(fresh.sections == state.sections)

            // Change 2.
            started = monotonicNow()
            try await daemon.importCalendar(icsCalendar(Self.change2))
            let diff2 = try await client.next("diff", timeout: 3)
            #expect(monotonicNow() - started < 2.5, "diff 2 took \(monotonicNow() - started) s after the import")
            try state.apply(diff2)
            #expect(diff2["base_seq"] == diff1["seq"])
            let changes2 = try #require(diff2["changes"])
            let moved2 = changes2["items"]?["moved"]?.arrayValue ?? []
            let fID = try #require(fOldID)
            #expect(moved2.contains {
                $0["id"]?.stringValue == fID && $0["from"]?["section"] == "2026-12-04" && $0["to"]?["section"] == "2026-12-02"
            }, "f@x should move 2026-12-04 → 2026-12-02: \(FeedClient.brief(changes2))")
            #expect((changes2["items"]?["updated"]?.arrayValue ?? []).contains { $0["item"]?["id"]?.stringValue == fID },
                    "a moved item whose content changed is also updated")
            #expect(moved2.contains { $0["from"]?["section"] == "2026-12-02" && $0["to"]?["section"] == "2026-12-02" },
                    "c/d swap inside 2026-12-02 is a move")
            #expect(changes2["sections"]?["deleted"] == ["2026-12-01"])
            #expect(state.sectionIDs == ["2026-11-30", "2026-12-02", "2026-12-04", "2026-12-05"])
            #expect(state.items(uid: "d@x").first?.index == 0)
            let night = state.items(uid: "m@x")
            #expect(night.count == 2)
            #expect(Set(night.compactMap { $0.item["id"]?.stringValue }).count == 2, "one id per date of a multi-day occurrence")
            #expect(night.first?.item["continues_to_next_day"] == true)
            #expect(night.last?.item["continues_from_previous_day"] == true)
            fresh = try await daemon.oneShotSnapshot()
            #expect(fresh.seq == state.seq)
            #expect(fresh.digest == state.digest)
            #expect(fresh.sections == state.sections)

            // Re-importing the same file changes nothing: no diff.
            try await daemon.importCalendar(icsCalendar(Self.change2))
            let extra = try await client.messageWithin(0.6)
            #expect(extra.map(FeedClient.brief) == nil, "no diff when nothing changed, got \(extra.map(FeedClient.brief) ?? "")")
        }
    }

    /// Requirement 3: a second subscribe on the same connection replaces the first.
    @Test func secondSubscribeReplacesTheFirst() async throws {
        try await DaemonHarness.with(running: Self.base) { daemon in
            let (watcher, watched) = try await daemon.subscribe()
            var watcherState = watched
            let (client, _) = try await daemon.subscribe()
            let threeDays: JSONValue = ["tz": "UTC", "days": 3]
            try await client.send(["op": "subscribe", "view": threeDays])
            var state = try FeedState(snapshot: try await client.next("snapshot"))
            #expect(state.view["days"] == 3)
            #expect(state.sectionIDs == ["2026-11-30", "2026-12-01"])
            let status = try await daemon.status()
            #expect(status["subscribers"] == 2)
            #expect(status["views"] == 2)

            // A change inside both windows: one diff each, for each one's own view.
            var events = Self.base
            events[1].summary = "Alpha, both views"
            try await daemon.importCalendar(icsCalendar(events))
            try watcherState.apply(try await watcher.next("diff", timeout: 3))
            try state.apply(try await client.next("diff", timeout: 3))
            #expect(state.item(uid: "a@x")?.item["summary"] == "Alpha, both views")

            // A change only in the first (7-day) view: the replaced subscription is gone.
            events[5].summary = "Epsilon, week view only"
            try await daemon.importCalendar(icsCalendar(events))
            try watcherState.apply(try await watcher.next("diff", timeout: 3))
            let stray = try await client.messageWithin(0.7)
            #expect(stray.map(FeedClient.brief) == nil, "the replaced subscription still delivers: \(stray.map(FeedClient.brief) ?? "")")
        }
    }

    /// Subscribers of both protocols to one window: each gets its protocol's messages
    /// (protocol 1's without a `protocol` key), their diffs apply to the same sections,
    /// and a one-shot snapshot still carries protocol 1's digest.
    @Test func bothProtocolsFollowTheSameWindow() async throws {
        try await DaemonHarness.with(running: Self.base) { daemon in
            let (one, first1) = try await daemon.subscribe()
            let (two, first2) = try await daemon.subscribe(protocolVersion: 2)
            #expect(first1.protocolVersion == 1 && first2.protocolVersion == 2)
            #expect(first1.sections == first2.sections)
            #expect(first1.digest != first2.digest)
            var (state1, state2) = (first1, first2)
            for change in [Self.change1, Self.change2] {
                try await daemon.importCalendar(icsCalendar(change))
                let diff1 = try await one.next("diff", timeout: 3), diff2 = try await two.next("diff", timeout: 3)
                #expect(diff1["protocol"] == nil && diff2["protocol"]?.intValue == 2)
                try state1.apply(diff1)
                try state2.apply(diff2)
                #expect(state1.sections == state2.sections)
            }
            let oneShot = try await daemon.oneShotSnapshot()
            #expect(oneShot.protocolVersion == 1 && oneShot.sections == state2.sections)
        }
    }
}
