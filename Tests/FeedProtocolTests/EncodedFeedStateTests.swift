import Testing
import CanonicalJSON
import FeedProtocol
import TestSupport

/// The incremental encoding of a view equals the full one after any sequence of diffs:
/// sections added, dropped, reordered and renamed, items added, dropped, moved within
/// and across sections and changed.
@Suite struct EncodedFeedStateTests {
    /// A random next state of `sections`: each section and item kept, changed or dropped,
    /// new ones added, the order of sections and items shuffled a little.
    static func edit(_ sections: [JSONValue], _ random: inout SeededRandom, next: inout Int) -> [JSONValue] {
        var kept: [(id: String, label: String, items: [JSONValue])] = sections.compactMap { s in
            if random.percent(10) { return nil }
            let id = s["id"]!.stringValue!
            let label = random.percent(10) ? "day \(id) \(random.below(100))" : s["label"]!.stringValue!
            return (id, label, s["items"]!.arrayValue!)
        }
        if kept.isEmpty || random.percent(30) {
            next += 1
            kept.insert(("s\(next)", "day s\(next)", []), at: random.below(kept.count + 1))
        }
        // Every item is dealt again: dropped, kept in place, changed, or sent elsewhere.
        var moving: [JSONValue] = []
        for k in kept.indices {
            kept[k].items = kept[k].items.compactMap { item in
                switch random.below(20) {
                case 0: return nil
                case 1: moving.append(item); return nil
                case 2: return ["id": item["id"]!, "summary": .string("changed \(random.below(1000))")]
                default: return item
                }
            }
        }
        for _ in 0..<random.below(4) {
            next += 1
            moving.append(["id": .string("i\(next)"), "summary": .string("new \(next)")])
        }
        for item in moving {
            let k = random.below(kept.count)
            kept[k].items.insert(item, at: random.below(kept[k].items.count + 1))
        }
        if kept.count > 1 && random.percent(15) { kept.swapAt(0, kept.count - 1) }
        return kept.map { s in
            ["date": .string(s.id), "id": .string(s.id), "items": .array(s.items), "label": .string(s.label)]
        }
    }

    static func decoded(_ line: [UInt8]) throws -> FeedMessage {
        try FeedMessage.decode(line)
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func incrementalEncodingEqualsAFullOne(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        var next = 0
        var sections: [JSONValue] = []
        for _ in 0..<3 { sections = Self.edit(sections, &random, next: &next) }
        guard case .snapshot(let first) = try Self.decoded(try FeedScript.snapshot(sections, seq: 1)) else {
            Issue.record("not a snapshot"); return
        }
        var encoded = try EncodedFeedState(snapshot: first)
        var reference = try FeedClientState(snapshot: first)
        // A relay's copy follows the subscription's checked state instead of applying.
        var followed = EncodedFeedState(state: reference)
        for seq in 2...60 as ClosedRange<Int64> {
            let new = Self.edit(sections, &random, next: &next)
            guard case .diff(let diff) = try Self.decoded(try FeedScript.diff(from: sections, to: new, seq: seq)) else {
                Issue.record("not a diff"); return
            }
            #expect(try reference.apply(diff: diff))
            #expect(try encoded.apply(diff: diff), "seed \(seed), seq \(seq)")
            #expect(encoded.state == reference)
            #expect(encoded.sectionsBytes == reference.sectionsJSON.canonicalBytes(), "seed \(seed), seq \(seq)")
            // The snapshot key's line is the daemon's snapshot line of the same state.
            #expect(encoded.snapshotLine(digest: diff.digest) == (try FeedScript.snapshot(new, seq: seq)))
            try followed.follow(diff, to: reference)
            #expect(followed.sectionsBytes == encoded.sectionsBytes, "seed \(seed), seq \(seq)")
            sections = new
        }
    }

    @Test func aDiffWithAnotherDigestIsRefused() throws {
        let one = [FeedScript.section("1", ["a", "b"])]
        let two = [FeedScript.section("1", ["b"]), FeedScript.section("2", ["a"])]
        guard case .snapshot(let first) = try Self.decoded(try FeedScript.snapshot(one, seq: 1)),
              case .diff(let diff) = try Self.decoded(try FeedScript.diff(from: one, to: two, seq: 2, digest: String(repeating: "0", count: 64)))
        else { Issue.record("unexpected lines"); return }
        var encoded = try EncodedFeedState(snapshot: first)
        #expect(try encoded.apply(diff: diff) == false)
        // Another epoch or a gap throws, as the reference does.
        guard case .diff(let late) = try Self.decoded(try FeedScript.diff(from: two, to: one, seq: 4)) else { return }
        #expect(throws: FeedClientState.Failure.self) { try encoded.apply(diff: late) }
        var followed = try EncodedFeedState(snapshot: first)
        #expect(throws: FeedClientState.Failure.self) { try followed.follow(late, to: followed.state) }
    }
}
