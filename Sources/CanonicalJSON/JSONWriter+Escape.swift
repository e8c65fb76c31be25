// MARK: - String escaping

extension JSONWriter {
    /// Appends `string` to `output` as a quoted JSON string literal, escaped
    /// exactly as Python's `json.dumps(..., ensure_ascii=True)` does:
    ///
    /// - `"` → `\"`, `\` → `\\`, and `\n`, `\r`, `\t`, `\b`, `\f`;
    /// - every other scalar outside `0x20...0x7E` (including DEL, `0x7F`) →
    ///   `\u00XX` with lowercase hex digits;
    /// - scalars above the BMP → a lowercase UTF-16 surrogate pair, e.g.
    ///   `😀` → `\ud83d\ude00`;
    /// - `/` is not escaped.
    ///
    /// Printable ASCII runs are copied straight from the string's UTF-8
    /// storage.
    public static func escape(_ string: String, into output: inout [UInt8]) {
        var string = string
        string.withUTF8 { escape(utf8: $0, into: &output) }
    }

    /// Escapes already-valid UTF-8 (as produced by `String.withUTF8`).
    internal static func escape(utf8 source: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        output.reserveCapacity(output.count &+ source.count &+ 2)
        output.append(UInt8(ascii: "\""))

        let count = source.count
        var runStart = 0
        var index = 0
        while index < count {
            let byte = source[index]
            // Fast path: printable ASCII other than `"` and `\`.
            if byte >= 0x20, byte < 0x7f, byte != 0x22, byte != 0x5c {
                index &+= 1
                continue
            }
            if runStart < index {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<index]))
            }
            if byte < 0x80 {
                appendASCIIEscape(byte, into: &output)
                index &+= 1
            } else {
                let (scalar, length) = decodeScalar(source, at: index)
                if scalar >= 0x1_0000 {
                    let offset = scalar &- 0x1_0000
                    appendUnicodeEscape(UInt32(0xd800) | (offset &>> 10), into: &output)
                    appendUnicodeEscape(UInt32(0xdc00) | (offset & 0x3ff), into: &output)
                } else {
                    appendUnicodeEscape(scalar, into: &output)
                }
                index &+= length
            }
            runStart = index
        }
        if runStart < count {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<count]))
        }

        output.append(UInt8(ascii: "\""))
    }

    // MARK: - Helpers

    /// Appends the escape sequence for an ASCII byte that cannot appear raw.
    @inline(__always)
    private static func appendASCIIEscape(_ byte: UInt8, into output: inout [UInt8]) {
        let short: UInt8
        switch byte {
        case 0x22: short = UInt8(ascii: "\"")
        case 0x5c: short = UInt8(ascii: "\\")
        case 0x0a: short = UInt8(ascii: "n")
        case 0x0d: short = UInt8(ascii: "r")
        case 0x09: short = UInt8(ascii: "t")
        case 0x08: short = UInt8(ascii: "b")
        case 0x0c: short = UInt8(ascii: "f")
        default:
            appendUnicodeEscape(UInt32(byte), into: &output)
            return
        }
        output.append(UInt8(ascii: "\\"))
        output.append(short)
    }

    /// Appends `\uXXXX` for a 16-bit code unit, lowercase hex.
    @inline(__always)
    private static func appendUnicodeEscape(_ unit: UInt32, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\\"))
        output.append(UInt8(ascii: "u"))
        output.append(hexDigit(unit &>> 12))
        output.append(hexDigit(unit &>> 8))
        output.append(hexDigit(unit &>> 4))
        output.append(hexDigit(unit))
    }

    /// The lowercase hex digit for the low four bits of `value`.
    @inline(__always)
    private static func hexDigit(_ value: UInt32) -> UInt8 {
        let nibble = UInt8(truncatingIfNeeded: value & 0xf)
        return nibble < 10 ? 0x30 &+ nibble : 0x57 &+ nibble  // 0x57 + 10 == "a"
    }

    /// Decodes the scalar whose (valid) UTF-8 encoding starts at `index`.
    @inline(__always)
    private static func decodeScalar(
        _ source: UnsafeBufferPointer<UInt8>, at index: Int
    ) -> (scalar: UInt32, length: Int) {
        let lead = UInt32(source[index])
        if lead < 0xe0 {
            let scalar = (lead & 0x1f) &<< 6 | UInt32(source[index &+ 1] & 0x3f)
            return (scalar, 2)
        }
        if lead < 0xf0 {
            let scalar = (lead & 0x0f) &<< 12
                | UInt32(source[index &+ 1] & 0x3f) &<< 6
                | UInt32(source[index &+ 2] & 0x3f)
            return (scalar, 3)
        }
        let scalar = (lead & 0x07) &<< 18
            | UInt32(source[index &+ 1] & 0x3f) &<< 12
            | UInt32(source[index &+ 2] & 0x3f) &<< 6
            | UInt32(source[index &+ 3] & 0x3f)
        return (scalar, 4)
    }
}
