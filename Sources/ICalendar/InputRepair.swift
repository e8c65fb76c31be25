/// The repairs made before a file's structure is checked (docs/data-model.md: "liberal in
/// what it accepts"): what calendar applications open without complaint, eventd reads
/// too, with a warning naming the line.
///
/// Stage 1 (`normaliseEncoding`) keeps every line: a bare CR becomes a line end, a
/// logical line that is not valid UTF-8 is read as Windows-1252. Stage 2
/// (`repairStructure`) joins broken folds, drops white space before `BEGIN:VCALENDAR`
/// and skips lines that are not content lines; it is the only stage that removes
/// lines, so it returns where each remaining line came from. Both stages copy the file
/// only when they change something.
///
/// Not repaired (left for `CalendarScanner` to reject): NUL bytes (those inside property
/// values are removed before, by `removingValueNULs`), no `BEGIN:VCALENDAR` or bare
/// `BEGIN:VEVENT`, unbalanced components, a missing `END:VCALENDAR`, content after it.
struct RepairedInput {
    /// The bytes to scan, when a repair changed them (nil: the original bytes).
    var bytes: [UInt8]?
    /// For each line of `bytes` (0-based), its 1-based line in the original file; nil
    /// when lines were only changed, never removed.
    var lineMap: [Int]?
    /// One warning per repair (at most `InputRepair.maxWarningsPerKind` of each kind).
    var warnings: [ImportIssue] = []

    /// The original line of line `line` (1-based) of the repaired bytes.
    func originalLine(_ line: Int) -> Int {
        guard let lineMap, !lineMap.isEmpty else { return line }
        return lineMap[min(max(line, 1), lineMap.count) - 1]
    }
}

enum InputRepair {
    /// Warnings of one kind after which the rest are counted in one last warning (a file
    /// of a million Latin-1 lines names the first ones, not every one).
    static let maxWarningsPerKind = 20

    /// Repairs `bytes` (without a byte-order mark).
    static func repair(_ bytes: UnsafeBufferPointer<UInt8>) -> RepairedInput {
        // A NUL byte means binary data: the scanner rejects the file as it stands.
        if ByteSearch.firstIndex(of: 0, in: bytes) != nil { return RepairedInput() }
        var warnings = WarningLog()
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

    /// Warnings by kind, in the order first seen, capped per kind.
    struct WarningLog {
        private var issues_: [ImportIssue] = []
        private var counts: [String: (count: Int, first: Int)] = [:]
        private var order: [String] = []

        mutating func add(_ kind: String, line: Int, _ message: String) {
            var entry = counts[kind] ?? (0, line)
            if entry.count == 0 { order.append(kind) }
            entry.count += 1
            counts[kind] = entry
            if entry.count <= InputRepair.maxWarningsPerKind { issues_.append(ImportIssue(line: line, message: message)) }
        }

        /// Renumbers the lines logged so far.
        mutating func remap(_ line: (Int) -> Int) {
            for i in issues_.indices { issues_[i].line = line(issues_[i].line) }
            for (kind, entry) in counts { counts[kind] = (entry.count, line(entry.first)) }
        }

        func issues() -> [ImportIssue] {
            var out = issues_
            for kind in order {
                guard let entry = counts[kind], entry.count > InputRepair.maxWarningsPerKind else { continue }
                out.append(ImportIssue(line: entry.first, message: "\(entry.count - InputRepair.maxWarningsPerKind) more lines like line \(entry.first): \(kind)"))
            }
            return out.sorted { $0.line < $1.line }
        }
    }

    // MARK: - Stage 1: line ends and text encoding

    /// A physical line: its content and the line end after it.
    struct PhysicalLine {
        var content: Range<Int>
        /// 0 none (end of file), 1 LF, 2 CRLF, 3 bare CR.
        var end: Int

        /// Where the line after it starts.
        var next: Int { content.upperBound + (end == 2 ? 2 : end == 0 ? 0 : 1) }
    }

    /// The physical line starting at `start` (< `bytes.count`) of bytes with no bare CR,
    /// as `physicalLines` would find it, without an array of every line.
    @inline(__always)
    static func physicalLine(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> PhysicalLine {
        let lf = ByteSearch.index(of: 10, in: bytes, from: start, to: bytes.count)
        if lf == bytes.count { return PhysicalLine(content: start..<bytes.count, end: 0) }
        if lf > start, bytes[lf - 1] == 13 { return PhysicalLine(content: start..<(lf - 1), end: 2) }
        return PhysicalLine(content: start..<lf, end: 1)
    }

    /// The physical lines of bytes with no bare CR, with their 0-based numbers, read one
    /// at a time (`physicalLine`) rather than gathered into an array.
    struct CRLFLines: Sequence, IteratorProtocol {
        let bytes: UnsafeBufferPointer<UInt8>
        private var index = -1
        private var start = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func next() -> (index: Int, line: PhysicalLine)? {
            guard start < bytes.count else { return nil }
            let line = InputRepair.physicalLine(bytes, at: start)
            index += 1
            start = line.next
            return (index, line)
        }
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

    /// True when a CR is not followed by an LF. Jumps from CR to CR with memchr: in a
    /// clean file each is the first half of a CRLF.
    static func hasBareCR(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var from = 0
        while let cr = ByteSearch.firstIndex(of: 13, in: bytes, from: from, to: bytes.count) {
            if cr + 1 == bytes.count || bytes[cr + 1] != 10 { return true }
            from = cr + 2
        }
        return false
    }

    /// One past the first LF not preceded by a CR, or 0 when every LF ends a CRLF.
    static func firstBareLF(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var from = 0
        while let lf = ByteSearch.firstIndex(of: 10, in: bytes, from: from, to: bytes.count) {
            if lf == 0 || bytes[lf - 1] != 13 { return lf + 1 }
            from = lf + 1
        }
        return 0
    }

    /// Bare CRs become CRLF; logical lines that are not UTF-8 are decoded as
    /// Windows-1252. Nil when nothing needs changing (a bare LF is read as it is, with a
    /// warning, since the scanner reads LF line ends).
    static func normaliseEncoding(_ bytes: UnsafeBufferPointer<UInt8>, _ warnings: inout WarningLog) -> ([UInt8], [Int]?)? {
        let valid = CalendarScanner.isValidUTF8(bytes)
        // One pass tells a clean file; the searches name the line end that is not CRLF.
        let crlf = ByteSearch.lineEndsAreCRLF(bytes)
        let bareCR = !crlf && hasBareCR(bytes)
        if valid, !bareCR {
            let bareLF = crlf ? 0 : firstBareLF(bytes)
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
            let isText = valid || CalendarScanner.isValidUTF8(UnsafeBufferPointer(rebasing: bytes[unit]))
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
}
