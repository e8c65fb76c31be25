import Testing
import TestSupport
@testable import SectionedDiff

// MARK: - LongestIncreasingSubsequenceTests

@Suite("Longest increasing subsequence")
struct LongestIncreasingSubsequenceTests {

    @Test func smallCases() {
        #expect(LongestIncreasingSubsequence.offsets([]) == [])
        #expect(LongestIncreasingSubsequence.offsets([7]) == [0])
        #expect(LongestIncreasingSubsequence.offsets([1, 2, 3]) == [0, 1, 2])
        #expect(LongestIncreasingSubsequence.offsets([3, 2, 1]).count == 1)
        #expect(LongestIncreasingSubsequence.offsets([0, 8, 4, 12, 2, 10, 6, 14, 1, 9]).count == 4)
        // Moving one element leaves all the others on the subsequence.
        #expect(LongestIncreasingSubsequence.offsets([0, 1, 9, 2, 3, 4, 5, 6, 7, 8]) == [0, 1, 3, 4, 5, 6, 7, 8, 9])
    }

    @Test func randomSequencesMatchTheQuadraticDefinition() {
        var rng = SeededRandom(seed: 99)
        for _ in 0..<500 {
            var values = Array(0..<rng.below(40))
            values.shuffle(using: &rng)
            let offsets = LongestIncreasingSubsequence.offsets(values)
            // Increasing, and as long as the O(n²) dynamic programme says.
            let chosen = offsets.map { values[$0] }
            #expect(chosen == chosen.sorted() && Set(chosen).count == chosen.count)
            #expect(offsets.count == quadraticLength(values))
        }
    }

    @Test func markReusesItsBuffer() {
        var members = [true, true, true, true, true]
        let length = LongestIncreasingSubsequence.mark([2, 1], into: &members)
        #expect(length == 1)
        #expect(members.count == 2)
        #expect(members.filter { $0 }.count == 1)
    }

    func quadraticLength(_ values: [Int]) -> Int {
        var best = [Int](repeating: 1, count: values.count)
        for i in values.indices {
            for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) }
        }
        return best.max() ?? 0
    }
}
