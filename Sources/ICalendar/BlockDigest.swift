import Digests

/// The identity of one VEVENT block as the parser would read it: SHA-256 (first 128
/// bits) of the block's bytes after repair, prefixed by its VCALENDAR's context (every
/// VTIMEZONE text and the X-WR-TIMEZONE, see `BlockContext`).
///
/// Two blocks with the same digest give the same `EventRecord` (libical's parse of a
/// VEVENT depends only on its bytes and those zones), so a re-import can skip parsing a
/// block whose digest it stored last time. A change to any VTIMEZONE of the calendar
/// changes every digest of the calendar, which makes every event in it read again.
public struct BlockDigest: Hashable, Sendable {
    /// The first and second 64 bits of the SHA-256.
    public var high: UInt64
    public var low: UInt64

    /// A digest from its two halves.
    public init(high: UInt64, low: UInt64) { (self.high, self.low) = (high, low) }

    /// The digest of `bytes` (a VEVENT block) in `context`, computed by `digester`.
    static func of(_ bytes: UnsafeBufferPointer<UInt8>, context: BlockContext, digester: SHA256Digester) -> BlockDigest {
        withUnsafeBytes(of: context.seed) { seed in
            digester.digest(seed, UnsafeRawBufferPointer(bytes)) { BlockDigest(sha: $0) }
        }
    }

    init(_ sha: [UInt8]) {
        self = sha.withUnsafeBytes { BlockDigest(sha: $0) }
    }

    /// The first 128 bits of a SHA-256 (at least 16 bytes), big-endian.
    init(sha: UnsafeRawBufferPointer) {
        self.init(high: UInt64(bigEndian: sha.loadUnaligned(as: UInt64.self)),
                  low: UInt64(bigEndian: sha.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
    }

    /// 32 lowercase hex digits (the storage form).
    public var hex: String {
        func pad(_ v: UInt64) -> String {
            let s = String(v, radix: 16)
            return String(repeating: "0", count: 16 - s.count) + s
        }
        return pad(high) + pad(low)
    }

    /// The storage form written into `out` (32 bytes), without making a `String`.
    public func writeHex(into out: UnsafeMutableRawBufferPointer) {
        let digits: StaticString = "0123456789abcdef"
        digits.withUTF8Buffer { digits in
            for i in 0..<16 {
                out[i] = digits[Int(high >> UInt64(60 - 4 * i) & 0xF)]
                out[16 + i] = digits[Int(low >> UInt64(60 - 4 * i) & 0xF)]
            }
        }
    }

    /// Reads the storage form from bytes; nil when they are not 32 hex digits.
    public init?(hexBytes bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 32, let high = Self.hexValue(UnsafeRawBufferPointer(rebasing: bytes[0..<16])),
              let low = Self.hexValue(UnsafeRawBufferPointer(rebasing: bytes[16..<32])) else { return nil }
        self.init(high: high, low: low)
    }

    /// Up to 16 hex digits (either case) as their value; nil when any byte is not one.
    ///
    /// Without a branch per digit: hashes mix digits and letters at random, so a branch
    /// on the kind of each byte is mispredicted about every other byte, and every window
    /// scan and import reads thousands of these.
    public static func hexValue(_ bytes: UnsafeRawBufferPointer) -> UInt64? {
        guard bytes.count <= 16 else { return nil }
        var value: UInt64 = 0
        var bad = false
        for byte in bytes {
            let isDigit = byte &- UInt8(ascii: "0") < 10
            let isLetter = (byte | 0x20) &- UInt8(ascii: "a") < 6
            bad = bad || !(isDigit || isLetter)
            // '0'...'9' are 0x30...0x39, 'A'...'F' and 'a'...'f' end in 1...6 with bit 6 set.
            value = value << 4 | UInt64((byte & 0xF) &+ 9 &* (byte >> 6 & 1))
        }
        return bad ? nil : value
    }

    /// Reads the storage form; nil when it is not 32 hex digits.
    public init?(hex: String) {
        let utf8 = hex.utf8
        guard utf8.count == 32, let high = UInt64(hex.prefix(16), radix: 16),
              let low = UInt64(hex.suffix(16), radix: 16) else { return nil }
        self.init(high: high, low: low)
    }
}

/// What a VEVENT's reading depends on besides its own bytes, per VCALENDAR: the
/// parser's version, X-WR-TIMEZONE and every VTIMEZONE's text, hashed once.
struct BlockContext: Sendable {
    /// Bump when the reading of a VEVENT changes, so stored digests stop matching.
    static let readerVersion = "eventd-vevent-reader-1"

    /// The first 128 bits of SHA-256 over the context.
    let seed: (UInt64, UInt64)

    init(defaultZone: String?, zoneTexts: [String]) {
        var hasher = SHA256()
        hasher.update(Self.readerVersion)
        hasher.update([0])
        if let defaultZone {
            hasher.update([1])
            hasher.update(defaultZone)
        }
        hasher.update([0])
        // In file order: the order decides which of two same-TZID zones wins.
        for text in zoneTexts {
            hasher.update(String(text.utf8.count))
            hasher.update([0])
            hasher.update(text)
        }
        let digest = BlockDigest(hasher.finalize())
        seed = (digest.high, digest.low)
    }
}
