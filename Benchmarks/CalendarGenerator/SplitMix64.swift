// MARK: - SplitMix64

/// A small, fast, seedable pseudo-random number generator: SplitMix64
/// (Steele, Lea & Flood, "Fast splittable pseudorandom number generators", 2014).
///
/// The generator is fully specified by this file: the same seed yields the same stream of
/// numbers on every platform and with every Swift version. Prefer the bounded helpers
/// below (``next(below:)``, ``next(in:)``, ``chance(_:in:)``) over the standard library's
/// `Int.random(in:using:)`, whose reduction algorithm is not guaranteed to stay the same
/// across standard library releases.
///
/// `SplitMix64` also conforms to `RandomNumberGenerator`, so it can drive any API that
/// accepts one.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {

    // MARK: - State

    /// The internal 64-bit state. Two generators with equal state produce equal streams.
    public private(set) var state: UInt64

    /// Creates a generator whose stream is determined entirely by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    // MARK: - Raw output

    /// Returns the next 64 uniformly distributed bits and advances the state.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    // MARK: - Bounded helpers

    /// Returns a uniformly distributed integer in `0 ..< bound`.
    ///
    /// Uses Lemire's multiply-and-reject method, so the result is exactly uniform and the
    /// number of raw values consumed depends only on the stream, never on the platform.
    /// - Precondition: `bound > 0`.
    public mutating func next(below bound: Int) -> Int {
        precondition(bound > 0, "SplitMix64.next(below:) needs a positive bound")
        let range = UInt64(bound)
        var product = next().multipliedFullWidth(by: range)
        if product.low < range {
            let threshold = (0 &- range) % range
            while product.low < threshold {
                product = next().multipliedFullWidth(by: range)
            }
        }
        return Int(product.high)
    }

    /// Returns a uniformly distributed integer in `range`.
    public mutating func next(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + next(below: range.upperBound - range.lowerBound + 1)
    }

    /// Returns `true` with probability `numerator / denominator`.
    /// - Precondition: `denominator > 0`.
    public mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        next(below: denominator) < numerator
    }

    /// Returns a uniformly chosen element of a non-empty collection.
    public mutating func element<C: RandomAccessCollection>(of collection: C) -> C.Element
    where C.Index == Int {
        precondition(!collection.isEmpty, "SplitMix64.element(of:) needs a non-empty collection")
        return collection[collection.startIndex + next(below: collection.count)]
    }

    /// Derives an independent generator from the next raw value, leaving this one advanced
    /// by exactly one step. Handy for sub-streams whose length must not disturb the parent.
    public mutating func split() -> SplitMix64 {
        SplitMix64(seed: next())
    }
}
