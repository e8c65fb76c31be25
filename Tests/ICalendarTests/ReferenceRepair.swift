@testable import ICalendar

// `InputRepair` and `CalendarScanner.isValidUTF8` as they were before the clean-file fast
// paths (memchr, word-at-a-time ASCII and CRLF checks, lines read one at a time instead of
// an array of every line): byte by byte, kept verbatim as the reference the differential
// tests hold the fast code to. Helpers that did not change (`WarningLog`, `Windows1252`,
// `matchesUpper`, `isNameByte`, `foldLength`) are the module's own.

enum ReferenceRepair {
    /// Repairs `bytes` (without a byte-order mark).
    static func repair(_ bytes: UnsafeBufferPointer<UInt8>) -> RepairedInput {
        // A NUL byte means binary data: the scanner rejects the file as it stands.
        if bytes.contains(0) { return RepairedInput() }
        var warnings = InputRepair.WarningLog()
        let encoded = normaliseEncoding(bytes, &warnings)
        var result: RepairedInput
        if let (encoded, crLines) = encoded {
            result = encoded.withUnsafeBufferPointer { repairStructure($0, &warnings) }
            if result.bytes == nil { result.bytes = encoded }
            if let crLines {
                // Lines are named as `grep -n` counts them (by LF), also where a bare CR
                // ended one: stage 2's lines map to stage 1's, which map to the file's.
                result.lineMap = (result.lineMap ?? Array(1...max(1, crLines.count))).map { crLines[min($0, crLines.count) - 1] }
                warnings.remap { crLines[min(max($0, 1), crLines.count) - 1] }
            }
        } else {
            result = repairStructure(bytes, &warnings)
        }
        result.warnings = warnings.issues()
        return result
    }

    /// Bare CRs become CRLF; logical lines that are not UTF-8 are decoded as
    /// Windows-1252. Nil when nothing needs changing (a bare LF is read as it is, with a
    /// warning, since the scanner reads LF line ends).
    static func normaliseEncoding(_ bytes: UnsafeBufferPointer<UInt8>, _ warnings: inout InputRepair.WarningLog) -> ([UInt8], [Int]?)? {
        let valid = isValidUTF8(bytes)
        var bareCR = false, bareLF = 0
        for i in bytes.indices {
            if bytes[i] == 13, i + 1 == bytes.count || bytes[i + 1] != 10 { bareCR = true; break }
            if bareLF == 0, bytes[i] == 10, i == 0 || bytes[i - 1] != 13 { bareLF = i + 1 }
        }
        if valid, !bareCR {
            if bareLF > 0 {
                let line = bytes[..<bareLF].reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
                warnings.add("bare LF", line: line, "line ends in a bare LF (RFC 5545 requires CRLF); read as a line end")
            }
            return nil
        }
        let lines = physicalLines(bytes)
        // With bare CRs, the file's line (counted by LF) of each line here.
        var crLines: [Int]? = nil
        if bareCR {
            var lf = 1
            crLines = lines.map { line in defer { if line.end != 3 { lf += 1 } }; return lf }
        }
        var out = [UInt8]()
        out.reserveCapacity(bytes.count + bytes.count / 8)
        var index = 0
        var sawBareLF = false, sawBareCR = false
        while index < lines.count {
            // A logical line: this line and the continuation lines after it.
            var last = index
            while last + 1 < lines.count, let f = lines[last + 1].content.first, f < bytes.count,
                  bytes[f] == 32 || bytes[f] == 9, !lines[last + 1].content.isEmpty { last += 1 }
            let unit = lines[index].content.lowerBound..<lines[last].content.upperBound
            let isText = valid || isValidUTF8(UnsafeBufferPointer(rebasing: bytes[unit]))
            if !isText {
                warnings.add("not UTF-8", line: index + 1, "text is not valid UTF-8; read as Windows-1252")
            }
            for k in index...last {
                let line = lines[k]
                if isText { out.append(contentsOf: bytes[line.content]) }
                else { Windows1252.decode(bytes[line.content], into: &out) }
                switch line.end {
                case 1:
                    out.append(10)
                    if !sawBareLF {
                        sawBareLF = true
                        warnings.add("bare LF", line: k + 1, "line ends in a bare LF (RFC 5545 requires CRLF); read as a line end")
                    }
                case 2: out.append(contentsOf: [13, 10])
                case 3:
                    out.append(contentsOf: [13, 10])
                    if sawBareCR { break }
                    sawBareCR = true
                    warnings.add("bare CR", line: k + 1, "line ends in a bare CR (RFC 5545 requires CRLF); read as a line end")
                default: break
                }
            }
            index = last + 1
        }
        return (out, crLines)
    }

