// MARK: - LongestIncreasingSubsequence

/// Longest strictly increasing subsequence by patience sorting, in O(*n* log *n*) time and
/// O(*n*) space.
///
/// The diff keeps in place the elements on a longest increasing subsequence of their base
/// positions (taken in new order); every other surviving element is a move. That is the
/// fewest moves that reorder the survivors.
public enum LongestIncreasingSubsequence {

    /// Marks the members of one longest strictly increasing subsequence of `values`.
    ///
    /// - Parameters:
    ///   - values: the sequence to examine (the diff passes distinct base positions).
    ///   - members: on return, `values.count` flags; `members[k]` is `true` when
    ///     `values[k]` is on the chosen subsequence. Its storage is reused.
    /// - Returns: the length of the subsequence.
    /// - Complexity: O(*n*) when `values` is already increasing, O(*n* log *n*) otherwise.
    @inlinable
    @discardableResult
    public static func mark(_ values: [Int], into members: inout [Bool]) -> Int {
        let count = values.count
        members.removeAll(keepingCapacity: true)
        if isIncreasing(values) {
            members.append(contentsOf: repeatElement(true, count: count))
            return count
        }
        members.append(contentsOf: repeatElement(false, count: count))

        // tails[l] = offset in `values` of the smallest tail of an increasing run of
        // length l + 1; predecessor[k] = offset of the element before k on its run.
        var tails: [Int] = []
        tails.reserveCapacity(min(count, 1024))
        var predecessor = [Int](repeating: -1, count: count)
        for k in 0..<count {
            let value = values[k]
            if let last = tails.last, values[last] < value {
                predecessor[k] = last
                tails.append(k)
                continue
            }
            // First tail whose value is >= value (lower bound).
            var low = 0
            var high = tails.count
            while low < high {
                let mid = (low &+ high) >> 1
                if values[tails[mid]] < value { low = mid &+ 1 } else { high = mid }
            }
            predecessor[k] = low > 0 ? tails[low - 1] : -1
            if low == tails.count { tails.append(k) } else { tails[low] = k }
        }
        var cursor = tails.last ?? -1
        while cursor >= 0 {
            members[cursor] = true
            cursor = predecessor[cursor]
        }
        return tails.count
    }

    /// Offsets of one longest strictly increasing subsequence of `values`, ascending.
    @inlinable
    internal static func offsets(_ values: [Int]) -> [Int] {
        var members: [Bool] = []
        mark(values, into: &members)
        return members.indices.filter { members[$0] }
    }

    /// `true` when every element is greater than the one before it.
    @inlinable
    internal static func isIncreasing(_ values: [Int]) -> Bool {
        var k = 1
        while k < values.count {
            if values[k] <= values[k - 1] { return false }
            k += 1
        }
        return true
    }
}
