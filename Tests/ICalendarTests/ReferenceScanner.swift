@testable import ICalendar

// `CalendarScanner.scan` as it was before the clean-file fast paths (memchr for line ends,
// one NUL search for the file, no array or trimmed copy for a BEGIN/END value): byte by
// byte, kept verbatim as the reference the differential tests hold the fast scan to.

enum ReferenceScanner {
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

        while position < bytes.count {
            lineNumber += 1
            let lineStart = position
            var end = position
            while end < bytes.count, bytes[end] != 10 { end += 1 }
            position = end < bytes.count ? end + 1 : end
            var contentEnd = end
            if contentEnd > lineStart, bytes[contentEnd - 1] == 13 { contentEnd -= 1 }
            let length = contentEnd - lineStart
            if (lineStart..<contentEnd).contains(where: { bytes[$0] == 0 }) {
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
            while i < contentEnd, CalendarScanner.isNameByte(bytes[i]) { i += 1 }
            if i == lineStart {
                let hint = stack.isEmpty && !sawCalendar ? "not an iCalendar file (expected BEGIN:VCALENDAR)" : "malformed content line: missing property name"
                throw ICalendarSyntaxError(line: lineNumber, message: hint)
            }
            if i < contentEnd, bytes[i] != 58, bytes[i] != 59 {
                let hint = stack.isEmpty && !sawCalendar ? "not an iCalendar file (expected BEGIN:VCALENDAR)" : "malformed content line: invalid character in property name"
                throw ICalendarSyntaxError(line: lineNumber, message: hint)
            }
            let colon = (i..<contentEnd).first(where: { bytes[$0] == 58 })
            pendingColon = colon != nil
            // Only BEGIN, END and calendar-level X-WR-* lines matter here; compare bytes
            // rather than building a String for every line's name.
            let nameLength = i - lineStart
            let isBegin = nameLength == 5 && CalendarScanner.matchesUpper(bytes, lineStart, "BEGIN")
            let isEnd = nameLength == 3 && CalendarScanner.matchesUpper(bytes, lineStart, "END")
            let isCalendarX = stack.count == 1 && nameLength > 5 && CalendarScanner.matchesUpper(bytes, lineStart, "X-WR-")
            let name = isBegin ? "BEGIN" : isEnd ? "END" : isCalendarX ? CalendarScanner.upperASCII(bytes, lineStart..<i) : ""

            if isBegin || isEnd {
                guard let colon else {
                    throw ICalendarSyntaxError(line: lineNumber, message: "malformed \(name) line: no ':'")
                }
                let value = CalendarScanner.upperASCII(bytes, (colon + 1)..<contentEnd).trimmingSpaces()
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
                    if stack.count >= CalendarScanner.maxDepth {
                        throw ICalendarSyntaxError(line: lineNumber, message: "components nested more than \(CalendarScanner.maxDepth) deep")
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
}
