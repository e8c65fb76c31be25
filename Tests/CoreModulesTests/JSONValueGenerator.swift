import CanonicalJSON
import TestSupport

// MARK: - JSONValueGenerator

/// Builds random `JSONValue` trees (reproducibly) for parity and fuzz tests.
struct JSONValueGenerator {
    var random: SeededRandom

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    // MARK: - Values

    /// A random value nested at most `depth` levels.
    mutating func value(depth: Int) -> JSONValue {
        let kind = Int.random(in: 0..<(depth > 0 ? 8 : 6), using: &random)
        switch kind {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .int(integer())
        case 3: return .double(double())
        case 4, 5: return .string(string())
        case 6:
            let count = Int.random(in: 0...4, using: &random)
            return .array((0..<count).map { _ in value(depth: depth - 1) })
        default:
            let count = Int.random(in: 0...5, using: &random)
            var members: [String: JSONValue] = [:]
            for _ in 0..<count {
                members[string()] = value(depth: depth - 1)
            }
            return .object(members)
        }
    }

    // MARK: - Scalars

    /// A random Int64, biased towards small and extreme values.
    mutating func integer() -> Int64 {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return Int64.random(in: -100...100, using: &random)
        case 1: return [Int64.max, Int64.min, Int64.max - 1, Int64.min + 1, 0][Int.random(in: 0..<5, using: &random)]
        default: return Int64.random(in: .min ... .max, using: &random)
        }
    }

    /// A random finite double: arbitrary bit patterns, decimal-looking values
    /// and powers of ten around the repr notation thresholds.
    mutating func double() -> Double {
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
            while true {
                let candidate = Double(bitPattern: random.next())
                if candidate.isFinite { return candidate }
            }
        case 1:
            let mantissa = Double(Int64.random(in: -999_999...999_999, using: &random))
            return mantissa / tenToThe(Int.random(in: 0...12, using: &random))
        case 2:
            let power = tenToThe(Int.random(in: -25...25, using: &random))
            return power * [1, 1.5, 9.999, 123.456, 0.3][Int.random(in: 0..<5, using: &random)]
        default:
            return Double(Int64.random(in: -(1 << 60)...(1 << 60), using: &random))
        }
    }

    /// A random string mixing ASCII, escapes, controls and non-ASCII scalars.
    mutating func string() -> String {
        let length = Int.random(in: 0...8, using: &random)
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length {
            scalars.append(scalar())
        }
        return String(scalars)
    }

    /// A random Unicode scalar from an interesting pool.
    mutating func scalar() -> Unicode.Scalar {
        let value: UInt32
        switch Int.random(in: 0..<10, using: &random) {
        case 0: value = UInt32.random(in: 0...0x1f, using: &random)
        case 1: value = [0x22, 0x5c, 0x2f, 0x7f, 0x2028, 0x2029, 0xffff, 0xfeff, 0x301][Int.random(in: 0..<9, using: &random)]
        case 2: value = UInt32.random(in: 0x80...0x7ff, using: &random)
        case 3: value = UInt32.random(in: 0x800...0xd7ff, using: &random)
        case 4: value = UInt32.random(in: 0xe000...0xffff, using: &random)
        case 5: value = UInt32.random(in: 0x1_0000...0x10_ffff, using: &random)
        default: value = UInt32.random(in: 0x20...0x7e, using: &random)
        }
        return Unicode.Scalar(value)!
    }

    private func tenToThe(_ exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<abs(exponent) { result *= 10 }
        return exponent < 0 ? 1 / result : result
    }
}
