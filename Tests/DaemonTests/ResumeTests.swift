import Foundation
import Testing
import TestSupport

/// `subscribe` with `resume`: retained diffs, expiry, another epoch, already current.
@Suite(.timeLimit(.minutes(1)))
struct ResumeTests {
    /// Three events that change, and twenty that do not: a view keeps no more diff bytes
    /// than its snapshot has, so the snapshot must outweigh the diffs a test resumes over.
    static func events(round: Int) -> [TestEvent] {
        [
            TestEvent("r1@x", "20261130T090000Z", "20261130T100000Z", "Planning, round \(round)"),
            TestEvent("r2@x", "2026120\(1 + round % 3)T110000Z", "2026120\(1 + round % 3)T120000Z", "Review"),
            TestEvent("r3@x", "20261203T150000Z", "20261203T160000Z", "Retro"),
        ] + (10..<30).map { TestEvent("f\($0)@x", "20261201T080000Z", "20261201T083000Z", "Stand-up \($0)") }
    }

    /// Subscribes, notes the snapshot, disconnects, and makes `changes` changes (each
    /// one published separately). Returns the state before the changes.
    static func subscribeThenChangeWhileAway(_ daemon: DaemonHarness, changes: Int) async throws -> FeedState {
        let (client, state) = try await daemon.subscribe()
        client.close()
        for round in 1...changes {
            try await daemon.importCalendar(icsCalendar(events(round: round)))
            _ = try await daemon.waitForSeq(state.seq + Int64(round))
        }
        return state
    }

    static func resume(_ daemon: DaemonHarness, epoch: String, seq: Int64) async throws -> FeedClient {
        let client = try await daemon.connect()
        try await client.send(["op": "subscribe", "view": DaemonHarness.weekView, "resume": ["epoch": .string(epoch), "seq": .int(seq)]])
        return client
    }

    @Test func resumeWithinHistoryGetsTheRetainedDiffsThenLiveOnes() async throws {
        try await DaemonHarness.with(running: Self.events(round: 0)) { daemon in
            var state = try await Self.subscribeThenChangeWhileAway(daemon, changes: 2)
            let n = state.seq
            let client = try await Self.resume(daemon, epoch: state.epoch, seq: n)
            let first = try await client.next("diff")
            #expect(first["base_seq"]?.intValue == n)
            #expect(first["seq"]?.intValue == n + 1)
            try state.apply(first)
            let second = try await client.next("diff")
            #expect(second["seq"]?.intValue == n + 2)
            try state.apply(second)
            let quiet = try await client.messageWithin(0.4)
            #expect(quiet.map(FeedClient.brief) == nil, "after the retained diffs (no snapshot) nothing until a change: \(quiet.map(FeedClient.brief) ?? "")")
            #expect(try await daemon.oneShotSnapshot().digest == state.digest)

            try await daemon.importCalendar(icsCalendar(Self.events(round: 3)))
            let live = try await client.next("diff", timeout: 3)
            #expect(live["seq"]?.intValue == n + 3)
            try state.apply(live)
            #expect(state.item(uid: "r1@x")?.item["summary"] == "Planning, round 3")
        }
    }

    /// Past the history's count, or past its bytes (the daemon-wide bound here).
    @Test(arguments: [["--history", "1"], ["--history-bytes", "1"]])
    func resumeAfterExpiryGetsResyncExpiredAndASnapshot(bound: [String]) async throws {
        try await DaemonHarness.with(arguments: bound) { daemon in
            try await daemon.importCalendar(icsCalendar(Self.events(round: 0)))
            try await daemon.start()
            let old = try await Self.subscribeThenChangeWhileAway(daemon, changes: 3)
            let client = try await Self.resume(daemon, epoch: old.epoch, seq: old.seq)
            let (reason, snapshot) = try await client.nextResync()
            #expect(reason == "expired")
            #expect(snapshot.seq == old.seq + 3)
            #expect(snapshot.digest == (try await daemon.oneShotSnapshot()).digest)
            #expect(try await client.messageWithin(0.3).map(FeedClient.brief) == nil)
        }
    }

