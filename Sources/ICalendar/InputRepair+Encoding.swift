extension InputRepair {
    /// The warning for NUL bytes removed from property values (once per file, at the first line).
    static let nulWarning = "NUL bytes inside a property value; removed"

    /// `bytes` without the NUL bytes that pad property values (a real Exchange 2010 feed
    /// writes `TZID:Europe/Stockholm` followed by NULs), and the warning for them; nil when
    /// the file has no NUL or one outside a value (in a property name, on a line that is
    /// no content line), which makes it binary: the scanner rejects it as it stands.
    ///
    /// A NUL is inside a value when it comes after the first `:` of a line that starts
    /// with a property name, or anywhere after the leading white space of a continuation
    /// line. Line ends are kept, so line numbers do not change.
    static func removingValueNULs(_ bytes: UnsafeBufferPointer<UInt8>) -> (bytes: [UInt8], warning: ImportIssue)? {
        guard var nul = ByteSearch.firstIndex(of: 0, in: bytes) else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        var copied = 0, line = 1, counted = 0
        var firstLine: Int?
        while nul < bytes.count {
            // The line holding this NUL: from after the LF before it to its own LF.
            var start = nul
            while start > copied, bytes[start - 1] != 10 { start -= 1 }
            for i in counted..<start where bytes[i] == 10 { line += 1 }
            counted = start
            let end = ByteSearch.index(of: 10, in: bytes, from: nul, to: bytes.count)
            let first = bytes[start]
            let valueStart: Int
            if start < nul, first == 32 || first == 9 {
                valueStart = start + 1
            } else if start < nul, CalendarScanner.isNameByte(first),
                      let colon = ByteSearch.firstIndex(of: 58, in: bytes, from: start, to: nul) {
                valueStart = colon + 1
            } else {
                return nil
            }
            out.append(contentsOf: bytes[copied..<valueStart])
            for i in valueStart..<end where bytes[i] != 0 { out.append(bytes[i]) }
            if firstLine == nil { firstLine = line }
            copied = end
            nul = ByteSearch.index(of: 0, in: bytes, from: end, to: bytes.count)
        }
        out.append(contentsOf: bytes[copied...])
        return (out, ImportIssue(line: firstLine ?? 1, message: nulWarning))
    }
}

extension String {
    /// The text without carriage returns: CRLF (and lone CR) line endings become LF.
    public func removingCarriageReturns() -> String {
        var out = String.UnicodeScalarView()
        for scalar in unicodeScalars where scalar != "\r" { out.append(scalar) }
        return String(out)
    }

    /// The text with CRLF line endings and a final line break (iCalendar's form).
    public func withCRLFLineEndings() -> String {
        var lines = removingCarriageReturns()
        if !lines.hasSuffix("\n") { lines += "\n" }
        return lines.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { $0 + "\r\n" }.joined()
    }
}

/// Windows-1252 ("ANSI", the code page Outlook and older Windows exporters write when
/// they do not write UTF-8), decoded to UTF-8.
///
/// Bytes 0x00–0x7F and 0xA0–0xFF are the Unicode code points of the same number (as in
/// ISO 8859-1). 0x80–0x9F hold typographic characters, except five bytes the code page
/// leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D): those decode to the C1 control
/// code point of the same number (U+0081 …), as the WHATWG Encoding Standard does, so
/// no byte is lost and the text reaches terminals only through `terminalSafe`.
enum Windows1252 {
    /// The code points of bytes 0x80–0x9F (Microsoft's cp1252 table, bestfit1252.txt).
    static let high: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, // 80–87
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F, // 88–8F
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, // 90–97
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178, // 98–9F
    ]

    /// The Unicode scalar value of one Windows-1252 byte.
    static func scalar(_ byte: UInt8) -> UInt32 {
        (0x80...0x9F).contains(byte) ? high[Int(byte) - 0x80] : UInt32(byte)
    }

    /// Appends the UTF-8 encoding of Windows-1252 `bytes` to `out`.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>.SubSequence, into out: inout [UInt8]) {
        for byte in bytes {
            if byte < 0x80 { out.append(byte); continue }
            let s = scalar(byte)
            if s < 0x800 {
                out.append(UInt8(0xC0 | (s >> 6)))
                out.append(UInt8(0x80 | (s & 0x3F)))
            } else {
                out.append(UInt8(0xE0 | (s >> 12)))
                out.append(UInt8(0x80 | ((s >> 6) & 0x3F)))
                out.append(UInt8(0x80 | (s & 0x3F)))
            }
        }
    }
}
