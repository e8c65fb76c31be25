@testable import Feed
import FeedProtocol
import RedisFeed
import Testing
import TestSupport

/// The one resume rule, as its two holders use it: eventd's hub (a view's `ViewHistory`,
/// resolved with `ResumeLog.resolve`) and a gateway's Redis fan-out (`ViewFanout`). The
/// same seeded sequences of diffs and restarts go to both under the same retention; at
/// every step every position near the head must get the same answer from both, and a
/// replay must lead to the state a fresh snapshot holds.
@Suite struct ResumeAgreementTests {
    /// The hub's side: its history of one view, and the view's head.
    struct Hub {
        var history = ViewHistory()
        var head: FeedPosition
        let policy: RetentionPolicy

        func answer(_ resume: FeedPosition) -> [Int64]? {
            switch ResumeLog.resolve(resume: resume, head: head, log: history.log) {
            case .upToDate: return []
            case .replay(let diffs): return diffs.map(\.seq)
            case .snapshot: return nil
            }
        }
    }

    /// The seq a diff line (`diff EPOCH.SEQ PAYLOAD…`) leads to, and its payload.
    static func parse(_ line: [UInt8]) -> (seq: Int64, payload: UInt64)? {
        let words = String(decoding: line, as: UTF8.self).split(separator: " ")
        guard words.count >= 3, words[0] == "diff", let seq = words[1].split(separator: ".").last.flatMap({ Int64($0) }),
              let payload = UInt64(words[2]) else { return nil }
        return (seq, payload)
    }

    @Test(arguments: 0..<40)
    func theHubAndTheFanoutResumeAlike(seed: UInt64) {
        var random = SplitMix64(seed: 0x5EED_0000 + seed)
        let policy = RetentionPolicy(maxEntries: Int(random.next() % 12) + 1, maxBytes: Int(random.next() % 400) + 20)
        var epoch = "e0"
        var hub = Hub(head: FeedPosition(epoch: epoch, seq: 1), policy: policy)
        var fanout = ViewFanout(tailLimit: policy.maxEntries, tailBytes: policy.maxBytes)
        var streamID: UInt64 = 1
        func id() -> StreamID { streamID += 1; return StreamID(milliseconds: 1000 + streamID, sequence: 0) }
        _ = fanout.received([StreamEntry(id: id(), epoch: epoch, seq: 1, type: .snapshot, line: Array("snapshot e0.1".utf8))])
        // The state at each seq of this epoch: what a fresh snapshot there holds.
        var states: [Int64: UInt64] = [1: 0]
        var client = 0
        for step in 0..<Int(random.next() % 150 + 20) {
            if random.next() % 40 == 0 {
                // eventd restarted: a new epoch, its view new, the first snapshot in the stream.
                epoch = "e\(step + 1)"
                hub = Hub(head: FeedPosition(epoch: epoch, seq: 1), policy: policy)
                states = [1: 0]
                _ = fanout.received([StreamEntry(id: id(), epoch: epoch, seq: 1, type: .snapshot,
                                                 line: Array("snapshot \(epoch).1".utf8))])
            } else if random.next() % 6 == 0 {
                _ = fanout.received([StreamEntry(id: id(), epoch: epoch, seq: hub.head.seq, type: .heartbeat,
                                                 line: Array("heartbeat \(epoch).\(hub.head.seq)".utf8))])
            } else {
                let seq = hub.head.seq + 1
                let payload = random.next() % 1_000_000 + 1
                let padding = String(repeating: "x", count: Int(random.next() % 60))
                let line = Array("diff \(epoch).\(seq) \(payload) \(padding)".utf8)
                _ = hub.history.append(seq: seq, bytes: line, stamp: UInt64(step), maxCount: policy.maxEntries, maxBytes: policy.maxBytes)
                hub.head.seq = seq
                states[seq] = states[seq - 1]! &+ payload &* UInt64(seq)
                _ = fanout.received([StreamEntry(id: id(), epoch: epoch, seq: seq, type: .diff, line: line)])
            }
            for seq in max(0, hub.head.seq - Int64(policy.maxEntries) - 2)...(hub.head.seq + 1) {
                for asked in [epoch, "other"] {
                    let position = FeedPosition(epoch: asked, seq: seq)
                    let expected = hub.answer(position)
                    client += 1
                    let lines = fanout.resume(client, after: position)
                    fanout.leave(client)
                    let replayed = lines.map { $0.dropFirst().compactMap(Self.parse) }
                    #expect(replayed?.map(\.seq) == expected, "seed \(seed) step \(step): resume from \(asked).\(seq)")
                    // A replay leads to what a fresh snapshot of the head holds.
                    if let replayed, let start = states[seq] {
                        let end = replayed.reduce(start) { $0 &+ $1.payload &* UInt64($1.seq) }
                        #expect(end == states[hub.head.seq], "seed \(seed) step \(step): replay from \(seq)")
                    }
                }
            }
        }
    }
}
