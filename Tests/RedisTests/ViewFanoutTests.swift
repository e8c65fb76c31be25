import FeedProtocol
import RedisFeed
import Testing

/// A gateway's fan-out of one view's stream, without Redis.
@Suite struct ViewFanoutTests {
    static func id(_ n: UInt64) -> StreamID { StreamID(milliseconds: 1000 + n, sequence: 0) }

    static func entry(_ n: UInt64, _ type: String, seq: Int64, epoch: String = "e1") -> StreamEntry {
        StreamEntry(id: id(n), epoch: epoch, seq: seq, type: FeedMessage.Kind(rawValue: type)!, line: Array("\(type) \(epoch).\(seq)".utf8))
    }

    static func text(_ lines: [[UInt8]]?) -> [String]? { lines?.map { String(decoding: $0, as: UTF8.self) } }


    @Test func streamIDsOrderAsRedisDoes() {
        #expect(StreamID("1700000000000-5")! < StreamID("1700000000000-12")!)
        #expect(StreamID("999-0")! < StreamID("1000-0")!)
        #expect(StreamID("x-1") == nil)
        #expect(StreamID("12-3")?.description == "12-3")
    }

    @Test func aNewClientStartsFromTheSnapshotThenGetsEveryEntry() {
        var fanout = ViewFanout()
        fanout.start(entries: [Self.entry(1, "snapshot", seq: 1), Self.entry(2, "diff", seq: 2)], at: Self.id(2))
        let snapshot = ViewFanout.Snapshot(line: Array("snapshot e1.2".utf8), epoch: "e1", seq: 2, at: Self.id(2))
        let first = Self.text(fanout.join(7, snapshot: snapshot, resume: nil))!
        #expect(first.count == 2)
        #expect(first[0].hasPrefix(#"{"type":"hello","epoch":"e1""#))
        #expect(first[1] == "snapshot e1.2")
        let (lines, lost) = fanout.received([Self.entry(3, "diff", seq: 3), Self.entry(4, "heartbeat", seq: 3)])
        #expect(Self.text(lines[7]) == ["diff e1.3", "heartbeat e1.3"])
        #expect(lost.isEmpty)
        #expect(fanout.position == Self.id(4))
        // Entries already read are not read again.
        #expect(fanout.received([Self.entry(3, "diff", seq: 3)]).lines.isEmpty)
    }

    @Test func aResumeInTheTailGetsOnlyWhatItMissed() {
        var fanout = ViewFanout()
        fanout.start(entries: (1...5).map { Self.entry($0, $0 == 1 ? "snapshot" : "diff", seq: Int64($0)) }, at: Self.id(5))
        let lines = Self.text(fanout.resume(1, after: Request.Resume(epoch: "e1", seq: 3)))!
        #expect(Array(lines.dropFirst()) == ["diff e1.4", "diff e1.5"])
        #expect(Self.text(fanout.resume(2, after: Request.Resume(epoch: "e1", seq: 5)))!.count == 1) // hello alone
        // Not in the tail (trimmed, or another epoch): a snapshot is needed.
        #expect(fanout.resume(3, after: Request.Resume(epoch: "e1", seq: 0)) == nil)
        #expect(fanout.resume(3, after: Request.Resume(epoch: "e0", seq: 4)) == nil)
        let snapshot = ViewFanout.Snapshot(line: Array("snapshot e1.5".utf8), epoch: "e1", seq: 5, at: Self.id(5))
        let fresh = Self.text(fanout.join(3, snapshot: snapshot, resume: Request.Resume(epoch: "e0", seq: 4)))!
        #expect(Array(fresh.dropFirst()) == [#"{"type":"resync","reason":"epoch"}"#, "snapshot e1.5"])
        let (next, _) = fanout.received([Self.entry(6, "diff", seq: 6)])
        #expect(Set(next.keys) == [1, 2, 3])
    }

