import Diagnostics
import FeedProtocol

/// One event's line of the agenda, its pieces in order, ready for a surface to style:
///
///     time-column ● summary (tentative) [progress]  location  mark
///
/// (`head`, then `tail`); `agenda` writes them with ANSI colours, `watch` as styled
/// spans. Calendar text is made inert here (`TerminalText`), once.
public struct AgendaLine: Sendable, Equatable {
    public var time: ItemTime
    /// The summary, `(no title)` when there is none; made safe for a terminal.
    public var summary: String
    /// The calendar's name as the feed gives it (the colour's key: `CalendarColors`).
    public var calendar: String
    /// The iCalendar STATUS was TENTATIVE: ` (tentative)` follows the summary.
    public var tentative: Bool
    /// The location made safe, nil when there is none.
    public var location: String?

    /// The bullet in the calendar's colour between the time and the summary.
    public static let bullet = "●"
    /// What a date without events shows (the feed's placeholder).
    public static let nothing = "(nothing)"

    public init(_ item: FeedItem) {
        time = ItemTime(item)
        summary = (item.summary ?? "(no title)").terminalSafe
        calendar = item.calendar ?? ""
        tentative = item.status?.lowercased() == "tentative"
        location = item.location.flatMap { $0.isEmpty ? nil : $0.terminalSafe }
    }

    /// All day or continuing over midnight: `watch` draws it as a bar.
    public var isBanner: Bool { time.shape != .range && time.shape != .moment }

    /// A piece of the line, for a surface to style by its role.
    public struct Part: Sendable, Equatable {
        public enum Role: Sendable, Equatable {
            /// The time column (`ItemTime.column`).
            case time
            /// Spaces between pieces.
            case space
            /// `●`, in the calendar's colour.
            case bullet
            case summary
            /// ` (tentative)`.
            case tentative
            case location
            /// `←`, `→`, `↔` (`ItemTime.mark`).
            case mark
        }

        public var role: Role
        public var text: String
        init(_ role: Role, _ text: String) { (self.role, self.text) = (role, text) }
    }

    /// The line's first pieces: time, bullet, summary, `(tentative)`. (`watch` puts the
    /// current event's progress after them.)
    public var head: [Part] {
        var parts = [Part(.time, time.column), Part(.space, " "), Part(.bullet, Self.bullet), Part(.space, " "), Part(.summary, summary)]
        if tentative { parts.append(Part(.tentative, " (tentative)")) }
        return parts
    }

    /// The line's last pieces: the location and the mark, each after two spaces.
    public var tail: [Part] {
        var parts: [Part] = []
        if let location { parts += [Part(.space, "  "), Part(.location, location)] }
        if let mark = time.mark { parts += [Part(.space, "  "), Part(.mark, mark)] }
        return parts
    }

    /// The line without colours, indented, as `agenda` writes it:
    /// `  09:00–10:00 ● Standup  Room 4`.
    public var plain: String { "  " + (head + tail).map(\.text).joined() }

    /// The item in one line of a change (`subscribe --format pretty`), `day` being its
    /// date's `AgendaWords.shortDate`: `09:00–10:00 Standup (Mon 30 Nov)`,
    /// `…–01:00 Maintenance ← (Sun 6 Dec)`.
    public func change(on day: String) -> String {
        "\(time.text) \(summary)\(time.mark.map { " " + $0 } ?? "") (\(day))"
    }
}
