/// A problem with one component that does not stop the import (it is skipped or
/// partly ignored), reported with the line of its `BEGIN`.
public struct ImportIssue: Sendable, Equatable, LineMessage {
    /// The line of the component's `BEGIN`.
    public var line: Int
    /// What was skipped or ignored, and why.
    public var message: String

    /// An issue at `line`.
    public init(line: Int, message: String) { (self.line, self.message) = (line, message) }
}

/// The usable content of one iCalendar file.
public struct ParsedCalendar: Sendable {
    /// Every usable VEVENT, in file order.
    public var events: [EventRecord] = []
    /// In-file VTIMEZONE definitions referenced by `events`, keyed by `Zone.key`, with their TZID.
    public var timezones: [String: (tzid: String, text: String)] = [:]
    /// Warnings, in file order.
    public var warnings: [ImportIssue] = []
    /// Components that could not be used at all.
    public var skipped: Int = 0
    /// `X-WR-CALNAME`, if present.
    public var calendarName: String?
    /// `X-WR-TIMEZONE`, if present.
    public var defaultTimeZone: String?
    /// The calendar's own colour (RFC 7986 `COLOR`, else Apple's `X-APPLE-CALENDAR-COLOR`,
    /// which Apple, Nextcloud and Google exports carry): `#rrggbb` or a CSS colour name.
    public var calendarColor: String?
    /// The number of VEVENT blocks in the file (set in a streamed parse's header, so a
    /// consumer can size its tables once).
    public var blockCount: Int = 0

    /// An empty result.
    public init() {}
}

/// A calendar's colour as eventd keeps it: `#rrggbb`, or a CSS colour name (RFC 7986
/// allows only those; the page resolves them).
public enum CalendarColor {
    /// `value` as `#rrggbb` (from `#rgb`, `#rrggbb` or Apple's `#rrggbbaa`) or a
    /// lowercase colour name; nil for anything else.
    public static func normalized(_ value: String) -> String? {
        let text = value.trimmingSpaces().lowercased()
        guard text.hasPrefix("#") else {
            return (3...20).contains(text.count) && text.allSatisfy({ $0 >= "a" && $0 <= "z" }) ? text : nil
        }
        let digits = Array(text.dropFirst())
        guard digits.allSatisfy(\.isHexDigit) else { return nil }
        switch digits.count {
        case 3: return "#" + String(digits.flatMap { [$0, $0] })
        case 6, 8: return "#" + String(digits.prefix(6))
        default: return nil
        }
    }
}

/// A message about a line of a file, described as `LINE: MESSAGE`.
public protocol LineMessage: CustomStringConvertible {
    /// The 1-based line number.
    var line: Int { get }
    /// The message.
    var message: String { get }
}

extension LineMessage {
    /// `LINE: MESSAGE`.
    public var description: String { "\(line): \(message)" }
}
