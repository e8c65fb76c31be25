import AgendaText
import FeedProtocol
import Diagnostics

/// Renders a snapshot as a human agenda: a day header per section, then one line per
/// item, as AgendaText words them (the same as `watch` and `subscribe --format pretty`),
/// with ANSI colours when asked: each calendar's `CalendarColors` colour as the nearest
/// of the eight basic ones.
public struct AgendaFormatter: Sendable {
    /// Whether to write ANSI colours.
    public var color: Bool
    /// The calendars' own colours (the store's); the others take the palette's.
    public var calendarColors: [String: CalendarColors.RGB]

    /// A formatter, with or without colour.
    public init(color: Bool, calendarColors: [String: CalendarColors.RGB] = [:]) {
        self.color = color
        self.calendarColors = calendarColors
    }

    func style(_ text: String, _ code: String) -> String { color ? "\u{1B}[" + code + "m" + text + "\u{1B}[0m" : text }

    /// The agenda text of `snapshot`, one line per header and item.
    public func render(_ snapshot: AgendaSnapshot) -> String {
        // The zone first: the times below are wall-clock times there, not necessarily here.
        var lines = [style("Times in \(snapshot.view.timeZone.terminalSafe)", "2")]
        for section in snapshot.sections {
            lines.append("")
            lines.append(style(AgendaWords.dayHeader(section.date, label: section.label, today: snapshot.today), "1"))
            for item in section.items {
                lines.append(line(FeedItem(item.value)))
            }
        }
        if snapshot.sections.isEmpty { lines.append("nothing in the next \(snapshot.view.days) day\(snapshot.view.days == 1 ? "" : "s")") }
        return lines.joined(separator: "\n")
    }

    /// One item's line: `AgendaLine`'s pieces, coloured by their roles.
    func line(_ item: FeedItem) -> String {
        if item.kind == .placeholder { return "  " + style(AgendaLine.nothing, "2") }
        let line = AgendaLine(item)
        let ink = CalendarColors.color(for: line.calendar, own: calendarColors[line.calendar])
        return "  " + (line.head + line.tail).map { part in
            switch part.role {
            case .bullet: return style(part.text, "3\(ink.basic)")
            case .location, .mark: return style(part.text, "2")
            case .time, .space, .summary, .tentative: return part.text
            }
        }.joined()
    }
}
