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
    /// The number of VEVENT blocks in the file (set in a streamed parse's header, so a
    /// consumer can size its tables once).
    public var blockCount: Int = 0

    /// An empty result.
    public init() {}
}
