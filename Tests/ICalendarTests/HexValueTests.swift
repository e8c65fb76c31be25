import Testing
@testable import ICalendar
import TestSupport

/// `BlockDigest.hexValue` reads up to 16 hex digits of either case, and refuses any
/// other byte wherever it stands, exactly as the standard library's radix-16 parse does.
@Suite struct HexValueTests {
    static func reference(_ bytes: [UInt8]) -> UInt64? {
        guard bytes.count <= 16 else { return nil }
        if bytes.isEmpty { return 0 }
        // UInt64(_:radix:) takes a leading sign; a hash never has one.
        guard !bytes.contains(UInt8(ascii: "+")), !bytes.contains(UInt8(ascii: "-")) else { return nil }
        return UInt64(String(decoding: bytes, as: UTF8.self), radix: 16)
    }

    static func value(_ bytes: [UInt8]) -> UInt64? {
        bytes.withUnsafeBytes { BlockDigest.hexValue($0) }
    }

    /// Every byte value, in the first, a middle and the last of 16 places.
    @Test func everyByteInEveryPlace() {
        let base = Array("0123456789abcDEF".utf8)
        for place in [0, 7, 15] {
            for byte in 0...255 {
                var bytes = base
                bytes[place] = UInt8(byte)
                #expect(Self.value(bytes) == Self.reference(bytes), "byte \(byte) at \(place)")
            }
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func randomDigitsAndLengths(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let digits = Array("0123456789abcdefABCDEF".utf8)
        for _ in 0..<2000 {
            let count = rng.below(18)
            let bytes = (0..<count).map { _ in digits[rng.below(digits.count)] }
            #expect(Self.value(bytes) == Self.reference(bytes), "\(String(decoding: bytes, as: UTF8.self))")
        }
        #expect(Self.value(Array("ffffffffffffffff".utf8)) == .max)
        #expect(Self.value(Array("0000000000000000".utf8)) == 0)
    }
}
