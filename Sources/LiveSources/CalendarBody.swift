/// Checks on a fetched body before it is parsed, and the refresh interval a calendar
/// asks for. A server that answers `200` with an HTML login page, or a body cut off
/// mid-transfer, must not replace the calendar's events.
public enum CalendarBody {
    /// Throws unless `bytes` look like one whole iCalendar object: `BEGIN:VCALENDAR`
    /// first (after an optional BOM and blank lines) and `END:VCALENDAR` last, or bare
    /// VEVENTs (`BEGIN:VEVENT` first, `END:VEVENT` last), which the import reads too.
    public static func check(_ bytes: [UInt8], shown: String) throws(FetchFailure) {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < bytes.count, isSpace(bytes[start]) { start += 1 }
        let bare = hasPrefix(bytes, at: start, "BEGIN:VEVENT")
        guard bare || hasPrefix(bytes, at: start, "BEGIN:VCALENDAR") else {
            let html = hasPrefix(bytes, at: start, "<") ? " (an HTML page?)" : ""
            throw FetchFailure(.notICalendar, "\(shown): not iCalendar\(html)")
        }
        var end = bytes.count
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        let tail: StaticString = bare ? "END:VEVENT" : "END:VCALENDAR"
        guard end - start >= tail.utf8CodeUnitCount, hasPrefix(bytes, at: end - tail.utf8CodeUnitCount, tail) else {
            throw FetchFailure(.truncated, "\(shown): truncated iCalendar (no \(tail) at the end)")
        }
    }

    /// The refresh interval the calendar asks for, seconds: `REFRESH-INTERVAL`
    /// (RFC 7986) or `X-PUBLISHED-TTL`, as a DURATION, from the lines before the first
    /// component; nil when neither is there or readable.
    public static func refreshInterval(_ bytes: [UInt8]) -> Int64? {
        var found: Int64?
        var lineStart = 0
        var index = 0
        // The header is short; a calendar that never starts a component is looked at
        // for 64 KiB at most.
        let limit = min(bytes.count, 64 << 10)
        while index <= limit {
            if index == limit || bytes[index] == 10 {
                let line = String(decoding: bytes[lineStart..<index], as: UTF8.self)
                    .trimmingSuffix { $0 == "\r" || $0 == " " }
                let upper = line.uppercased()
                if upper.hasPrefix("BEGIN:V"), upper != "BEGIN:VCALENDAR" { break }
                if upper.hasPrefix("REFRESH-INTERVAL") || upper.hasPrefix("X-PUBLISHED-TTL"),
                   let colon = line.lastIndex(of: ":"),
                   let seconds = DurationText.iso8601(String(line[line.index(after: colon)...])) {
                    // REFRESH-INTERVAL is the standard; it wins over the older X- property.
                    if upper.hasPrefix("REFRESH-INTERVAL") || found == nil { found = seconds }
                }
                lineStart = index + 1
            }
            index += 1
        }
        return found
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 32 || b == 9 || b == 10 || b == 13 }

    private static func hasPrefix(_ bytes: [UInt8], at offset: Int, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard offset >= 0, bytes.count - offset >= count else { return false }
        return text.withUTF8Buffer { expected in
            for i in 0..<count {
                var b = bytes[offset + i]
                if b >= 97 && b <= 122 { b -= 32 }
                if b != expected[i] { return false }
            }
            return true
        }
    }
}

extension String {
    /// The string without the trailing characters that match.
    func trimmingSuffix(while matches: (Character) -> Bool) -> String {
        var copy = self
        while let last = copy.last, matches(last) { copy.removeLast() }
        return copy
    }
}
