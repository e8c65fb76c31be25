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