    @Test func resumeWithAnotherEpochGetsResyncEpochAndASnapshot() async throws {
        try await DaemonHarness.with(running: Self.events(round: 0)) { daemon in
            let (holder, state) = try await daemon.subscribe()
            defer { holder.close() }
            let client = try await Self.resume(daemon, epoch: "0123456789abcdef", seq: state.seq)
            let (reason, snapshot) = try await client.nextResync()
            #expect(reason == "epoch")
            #expect(snapshot.digest == state.digest)
            #expect(snapshot.epoch == state.epoch)
        }
    }

    /// The usual way to meet another epoch: the daemon restarted, so the view is new
    /// in this run. The answer must still say `epoch`.
    @Test func resumeAfterADaemonRestartSaysEpoch() async throws {
        try await DaemonHarness.with(running: Self.events(round: 0)) { daemon in
            let (before, old) = try await daemon.subscribe()
            before.close()
            #expect(await daemon.stop() == .exited(0))
            try await daemon.start()
            let client = try await Self.resume(daemon, epoch: old.epoch, seq: old.seq)
            #expect(client.hello["epoch"]?.stringValue != old.epoch, "a new run has a new epoch")
            let (reason, snapshot) = try await client.nextResync()
            #expect(reason == "epoch")
            #expect(snapshot.digest == old.digest)
        }
    }

    @Test func resumeAtTheCurrentSeqIsSilentUntilTheNextChange() async throws {
        try await DaemonHarness.with(running: Self.events(round: 0)) { daemon in
            let (holder, first) = try await daemon.subscribe()
            defer { holder.close() }
            var state = first
            let client = try await Self.resume(daemon, epoch: state.epoch, seq: state.seq)
            let quiet = try await client.messageWithin(0.5)
            #expect(quiet.map(FeedClient.brief) == nil, "resume at the current seq: nothing to send, got \(quiet.map(FeedClient.brief) ?? "")")
            try await daemon.importCalendar(icsCalendar(Self.events(round: 1)))
            let diff = try await client.next("diff", timeout: 3)
            try state.apply(diff)
            #expect(diff["base_seq"]?.intValue == first.seq)

            // A seq from the future (this epoch never published it): cannot be honoured.
            let future = try await Self.resume(daemon, epoch: state.epoch, seq: state.seq + 5)
            #expect(try await future.next("resync")["reason"] == "expired")
            #expect(try FeedState(snapshot: try await future.next("snapshot")).digest == state.digest)
        }
    }

    /// A view without subscribers is dropped after the grace period; when it comes back
    /// its sequence must not restart at a number an old client may still hold, or that
    /// client's resume is "honoured" with diffs for a state it never had.
    @Test func resumeAcrossADroppedAndRecreatedViewIsNotMistakenForCurrent() async throws {
        try await DaemonHarness.with(environment: ["EVENTD_VIEW_GRACE": "0.3"]) { daemon in
            try await daemon.importCalendar(icsCalendar(Self.events(round: 0)))
            try await daemon.start(["--log-level", "debug"])
            // Old incarnation: snapshot then two diffs, then the client goes away.
            let (oldClient, first) = try await daemon.subscribe()
            var old = first
            for round in 1...2 {
                try await daemon.importCalendar(icsCalendar(Self.events(round: round)))
                try old.apply(try await oldClient.next("diff", timeout: 3))
            }
            oldClient.close()
            #expect(try await daemon.waitForLog("view dropped", timeout: 5), "the idle view should be dropped after the grace period")

            // New incarnation, moved on by as many changes.
            let (newClient, recreated) = try await daemon.subscribe()
            defer { newClient.close() }
            var current = recreated
            for round in [4, 5] {
                try await daemon.importCalendar(icsCalendar(Self.events(round: round)))
                try current.apply(try await newClient.next("diff", timeout: 3))
            }
            #expect(current.digest != old.digest)

            // The old client resumes from its last state.
            let client = try await Self.resume(daemon, epoch: old.epoch, seq: old.seq)
            let answer = try await client.messageWithin(1)
            let answerType = answer?["type"]?.stringValue
            #expect(answerType == "resync" || answerType == "snapshot",
                    "old seq \(old.seq) (state \(old.digest.prefix(8))) vs current seq \(current.seq) (state \(current.digest.prefix(8))): got \(answer.map(FeedClient.brief) ?? "nothing")")
            if answerType == "resync" {
                let snapshot = try FeedState(snapshot: try await client.next("snapshot"))
                #expect(snapshot.digest == current.digest)
            }
        }
    }
}
