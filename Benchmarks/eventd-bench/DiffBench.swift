import Foundation
import SectionedDiff

// MARK: - DiffBench

/// `eventd-bench diff`: SectionedDiff's snapshot diff against the standard library's
/// `CollectionDifference` (`difference(from:).inferringMoves()`) on the flattened item
/// ids, on a flat workload: 100,000 items with 36-character ids over 365 sections, then a
/// copy with 10,000 items deleted, 10,000 inserted and 2,000 moved (half of them to
/// another section, with new content).
///
/// Options: `--items N` (100000), `--sections N` (365), `--seed S` (42), `--runs N` (5,
/// ours), `--stdlib-runs N` (3; 0 skips the standard library). Edits scale with
/// `--items`. The last line is
/// `items=… sections=… seconds=… stdlib_seconds=… speedup=…`.
enum DiffBench {
    typealias BenchSnapshot = Snapshot<String, String, String, Event>
    typealias BenchDiff = SnapshotDiff<String, String, String, Event>

    /// Item content: what an agenda row shows.
    struct Event: Equatable, Sendable {
        var summary: String
        var start: Int
        var end: Int
    }

    /// Why the benchmark could not run or check its result.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    // MARK: - Entry point

    static func run(_ options: inout Options) throws {
        let items = options.int("--items") ?? 100_000
        let sectionCount = options.int("--sections") ?? 365
        let runs = max(1, options.int("--runs") ?? 5)
        let stdlibRuns = options.int("--stdlib-runs") ?? 3
        guard items >= 0, sectionCount > 0 else { throw Failure(description: "need --items >= 0 and --sections > 0") }

        var rng = Generator(seed: UInt64(options.int("--seed") ?? 42))
        let (old, new) = try workload(items: items, sections: sectionCount, rng: &rng)
        print("workload: old \(old.itemCount) items, new \(new.itemCount) items, \(new.sections.count) sections")

        // For reference: building a snapshot validates its ids and builds the id → position
        // index that the diff consults (done once per snapshot, not per diff).
        var buildBest = Double.infinity
        for _ in 0..<runs {
            let start = ContinuousClock.now
            let rebuilt = try BenchSnapshot(sections: new.sections)
            buildBest = min(buildBest, seconds(ContinuousClock.now - start))
            guard rebuilt.itemCount == new.itemCount else { throw Failure(description: "rebuild lost items") }
        }
        print("snapshot build (validation + index): \(format(buildBest)) s")

        // Ours: best of `runs`.
        var best = Double.infinity
        var diff = BenchDiff()
        for _ in 0..<runs {
            let start = ContinuousClock.now
            diff = BenchDiff(from: old, to: new)
            best = min(best, seconds(ContinuousClock.now - start))
        }
        print("ours: sections -\(diff.sections.deleted.count) +\(diff.sections.inserted.count) "
              + "~\(diff.sections.updated.count) >\(diff.sections.moved.count); "
              + "items -\(diff.items.deleted.count) +\(diff.items.inserted.count) "
              + ">\(diff.items.moved.count) ~\(diff.items.updated.count)")
        guard try diff.apply(to: old) == new else {
            throw Failure(description: "apply(diff, old) != new")
        }
        print("verified: apply(diff, old) == new")

        // Standard library: Myers' diff of the flattened ids, then move inference.
        var stdlibBest = Double.nan
        if stdlibRuns > 0 {
            let oldIDs = old.itemIDs
            let newIDs = new.itemIDs
            stdlibBest = .infinity
            var changes = 0
            for _ in 0..<stdlibRuns {
                let start = ContinuousClock.now
                let difference = newIDs.difference(from: oldIDs).inferringMoves()
                stdlibBest = min(stdlibBest, seconds(ContinuousClock.now - start))
                changes = difference.count
            }
            print("stdlib: \(changes) changes (insertions + removals)")
        }
        let speedup = stdlibBest / best
        print("items=\(items) sections=\(sectionCount) seconds=\(format(best)) "
              + "stdlib_seconds=\(format(stdlibBest)) speedup=\(String(format: "%.1f", speedup))")
    }

