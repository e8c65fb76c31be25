// Copied from Tests/DaemonTests/Support/Calendars.swift (test targets cannot share code).
/// One VEVENT for the test calendars.
struct TestEvent {
    var uid: String
    /// `20261130T100000Z` (timed, UTC) or `20261130` (all-day).
    var start: String
    var end: String?
    var summary: String
    var extra: [String] = []

    init(_ uid: String, _ start: String, _ end: String? = nil, _ summary: String, extra: [String] = []) {
        self.uid = uid
        self.start = start
        self.end = end
        self.summary = summary
        self.extra = extra
    }

    var lines: [String] {
        let allDay = !start.contains("T")
        var l = ["BEGIN:VEVENT", "UID:\(uid)", "DTSTAMP:20261101T000000Z",
                 allDay ? "DTSTART;VALUE=DATE:\(start)" : "DTSTART:\(start)"]
        if let end { l.append(allDay ? "DTEND;VALUE=DATE:\(end)" : "DTEND:\(end)") }
        l.append("SUMMARY:\(summary)")
        l += extra
        l.append("END:VEVENT")
        return l
    }
}

/// A VCALENDAR (CRLF, lines folded at 75 octets) with `events`.
func icsCalendar(_ events: [TestEvent]) -> String {
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//eventd daemon tests//EN"]
    for e in events { lines += e.lines }
    lines.append("END:VCALENDAR")
    var text = ""
    for line in lines {
        // ASCII only here, so characters are octets.
        var rest = Substring(line)
        var first = true
        while !rest.isEmpty {
            let width = first ? 75 : 74
            text += (first ? "" : " ") + rest.prefix(width) + "\r\n"
            rest = rest.dropFirst(width)
            first = false
        }
    }
    return text
}
