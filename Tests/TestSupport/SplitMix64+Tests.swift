@_exported import struct CalendarGenerator.SplitMix64

// The one seeded generator of the tests is CalendarGenerator's `SplitMix64`. The tests
// written before it was shared drew with `next() % n`, not with its exact (Lemire)
// `next(below:)`; these helpers keep their streams, and so the inputs of every seeded
// test, exactly as they were.

/// The tests' name for `SplitMix64`: a seeded generator, so that a failing run can be repeated.
public typealias SeededRandom = SplitMix64

extension SplitMix64 {
    /// `next() % bound` (`bound > 0`): slightly biased, kept because seeded tests rely on its stream.
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// `true` with probability `percent / 100` (drawn with `below(100)`).
    public mutating func percent(_ percent: Int) -> Bool { below(100) < percent }

    /// `count` random bytes (drawn with `UInt8.random(in:using:)`).
    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &self) }
    }
}
