import Testing
@testable import Agenda
import Support
import TestSupport

/// `BufferedDigest` is exactly SHA-256 over every byte fed, whatever the pieces' sizes
/// (empty, smaller than the buffer, filling it exactly, larger than it), and its state
/// taken midway is the digest of the prefix; making room ahead changes nothing.
@Suite struct BufferedDigestTests {
    @Test(arguments: [1, 2, 3])
    func piecesOfAnySizeHashAsTheWhole(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let capacity = 64
        var prefix = SHA256()
        prefix.update(Array("[".utf8))
        let digest = BufferedDigest(continuing: prefix, capacity: capacity)
        var all: [UInt8] = Array("[".utf8)
        for round in 0..<400 {
            let size = [0, 1, capacity - 1, capacity, capacity + 1, 3 * capacity, rng.below(2 * capacity)][rng.below(7)]
            let piece = rng.bytes(size)
            // Room made ahead (as hashSection does for a group) changes nothing hashed.
            if rng.below(3) == 0 { digest.reserve(size + rng.below(capacity)) }
            digest.update(piece)
            all += piece
            if round % 37 == 0 {
                #expect(digest.state().finalize() == SHA256.hash(all), "midway, after \(all.count) bytes")
            }
        }
        #expect(digest.state().finalize() == SHA256.hash(all))
        // A state taken is independent: feeding more does not change it.
        let kept = digest.state()
        digest.update(rng.bytes(100))
        #expect(kept.finalize() == SHA256.hash(all))
    }
}
