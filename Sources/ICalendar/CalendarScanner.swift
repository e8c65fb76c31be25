/// A syntax error that makes a whole file unusable: not iCalendar, truncated, binary,
/// broken content lines.
public struct ICalendarSyntaxError: Error, Sendable, Equatable, LineMessage {
    /// 1-based line number in the file.
    public var line: Int
    /// What is wrong.
    public var message: String

    /// An error at `line`.
    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }
}

/// The byte range of one component in the file, and where it starts. 24 bytes: a
/// file's every VEVENT has one, held through the whole parse (what a block's UID takes
/// from `SharedUIDs` is kept beside the array, by index).
struct ComponentSlice {
    var range: Range<Int>
    private var storedLine: Int32
    private var storedCalendar: Int32

    /// The line the component's BEGIN is on.
    var line: Int {
        get { Int(storedLine) }
        set { storedLine = Int32(clamping: newValue) }
    }

    /// Which VCALENDAR of the file (0-based) holds it.
    var calendar: Int {
        get { Int(storedCalendar) }
        set { storedCalendar = Int32(clamping: newValue) }
    }

    init(range: Range<Int>, line: Int, calendar: Int = 0) {
        self.range = range
        storedLine = Int32(clamping: line)
        storedCalendar = Int32(clamping: calendar)
    }
}

/// The structure of a file found by one pass over its bytes: which components sit
/// directly inside each VCALENDAR, and the calendar-level properties eventd reads.
struct ScannedCalendar {
    var events: [ComponentSlice] = []
    var timezones: [ComponentSlice] = []
    var calendarProperties: [(name: String, value: String, line: Int, calendar: Int)] = []
    var warnings: [ImportIssue] = []
    /// Number of VCALENDAR objects in the file.
    var calendarCount = 0

    /// Line numbers of the repaired bytes turned into the file's own, with the repairs'
    /// warnings added in line order.
    mutating func mapLines(_ repair: RepairedInput) {
        if repair.lineMap != nil {
            for i in events.indices { events[i].line = repair.originalLine(events[i].line) }
            for i in timezones.indices { timezones[i].line = repair.originalLine(timezones[i].line) }
            for i in calendarProperties.indices { calendarProperties[i].line = repair.originalLine(calendarProperties[i].line) }
            for i in warnings.indices { warnings[i].line = repair.originalLine(warnings[i].line) }
        }
        if !repair.warnings.isEmpty {
            warnings = (repair.warnings + warnings).sorted { $0.line < $1.line }
        }
    }
}

extension ScannedCalendar {
    /// The VCALENDAR a bare VEVENT at `line` is read in (Evolution's store and many apps'
    /// fixtures write VEVENTs with none around them): one for all the file's bare events,
    /// `bare`, counted with the file's one warning when the first is met.
    mutating func calendar(forBareEventAt line: Int, _ bare: inout Int?) -> Int {
        if let bare { return bare }
        calendarCount += 1
        warnings.append(ImportIssue(line: line, message: CalendarScanner.bareEventWarning))
        bare = calendarCount - 1
        return calendarCount - 1
    }
}

/// Validates the line structure of an iCalendar file and slices out its components.
///
/// Runs on the bytes `InputRepair` left (UTF-8, no bare CR, broken folds joined, junk
/// lines dropped). Checks: no NUL bytes, every content line has a name and a `:`, BEGIN/END
/// balanced and matching, content only inside `VCALENDAR` or a bare `VEVENT`. Unfolding is
/// left to libical for the component text; this pass only needs to know where lines start.
enum CalendarScanner {
    static let maxDepth = 16

    /// The warning for a file whose VEVENTs have no VCALENDAR around them (once per file).
    static let bareEventWarning = "VEVENT with no VCALENDAR around it; read as if in one"