    /// A snapshot read after the watcher's position: the entries up to it are in it and
    /// are not sent again when the watcher reads them.
    @Test func entriesAlreadyInASnapshotAreSkipped() {
        var fanout = ViewFanout()
        fanout.start(entries: [Self.entry(1, "snapshot", seq: 1)], at: Self.id(1))
        let snapshot = ViewFanout.Snapshot(line: Array("snapshot e1.3".utf8), epoch: "e1", seq: 3, at: Self.id(3))
        _ = fanout.join(1, snapshot: snapshot, resume: nil)
        let (lines, lost) = fanout.received([Self.entry(2, "diff", seq: 2), Self.entry(3, "diff", seq: 3), Self.entry(4, "diff", seq: 4)])
        #expect(Self.text(lines[1]) == ["diff e1.4"])
        #expect(lost.isEmpty)
    }

    @Test func aRepublishedSnapshotOfTheSameStateIsNotSentAndANewEpochIsAResync() {
        var fanout = ViewFanout()
        fanout.start(entries: [], at: .zero)
        let snapshot = ViewFanout.Snapshot(line: Array("snapshot e1.1".utf8), epoch: "e1", seq: 1, at: .zero)
        _ = fanout.join(1, snapshot: snapshot, resume: nil)
        #expect(fanout.received([Self.entry(1, "snapshot", seq: 1)]).lines.isEmpty)
        let restarted = fanout.received([Self.entry(2, "snapshot", seq: 1, epoch: "e2"), Self.entry(3, "diff", seq: 2, epoch: "e2")])
        #expect(Self.text(restarted.lines[1]) == [#"{"type":"resync","reason":"epoch"}"#, "snapshot e2.1", "diff e2.2"])
    }

    @Test func aGapNeedsAFreshSnapshot() {
        var fanout = ViewFanout()
        fanout.start(entries: [], at: .zero)
        _ = fanout.join(1, snapshot: ViewFanout.Snapshot(line: Array("snapshot e1.1".utf8), epoch: "e1", seq: 1, at: .zero), resume: nil)
        let (lines, lost) = fanout.received([Self.entry(1, "diff", seq: 3)])
        #expect(Self.text(lines[1]) == [#"{"type":"resync","reason":"expired"}"#])
        #expect(lost == [1])
        #expect(fanout.memberCount == 0)
        let again = Self.text(fanout.join(1, snapshot: ViewFanout.Snapshot(line: Array("snapshot e1.3".utf8), epoch: "e1", seq: 3, at: Self.id(1)),
                                          resume: nil, hello: false))
        #expect(again == ["snapshot e1.3"])
    }

    @Test func theTailIsBounded() {
        var fanout = ViewFanout(tailLimit: 4)
        fanout.start(entries: (1...10).map { Self.entry($0, "diff", seq: Int64($0)) }, at: Self.id(10))
        // The diffs 7...10 are kept: they lead from 6 (eventd's hub has the same rule).
        #expect(fanout.resume(1, after: Request.Resume(epoch: "e1", seq: 5)) == nil)
        #expect(Self.text(fanout.resume(1, after: Request.Resume(epoch: "e1", seq: 6)).map { Array($0.dropFirst()) })
            == ["diff e1.7", "diff e1.8", "diff e1.9", "diff e1.10"])
        _ = fanout.received((11...20).map { Self.entry($0, "diff", seq: Int64($0)) })
        #expect(fanout.resume(2, after: Request.Resume(epoch: "e1", seq: 15)) == nil)
        #expect(fanout.resume(2, after: Request.Resume(epoch: "e1", seq: 16)) != nil)
    }
}

extension ViewFanoutTests {
    @Test func theTailIsBoundedInBytesToo() {
        var fanout = ViewFanout(tailLimit: 100, tailBytes: 40)
        // Each line is "diff e1.N": 9 or 10 bytes; 40 bytes hold the last four.
        fanout.start(entries: (1...20).map { Self.entry($0, "diff", seq: Int64($0)) }, at: Self.id(20))
        #expect(fanout.resume(1, after: Request.Resume(epoch: "e1", seq: 15)) == nil)
        #expect(fanout.resume(1, after: Request.Resume(epoch: "e1", seq: 16)) != nil)
        // One entry larger than the bound is still kept: the newest always is.
        let huge = StreamEntry(id: Self.id(21), epoch: "e1", seq: 21, type: .snapshot, line: [UInt8](repeating: 32, count: 100))
        _ = fanout.received([huge])
        #expect(fanout.resume(2, after: Request.Resume(epoch: "e1", seq: 21)) != nil)
        #expect(fanout.resume(3, after: Request.Resume(epoch: "e1", seq: 20)) == nil)
    }
}