    /// A physical line: its content and the line end after it.
    struct PhysicalLine {
        var content: Range<Int>
        /// 0 none (end of file), 1 LF, 2 CRLF, 3 bare CR.
        var end: Int
    }

    static func physicalLines(_ bytes: UnsafeBufferPointer<UInt8>) -> [PhysicalLine] {
        var lines: [PhysicalLine] = []
        var start = 0, i = 0
        let n = bytes.count
        while i < n {
            let c = bytes[i]
            if c == 10 {
                lines.append(PhysicalLine(content: start..<i, end: 1)); i += 1; start = i
            } else if c == 13 {
                if i + 1 < n, bytes[i + 1] == 10 {
                    lines.append(PhysicalLine(content: start..<i, end: 2)); i += 2
                } else {
                    lines.append(PhysicalLine(content: start..<i, end: 3)); i += 1
                }
                start = i
            } else {
                i += 1
            }
        }
        if start < n { lines.append(PhysicalLine(content: start..<n, end: 0)) }
        return lines
    }

    /// How stage 2 changes one physical line.
    enum Edit {
        /// Removed (with the warning already logged).
        case drop
        /// A broken fold: written as a continuation line (one space in front), so that
        /// unfolding joins it to the line before exactly as it stood.
        case join
        /// The first `n` bytes (white space before `BEGIN:VCALENDAR`) removed.
        case strip(Int)
    }

    /// Joins broken folds, skips lines that are not content lines, and drops white space
    /// before `BEGIN:VCALENDAR`. `bytes` has no bare CR (stage 1 made them CRLF).
    static func repairStructure(_ bytes: UnsafeBufferPointer<UInt8>, _ warnings: inout InputRepair.WarningLog) -> RepairedInput {
        let lines = physicalLines(bytes)
        var edits: [Int: Edit] = [:]
        var depth = 0
        var sawBegin = false
        var leadingWhiteSpace = false
        // The property line being read (its first physical line) and whether its ':' was seen.
        var property: Int?
        var propertyHasColon = true

        /// A property line that ended without its ':' is not a content line: skip all of it.
        func dropUnfinishedProperty(before end: Int) {
            guard let start = property, !propertyHasColon else { return }
            for k in start..<end { edits[k] = .drop }
            warnings.add("unparseable line", line: start + 1, "not a content line (no ':' after the property name); skipped")
            property = nil
        }

        for (index, line) in lines.enumerated() {
            let r = line.content
            guard let first = r.first.map({ bytes[$0] }) else {
                // An empty line inside a component would end a fold for libical (Mozilla
                // Calendar 1.0 wrote `UID`, an empty line, ` :956630271`): it carries
                // nothing, so it goes, and the fold holds.
                if depth > 0 { edits[index] = .drop }
                continue
            }
            let isSpace = first == 32 || first == 9
            if depth == 0 {
                if !sawBegin, isSpace {
                    var k = r.lowerBound
                    while k < r.upperBound, bytes[k] == 32 || bytes[k] == 9 { k += 1 }
                    if k == r.upperBound {
                        edits[index] = .drop
                    } else if CalendarScanner.matchesUpper(bytes, k, "BEGIN:VCALENDAR") {
                        edits[index] = .strip(k - r.lowerBound)
                        depth = 1
                        sawBegin = true
                    } else {
                        continue // not iCalendar: the scanner says so
                    }
                    if !leadingWhiteSpace {
                        leadingWhiteSpace = true
                        warnings.add("white space before BEGIN", line: index + 1, "white space before BEGIN:VCALENDAR; ignored")
                    }
                    continue
                }
                if CalendarScanner.matchesUpper(bytes, r.lowerBound, "BEGIN:") { depth = 1; sawBegin = true; continue }
                if sawBegin, !isSpace, !CalendarScanner.matchesUpper(bytes, r.lowerBound, "END:") {
                    // After END:VCALENDAR (a caching proxy's `X-COMMENT:Cached from ...`).
                    edits[index] = .drop
                    warnings.add("after the end", line: index + 1, "content after END:VCALENDAR; skipped")
                }
                continue
            }
            if isSpace {
                // A continuation line: it may bring the ':' of a property split before it.
                if property != nil, !propertyHasColon, bytes[r].contains(58) { propertyHasColon = true }
                continue
            }
            var nameEnd = r.lowerBound
            while nameEnd < r.upperBound, CalendarScanner.isNameByte(bytes[nameEnd]) { nameEnd += 1 }
            let next: UInt8? = nameEnd < r.upperBound ? bytes[nameEnd] : nil
            let nameLength = nameEnd - r.lowerBound
            if next == 58, (nameLength == 5 && CalendarScanner.matchesUpper(bytes, r.lowerBound, "BEGIN"))
                || (nameLength == 3 && CalendarScanner.matchesUpper(bytes, r.lowerBound, "END")) {
                dropUnfinishedProperty(before: index)
                depth += nameLength == 5 ? 1 : -1
                property = nil
                continue
            }
            // The ':' may come in the continuation lines after this one.
            var hasColon = bytes[r].contains(58)
            var k = index + 1
            while !hasColon, k < lines.count {
                // Empty lines between (dropped above) do not end the fold.
                guard let f = lines[k].content.first else { k += 1; continue }
                guard bytes[f] == 32 || bytes[f] == 9 else { break }
                hasColon = bytes[lines[k].content].contains(58)
                k += 1
            }
            if property != nil, !propertyHasColon {
                // The property before has no ':' yet: this line is the rest of it.
                edits[index] = .join
                warnings.add("broken fold", line: index + 1, "broken fold: a line continues the one before without a leading space; joined")
                if hasColon { propertyHasColon = true }
                continue
            }
            if nameLength > 0, next == 58 || next == 59 || (next == nil && hasColon) {
                property = index
                propertyHasColon = hasColon
                continue
            }
            // Text, not a property: no ':' at all, or (Confluence: `...;CN=Danie` then
            // `l Latham;CUTYPE=INDIVIDUAL:mailto:...`) it starts the way text does, not
            // with an upper-case name as every exporter writes them. A name and `=`
            // (`ORGANIZER="mailto:..."`, Apple's `X-APPLE-RADIUS=49.9` on a line of its own)
            // is a broken property, not the rest of the line before: it is skipped.
            let startsLikeText = !(first >= 65 && first <= 90)
            let brokenProperty = !startsLikeText && nameLength > 0 && next == 61
            if property != nil, !brokenProperty, !hasColon || startsLikeText {
                edits[index] = .join
                warnings.add("broken fold", line: index + 1, "broken fold: a line that is not a content line after a content line; joined to it")
                continue
            }
            edits[index] = .drop
            let reason = nameLength == 0 ? "no property name" : hasColon ? "invalid character in the property name" : "no ':'"
            warnings.add("unparseable line", line: index + 1, "not a content line (\(reason)); skipped")
            property = nil
        }
        dropUnfinishedProperty(before: lines.count)
        guard !edits.isEmpty else { return RepairedInput() }
        return rebuild(bytes, lines, edits)
    }

