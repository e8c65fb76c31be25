import ICalendar
import CanonicalJSON
import Diagnostics

/// Renders a snapshot as a human agenda: a day header per section, then one line
/// per item, all-day items first, times aligned, locations dimmed, multi-day marks;
/// calendar text made safe for the terminal (`TerminalText`).
public struct AgendaFormatter: Sendable {
    /// Whether to write ANSI colours.
    public var color: Bool

    /// A formatter, with or without colour.
    public init(color: Bool) { self.color = color }

    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August",
                         "September", "October", "November", "December"]
    static let palette = ["\u{1B}[34m", "\u{1B}[32m", "\u{1B}[35m", "\u{1B}[36m", "\u{1B}[33m", "\u{1B}[31m"]

    func style(_ text: String, _ code: String) -> String { color ? code + text + "\u{1B}[0m" : text }

    /// `Today, Sunday 29 November` (with the year when it is not `today`'s year).
    public static func dayHeader(_ date: CivilDate, label: String?, today: CivilDate) -> String {
        var text = "\(weekdays[date.weekday]) \(date.day) \(months[date.month - 1])"
        if date.year != today.year { text += " \(date.year)" }
        if let label { text = label.prefix(1).uppercased() + label.dropFirst() + ", " + text }
        return text
    }

    /// The agenda text of `snapshot`, one line per header and item.
    public func render(_ snapshot: AgendaSnapshot) -> String {
        // The zone first: the times below are wall-clock times there, not necessarily here.
        var lines = [style("Times in \(snapshot.view.timeZone.terminalSafe)", "\u{1B}[2m")]
        var calendarColors: [String: String] = [:]
        for section in snapshot.sections {
            lines.append("")
            lines.append(style(Self.dayHeader(section.date, label: section.label, today: snapshot.today), "\u{1B}[1m"))
            for item in section.items {
                lines.append(line(item.value, calendarColors: &calendarColors))
            }
        }
        if snapshot.sections.isEmpty { lines.append("nothing in the next \(snapshot.view.days) day\(snapshot.view.days == 1 ? "" : "s")") }
        return lines.joined(separator: "\n")
    }

    func line(_ item: JSONValue, calendarColors: inout [String: String]) -> String {
        if item["kind"]?.stringValue == "placeholder" { return "  " + style("(nothing)", "\u{1B}[2m") }
        let calendar = item["calendar"]?.stringValue ?? ""
        if calendarColors[calendar] == nil {
            calendarColors[calendar] = Self.palette[calendarColors.count % Self.palette.count]
        }
        let allDay = item["all_day"]?.boolValue ?? false
        let from = item["continues_from_previous_day"]?.boolValue ?? false
        let to = item["continues_to_next_day"]?.boolValue ?? false
        var time: String
        if allDay {
            time = "all day    "
        } else {
            let start = from ? "…    " : clock(item["start"]?.stringValue)
            let end = to ? "…" : clock(item["end"]?.stringValue)
            // A zero-length event (a deadline, a reminder) is a moment: `18:00`.
            let instant = !from && !to && item["start"]?.stringValue == item["end"]?.stringValue
            time = instant ? start : start + "–" + end
            time += String(repeating: " ", count: max(0, 11 - time.count))
        }
        var text = "  " + time + " " + style("●", calendarColors[calendar]!) + " " + (item["summary"]?.stringValue ?? "(no title)").terminalSafe
        if item["status"]?.stringValue == "tentative" { text += " (tentative)" }
        if let location = item["location"]?.stringValue, !location.isEmpty {
            text += "  " + style(location.terminalSafe, "\u{1B}[2m")
        }
        if from || to { text += style(from && to ? "  ↔" : from ? "  ←" : "  →", "\u{1B}[2m") }
        return text
    }

    /// `HH:MM` from an RFC 3339 time.
    func clock(_ rfc3339: String?) -> String {
        guard let s = rfc3339, s.count >= 16 else { return "??:??" }
        let start = s.index(s.startIndex, offsetBy: 11)
        return String(s[start..<s.index(start, offsetBy: 5)])
    }
}