    static func scan(_ bytes: UnsafeBufferPointer<UInt8>) throws(ICalendarSyntaxError) -> ScannedCalendar {
        var result = ScannedCalendar()
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        if (start..<bytes.count).allSatisfy({ bytes[$0] == 32 || bytes[$0] == 9 || bytes[$0] == 13 || bytes[$0] == 10 }) {
            throw ICalendarSyntaxError(line: 1, message: "empty file; expected an iCalendar file starting with BEGIN:VCALENDAR")
        }

        var stack: [(name: String, line: Int, offset: Int)] = []
        var lineNumber = 0
        var position = start
        var sawCalendar = false
        // The logical line being read: where it started and whether its ':' was seen.
        var pendingLine = 0
        var pendingColon = true
        var pendingCalendarProperty: (name: String, value: [UInt8], line: Int)?
        // The VCALENDAR being read (0-based), and the one the file's bare VEVENTs share.
        var calendar = 0
        var bareCalendar: Int?

        func finishPending() throws(ICalendarSyntaxError) {
            if !pendingColon {
                throw ICalendarSyntaxError(line: pendingLine, message: "malformed content line: no ':' after the property name")
            }
            if let p = pendingCalendarProperty {
                result.calendarProperties.append((p.name, String(decoding: p.value, as: UTF8.self), p.line, calendar))
                pendingCalendarProperty = nil
            }
        }

        // The first NUL byte, looked for once: the lines before it have none, so the line
        // that holds it is the first whose content reaches past it. (It is never a line's
        // CR or LF, nor in the byte-order mark.)
        let firstNUL = ByteSearch.index(of: 0, in: bytes, from: start, to: bytes.count)

        while position < bytes.count {
            lineNumber += 1
            let lineStart = position
            let end = ByteSearch.index(of: 10, in: bytes, from: position, to: bytes.count)
            position = end < bytes.count ? end + 1 : end
            var contentEnd = end
            if contentEnd > lineStart, bytes[contentEnd - 1] == 13 { contentEnd -= 1 }
            let length = contentEnd - lineStart
            if firstNUL < contentEnd {
                throw ICalendarSyntaxError(line: lineNumber, message: "binary data (NUL byte); this is not an iCalendar file")
            }
            if length == 0 { continue }
            let first = bytes[lineStart]
            if first == 32 || first == 9 {
                // Continuation of the previous logical line.
                if pendingLine == 0 {
                    throw ICalendarSyntaxError(line: lineNumber, message: "continuation line with no property before it")
                }
                if !pendingColon, (lineStart..<contentEnd).contains(where: { bytes[$0] == 58 }) { pendingColon = true }
                if pendingCalendarProperty != nil {
                    pendingCalendarProperty!.value.append(contentsOf: bytes[(lineStart + 1)..<contentEnd])
                }
                continue
            }
            try finishPending()
            pendingLine = lineNumber
            // Property name.
            var i = lineStart
            while i < contentEnd, isNameByte(bytes[i]) { i += 1 }
            if i == lineStart {
                let hint = stack.isEmpty && !sawCalendar ? "not an iCalendar file (expected BEGIN:VCALENDAR)" : "malformed content line: missing property name"
                throw ICalendarSyntaxError(line: lineNumber, message: hint)
            }
            if i < contentEnd, bytes[i] != 58, bytes[i] != 59 {
                let hint = stack.isEmpty && !sawCalendar ? "not an iCalendar file (expected BEGIN:VCALENDAR)" : "malformed content line: invalid character in property name"
                throw ICalendarSyntaxError(line: lineNumber, message: hint)
            }
            // Most lines have no parameters: the ':' comes right after the name.
            let colon = i < contentEnd && bytes[i] == 58 ? i : ByteSearch.firstIndex(of: 58, in: bytes, from: i, to: contentEnd)
            pendingColon = colon != nil
            // Only BEGIN, END and calendar-level X-WR-* and colour lines matter here; compare bytes
            // rather than building a String for every line's name.
            let nameLength = i - lineStart
            let isBegin = nameLength == 5 && matchesUpper(bytes, lineStart, "BEGIN")
            let isEnd = nameLength == 3 && matchesUpper(bytes, lineStart, "END")
            // The calendar's own properties eventd reads: X-WR-*, and its colour (RFC 7986
            // COLOR, Apple's X-APPLE-CALENDAR-COLOR).
            let isCalendarX = stack.count == 1 && ((nameLength > 5 && matchesUpper(bytes, lineStart, "X-WR-"))
                || (nameLength == 5 && matchesUpper(bytes, lineStart, "COLOR"))
                || (nameLength == 22 && matchesUpper(bytes, lineStart, "X-APPLE-CALENDAR-COLOR")))
            let name = isBegin ? "BEGIN" : isEnd ? "END" : isCalendarX ? upperASCII(bytes, lineStart..<i) : ""

            if isBegin || isEnd {
                guard let colon else {
                    throw ICalendarSyntaxError(line: lineNumber, message: "malformed \(name) line: no ':'")
                }
                let value = componentName(bytes, (colon + 1)..<contentEnd)
                guard !value.isEmpty else {
                    throw ICalendarSyntaxError(line: lineNumber, message: "\(name) without a component name")
                }
                if name == "BEGIN" {
                    if stack.isEmpty, value == "VEVENT" {
                        calendar = result.calendar(forBareEventAt: lineNumber, &bareCalendar)
                        stack.append(("VCALENDAR", 0, lineStart)) // ends with the VEVENT (line 0)
                    } else if stack.isEmpty, value != "VCALENDAR" {
                        throw ICalendarSyntaxError(line: lineNumber, message: "not an iCalendar file: expected BEGIN:VCALENDAR, found BEGIN:\(value)")
                    }
                    if !stack.isEmpty, value == "VCALENDAR" {
                        throw ICalendarSyntaxError(line: lineNumber, message: "BEGIN:VCALENDAR nested inside BEGIN:\(stack.last!.name) (line \(stack.last!.line))")
                    }
                    if stack.count >= maxDepth {
                        throw ICalendarSyntaxError(line: lineNumber, message: "components nested more than \(maxDepth) deep")
                    }
                    sawCalendar = true
                    if stack.isEmpty {
                        result.calendarCount += 1
                        calendar = result.calendarCount - 1
                    }
                    stack.append((value, lineNumber, lineStart))
                } else {
                    guard let open = stack.last else {
                        throw ICalendarSyntaxError(line: lineNumber, message: "END:\(value) without a matching BEGIN")
                    }
                    if open.name != value {
                        // END naming an outer component: the inner one was never closed.
                        if stack.contains(where: { $0.name == value }) || stack.count == 1 {
                            throw ICalendarSyntaxError(line: lineNumber, message: "END:\(value) does not match BEGIN:\(open.name) at line \(open.line) (missing END:\(open.name)?)")
                        }
                        // A misspelt END (END:VTOOD for BEGIN:VTODO) closes what is open.
                        result.warnings.append(ImportIssue(line: lineNumber, message: "END:\(value) does not match BEGIN:\(open.name) at line \(open.line); read as END:\(open.name)"))
                    }
                    stack.removeLast()
                    if stack.count == 1 {
                        let slice = ComponentSlice(range: open.offset..<position, line: open.line,
                                                   calendar: calendar)
                        if open.name == "VEVENT" { result.events.append(slice) }
                        else if open.name == "VTIMEZONE" { result.timezones.append(slice) }
                        // The VCALENDAR a bare VEVENT was read in (line 0) ends with it.
                        if stack[0].line == 0 { stack.removeLast() }
                    }
                }
                continue
            }
            if stack.isEmpty {
                let message = sawCalendar ? "content after END:VCALENDAR" : "not an iCalendar file (expected BEGIN:VCALENDAR)"
                throw ICalendarSyntaxError(line: lineNumber, message: message)
            }
            if isCalendarX, let colon {
                pendingCalendarProperty = (name, Array(bytes[(colon + 1)..<contentEnd]), lineNumber)
            }
        }
        try finishPending()
        if let open = stack.last {
            throw ICalendarSyntaxError(line: max(lineNumber, 1),
                                       message: "unexpected end of file: BEGIN:\(open.name) at line \(open.line) has no END:\(open.name) (truncated file?)")
        }
        if !sawCalendar {
            throw ICalendarSyntaxError(line: max(lineNumber, 1), message: lineNumber == 0 || bytes.count == start
                                       ? "empty file; expected an iCalendar file starting with BEGIN:VCALENDAR"
                                       : "not an iCalendar file (expected BEGIN:VCALENDAR)")
        }
        return result
    }

