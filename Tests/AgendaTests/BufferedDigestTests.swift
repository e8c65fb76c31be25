import Testing
@testable import Agenda
import Digests
import TestSupport

/// `BufferedDigest` is exactly SHA-256 over every byte fed, whatever the pieces' sizes
/// (empty, smaller than the chunk, filling it exactly, larger than it) and wherever it
/// hashes (here, or on another thread); a state taken midway is the digest of the
/// prefix; making room ahead changes nothing.
@Suite struct BufferedDigestTests {
    static let capacity = 64

    /// Feeds 400 random pieces, marking now and then; returns every byte fed and, for
    /// each mark, how many bytes came before it.
    static func feed(_ digest: inout BufferedDigest, seed: UInt64, midway: (inout BufferedDigest, [UInt8]) -> Void = { _, _ in })
        -> (all: [UInt8], marked: [Int]) {
        var rng = SplitMix64(seed: seed)
        var all: [UInt8] = Array("[".utf8)
        var marked: [Int] = []
        for round in 0..<400 {
            let size = [0, 1, capacity - 1, capacity, capacity + 1, 3 * capacity, rng.below(2 * capacity)][rng.below(7)]
            let piece = rng.bytes(size)
            // Room made ahead (as hashSection does for a group) changes nothing hashed.
            if rng.below(3) == 0 { digest.reserve(size + rng.below(capacity)) }
            if rng.below(4) == 0 {
                digest.update(byte: piece.first ?? 44)
                all.append(piece.first ?? 44)
            } else {
                digest.update(piece)
                all += piece
            }
            if rng.below(5) == 0 {
                digest.mark(noneBefore: round % 2 == 0)
                marked.append(all.count)
            }
            if round % 37 == 0 { midway(&digest, all) }
        }
        return (all, marked)
    }

    static var prefix: SHA256 {
        var prefix = SHA256()
        prefix.update(Array("[".utf8))
        return prefix
    }

    @Test(arguments: [1, 2, 3])
    func piecesOfAnySizeHashAsTheWhole(seed: UInt64) {
        var digest = BufferedDigest(continuing: Self.prefix, capacity: Self.capacity)
        let (all, _) = Self.feed(&digest, seed: seed) { digest, all in
            #expect(digest.state().finalize() == SHA256.hash(all), "midway, after \(all.count) bytes")
        }
        #expect(digest.state().finalize() == SHA256.hash(all))
        // A state taken is independent: feeding more does not change it.
        let kept = digest.state()
        var rng = SplitMix64(seed: seed)
        digest.update(rng.bytes(100))
        #expect(kept.finalize() == SHA256.hash(all))
    }

    /// Hashed here or on another thread (with two chunks in flight, so the copying side
    /// waits for free chunks): the same marks, in order, and the same final state.
    @Test(arguments: [1, 2, 3])
    func hashingElsewhereTakesTheSameStates(seed: UInt64) {
        var here = BufferedDigest(continuing: Self.prefix, capacity: Self.capacity)
        var elsewhere = BufferedDigest(continuing: Self.prefix, hashingElsewhereIn: 2, of: Self.capacity)
        let (all, marked) = Self.feed(&here, seed: seed)
        #expect(Self.feed(&elsewhere, seed: seed).all == all)
        let a = here.finish(), b = elsewhere.finish()
        #expect(a.final.finalize() == SHA256.hash(all))
        #expect(b.final.finalize() == SHA256.hash(all))
        #expect(b.marks.count == marked.count)
        for (k, count) in marked.enumerated() where k < b.marks.count {
            #expect(b.marks[k].sha.finalize() == SHA256.hash(Array(all[..<count])), "mark \(k), after \(count) bytes")
            #expect(b.marks[k].noneBefore == a.marks[k].noneBefore)
        }
    }

    /// A digest hashed elsewhere and dropped unfinished ends its thread (no wait forever):
    /// many of them in a row still finish, and a later one still hashes.
    @Test func anUnfinishedDigestElsewhereEndsItsThread() {
        for _ in 0..<200 {
            var dropped = BufferedDigest(continuing: Self.prefix, hashingElsewhereIn: 2, of: Self.capacity)
            dropped.update([UInt8](repeating: 7, count: 300))
        }
        var digest = BufferedDigest(continuing: SHA256(), hashingElsewhereIn: 2, of: Self.capacity)
        digest.update(Array("abc".utf8))
        #expect(digest.finish().final.finalize() == SHA256.hash(Array("abc".utf8)))
    }
}
