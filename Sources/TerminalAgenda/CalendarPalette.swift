import AgendaText

/// The calendars `watch` knows (for its list), their own colours, and how many colours
/// the terminal has.
public struct CalendarPalette: Sendable, Equatable {
    /// A colour as red, green, blue (AgendaText's, with the terminal's nearest).
    public typealias RGB = CalendarColors.RGB

    /// What the terminal can show.
    public enum Depth: Sendable, Equatable {
        /// No colour: NO_COLOR set, a dumb terminal, or one without colours.
        case none
        case basic
        case xterm256
        case trueColor
    }

    /// The calendars, sorted by name.
    public private(set) var names: [String]
    /// The calendars' own colours, as eventd's status gives them (`calendar_colors`).
    public var own: [String: RGB] = [:]

    public init(names: some Sequence<String>) {
        self.names = Array(Set(names)).sorted()
    }

    /// Adds calendars seen later (an event of a calendar unknown at the start).
    public mutating func learn(_ more: some Sequence<String>) {
        let all = Set(names).union(more)
        if all.count != names.count { names = all.sorted() }
    }

    /// The calendars eventd has now: one removed leaves the list (the `c` chooser).
    public mutating func follow(_ current: some Sequence<String>) {
        names = Array(Set(current)).sorted()
    }

    /// A calendar's colour: its own where eventd knows it (`own`), else the palette's
    /// for its name (`CalendarColors`, as `agenda` and the dashboard choose).
    public func color(for calendar: String) -> RGB {
        CalendarColors.color(for: calendar, own: own[calendar])
    }

    /// Status's `calendar_colors` (name -> "#rrggbb"), typed; values that are not `#rgb`
    /// or `#rrggbb` are left out (those calendars keep the palette's colour).
    public static func colors(from hex: [String: String]?) -> [String: RGB] {
        (hex ?? [:]).compactMapValues(RGB.init(hex:))
    }

    /// The terminal's colour depth from its environment and what terminfo says it has.
    public static func depth(environment: [String: String], terminalColors: Int) -> Depth {
        if !(environment["NO_COLOR"] ?? "").isEmpty { return .none }
        let term = environment["TERM"] ?? ""
        if term.isEmpty || term == "dumb" || terminalColors < 8 { return .none }
        // Direct colour only where terminfo says so (xterm-direct, COLORS = 2^24): a
        // COLORTERM alone would have curses redefine the palette instead.
        if terminalColors >= 1 << 24 { return .trueColor }
        return terminalColors >= 256 ? .xterm256 : .basic
    }
}