    /// True when the bytes at `offset` spell `upper` (ASCII, case-insensitively).
    @inline(__always)
    static func matchesUpper(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int, _ upper: StaticString) -> Bool {
        let count = upper.utf8CodeUnitCount
        guard offset + count <= bytes.count else { return false }
        let u = upper.utf8Start
        for k in 0..<count {
            var c = bytes[offset + k]
            if c >= 97 && c <= 122 { c -= 32 }
            if c != u[k] { return false }
        }
        return true
    }

    @inline(__always)
    static func isNameByte(_ c: UInt8) -> Bool {
        (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 45
    }

    static func upperASCII(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        var out = [UInt8]()
        out.reserveCapacity(range.count)
        for i in range {
            let c = bytes[i]
            out.append(c >= 97 && c <= 122 ? c - 32 : c)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The value of a BEGIN or END line: upper-cased, without the spaces and tabs around it.
    static func componentName(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        guard !range.contains(where: { bytes[$0] >= 0x80 }) else {
            // Trimmed as characters: a space followed by a combining mark is one
            // character, not a space.
            return upperASCII(bytes, range).trimmingSpaces()
        }
        // ASCII (every byte its own character, as the content holds no LF): trim the
        // bytes and build the String once, with no array in between (a name such as
        // VEVENT is short enough to be stored in the String itself).
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, bytes[lower] == 32 || bytes[lower] == 9 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 32 || bytes[upper - 1] == 9 { upper -= 1 }
        return String(unsafeUninitializedCapacity: upper - lower) { out in
            for k in lower..<upper {
                let c = bytes[k]
                out[k - lower] = c >= 97 && c <= 122 ? c - 32 : c
            }
            return upper - lower
        }
    }

    /// True when `bytes` are UTF-8 (a fold may split a character: unfolding joins it).
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            // Most of a calendar is ASCII: skip it a word at a time.
            i = ByteSearch.asciiWordsEnd(bytes, from: i)
            guard i < n else { break }
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
                j += foldLength(bytes, at: j)
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

    /// A component's text. Folds that split a multi-byte character (which the validator
    /// accepts) are joined, so that the text stays the same characters instead of
    /// decoding each half to U+FFFD.
    static func decodeText(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        // A fold that splits a character is followed by a continuation byte, so ASCII
        // text (most blocks) has none; otherwise each line end is found with memchr.
        var splitFold = false
        var end = ByteSearch.asciiWordsEnd(bytes, from: 0)
        while end < bytes.count, bytes[end] < 0x80 { end += 1 }
        var from = end < bytes.count ? 0 : bytes.count
        while let i = ByteSearch.firstIndex(of: 10, in: bytes, from: from, to: bytes.count) {
            if i + 2 < bytes.count, bytes[i + 1] == 32 || bytes[i + 1] == 9, bytes[i + 2] & 0xC0 == 0x80 { splitFold = true; break }
            from = i + 1
        }
        guard splitFold else { return String(decoding: bytes, as: UTF8.self) }
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let fold = foldLength(bytes, at: i)
            if fold > 0, i + fold < bytes.count, bytes[i + fold] & 0xC0 == 0x80 { i += fold; continue }
            out.append(bytes[i])
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The length of a fold (CRLF or LF followed by a space or tab) at `offset`, or 0.
    static func foldLength(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int {
        var k = offset
        if k < bytes.count, bytes[k] == 13 { k += 1 }
        guard k + 1 < bytes.count, bytes[k] == 10, bytes[k + 1] == 32 || bytes[k + 1] == 9 else { return 0 }
        return k + 2 - offset
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