    /// The file with `edits` applied, and where each remaining line came from.
    static func rebuild(_ bytes: UnsafeBufferPointer<UInt8>, _ lines: [PhysicalLine], _ edits: [Int: Edit]) -> RepairedInput {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count + 64)
        var map: [Int] = []
        var dropped = false
        for (index, line) in lines.enumerated() {
            var content = line.content
            switch edits[index] {
            case .drop?: dropped = true; continue
            case .join?: out.append(32)
            case .strip(let n)?: content = (content.lowerBound + n)..<content.upperBound
            case nil: break
            }
            out.append(contentsOf: bytes[content])
            switch line.end {
            case 1: out.append(10)
            case 2, 3: out.append(contentsOf: [13, 10])
            default: break
            }
            map.append(index + 1)
        }
        return RepairedInput(bytes: out, lineMap: dropped ? map : nil)
    }

    /// True when `bytes` are UTF-8 (a fold may split a character: unfolding joins it).
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            let c = bytes[i]
            if c < 0x80 { i += 1; continue }
            var need = 0
            var minimum: UInt32 = 0
            var scalar: UInt32 = 0
            if c & 0xE0 == 0xC0 { need = 1; scalar = UInt32(c & 0x1F); minimum = 0x80 }
            else if c & 0xF0 == 0xE0 { need = 2; scalar = UInt32(c & 0x0F); minimum = 0x800 }
            else if c & 0xF8 == 0xF0 { need = 3; scalar = UInt32(c & 0x07); minimum = 0x10000 }
            else { return false }
            var j = i
            for _ in 1...need {
                j += 1
                j += CalendarScanner.foldLength(bytes, at: j)
                if j >= n { return false }
                let cc = bytes[j]
                if cc & 0xC0 != 0x80 { return false }
                scalar = (scalar << 6) | UInt32(cc & 0x3F)
            }
            if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return false }
            i = j + 1
        }
        return true
    }
}