    // MARK: - Workload

    /// The base snapshot and its edited copy.
    static func workload(items: Int, sections sectionCount: Int,
                         rng: inout Generator) throws -> (BenchSnapshot, BenchSnapshot) {
        var sections: [BenchSnapshot.Section] = (0..<sectionCount).map { day in
            BenchSnapshot.Section(id: sectionID(day), content: day == 0 ? "today" : "-")
        }
        for n in 0..<items {
            let day = n * sectionCount / max(items, 1)
            sections[day].items.append(freshItem(&rng, day: day, serial: n))
        }
        let old = try BenchSnapshot(sections: sections)

        // Choose the deleted and moved items among distinct base items.
        let deletions = items / 10, insertions = items / 10, moves = items / 50
        var flat: [(section: Int, item: Int)] = []
        flat.reserveCapacity(items)
        for s in sections.indices { for k in sections[s].items.indices { flat.append((s, k)) } }
        for k in 0..<min(deletions + moves, flat.count) { flat.swapAt(k, k + rng.below(flat.count - k)) }
        var removed = sections.map { [Bool](repeating: false, count: $0.items.count) }
        var moving: [(item: BenchSnapshot.Item, from: Int)] = []
        for (n, location) in flat.prefix(deletions + moves).enumerated() {
            removed[location.section][location.item] = true
            if n >= deletions { moving.append((sections[location.section].items[location.item], location.section)) }
        }
        for s in sections.indices {
            sections[s].items = sections[s].items.indices.filter { !removed[s][$0] }.map { sections[s].items[$0] }
        }
        // Insert new items, then the moved ones: half stay in their section, half move to
        // another section with a new time.
        for n in 0..<insertions {
            let day = rng.below(sectionCount)
            let item = freshItem(&rng, day: day, serial: items + n)
            sections[day].items.insert(item, at: rng.below(sections[day].items.count + 1))
        }
        for (n, move) in moving.enumerated() {
            var item = move.item
            var day = move.from
            if n % 2 == 1 {
                day = rng.below(sectionCount)
                item.content.start += 86_400 * (day - move.from)
                item.content.end += 86_400 * (day - move.from)
            }
            sections[day].items.insert(item, at: rng.below(sections[day].items.count + 1))
        }
        sections[0].content = "yesterday"
        if sectionCount > 1 { sections[1].content = "today" }
        return (old, try BenchSnapshot(sections: sections))
    }

    /// Section ids `D00000`, `D00001`, …: one per day.
    static func sectionID(_ day: Int) -> String {
        "D" + String(format: "%05d", day)
    }

    /// A new item with a UUID-shaped 36-character id.
    static func freshItem(_ rng: inout Generator, day: Int, serial: Int) -> BenchSnapshot.Item {
        let start = day * 86_400 + rng.below(86_400)
        return BenchSnapshot.Item(id: uuidString(&rng),
                                  content: Event(summary: "Event \(serial)", start: start, end: start + 1800))
    }

    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` from 128 random bits.
    static func uuidString(_ rng: inout Generator) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(36)
        let words = (rng.next(), rng.next())
        for n in 0..<32 {
            if n == 8 || n == 12 || n == 16 || n == 20 { bytes.append(UInt8(ascii: "-")) }
            let word = n < 16 ? words.0 : words.1
            bytes.append(hex[Int((word >> UInt64((n % 16) * 4)) & 0xF)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - Helpers

    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    static func format(_ seconds: Double) -> String { String(format: "%.5f", seconds) }

    /// SplitMix64, local so that the benchmark depends on nothing but SectionedDiff.
    struct Generator {
        var state: UInt64
        init(seed: UInt64) { state = seed }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        /// Uniform enough in `0..<bound` for a workload (`bound > 0`).
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }
}
