/// A fast, stable 64-bit content fingerprint (FNV-1a) used to detect unchanged events
/// and files. Not cryptographic: it only decides whether a row needs rewriting.
public enum ContentHash {
    /// The fingerprint of `bytes`, as 16 hex digits.
    public static func of(bytes: [UInt8]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        bytes.withUnsafeBufferPointer { buf in
            for b in buf { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        }
        return hex(h)
    }

    static func hex(_ v: UInt64) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
