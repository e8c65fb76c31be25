// The one calendar-fixture writer of the tests: hand-written VEVENTs, wrapped in a
// VCALENDAR with CRLF line ends and folding, as a real calendar program writes them.

/// One VEVENT for the test calendars.
public struct TestEvent: Sendable {
    /// The event's UID.
    public var uid: String
    /// `20261130T100000Z` (timed, UTC) or `20261130` (all-day).
    public var start: String
    /// Like `start`; nil for none.
    public var end: String?
    /// The SUMMARY.
    public var summary: String
    /// Further content lines, as written (e.g. `RRULE:FREQ=DAILY`).
    public var extra: [String] = []

    /// An event; `end` and `extra` are optional.
    public init(_ uid: String, _ start: String, _ end: String? = nil, _ summary: String, extra: [String] = []) {
        self.uid = uid
        self.start = start
        self.end = end
        self.summary = summary
        self.extra = extra
    }

    /// The unfolded content lines of the VEVENT.
    public var lines: [String] {
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
public func icsCalendar(_ events: [TestEvent], prodID: String = "-//eventd daemon tests//EN") -> String {
    var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:\(prodID)"]
    for e in events { lines += e.lines }
    lines.append("END:VCALENDAR")
    return icsText(lines)
}

/// A VCALENDAR around VEVENT bodies given as text, one content line per `\n`-separated
/// line (no folding: the lines are written as they are).
public func icsCalendar(bodies: [String], prodID: String = "-//eventd tests//EN") -> String {
    icsCalendar(events: bodies.map { $0.split(separator: "\n").map(String.init) }, prodID: prodID)
}

/// A VCALENDAR around VEVENT bodies given as content lines; `header` lines (properties,
/// VTIMEZONEs) come first. No folding: the lines are written as they are.
public func icsCalendar(events: [[String]], header: [String] = [], prodID: String = "-//eventd tests//EN") -> String {
    icsCalendar(lines: events.flatMap { ["BEGIN:VEVENT"] + $0 + ["END:VEVENT"] }, header: header, prodID: prodID)
}

/// A VCALENDAR: `header` lines, then `body` (whole components), each line ended with
/// CRLF. No folding: the lines are written as they are.
public func icsCalendar(lines body: [String], header: [String] = [], prodID: String = "-//eventd tests//EN") -> String {
    (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:\(prodID)"] + header + body + ["END:VCALENDAR"]).map { $0 + "\r\n" }.joined()
}

/// Content lines joined with CRLF, each folded at 75 octets.
public func icsText(_ lines: [String]) -> String {
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
