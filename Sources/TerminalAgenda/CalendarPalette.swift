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
        // Direct colour only where terminfo says so (xterm-direct, or the entry
        // `directColorEntry` makes for COLORTERM): a COLORTERM alone would have curses
        // redefine the palette instead.
        if terminalColors >= 1 << 24 { return .trueColor }
        return terminalColors >= 256 ? .xterm256 : .basic
    }

    /// Whether to draw with 24-bit colour on a terminfo type of `terminalColors` colours
    /// that has no direct colour: COLORTERM says the terminal has it (`truecolor` or
    /// `24bit`, as terminals set it), on a type of 256 colours at least (terminfo asked
    /// only then).
    public static func wantsDirectColor(environment: [String: String], terminalColors: @autoclosure () -> Int) -> Bool {
        guard (environment["NO_COLOR"] ?? "").isEmpty,
              ["truecolor", "24bit"].contains((environment["COLORTERM"] ?? "").lowercased()) else { return false }
        let colors = terminalColors()
        return colors >= 256 && colors < 1 << 24
    }

    /// The terminfo source of `name`: the type `base` (every capability its own) with
    /// direct colour, `ESC [ 38;2;R;G;B m` for each of 2^24 colours (ncurses' `RGB`
    /// convention), as COLORTERM=truecolor promises it: the semicolon form, which every
    /// terminal that sets it reads (ncurses' xterm-direct uses the colon form, and is not
    /// in Debian's ncurses-base). Nil for a `base` that is not a plain terminfo name.
    public static func directColorEntry(name: String, base: String) -> String? {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.+-_")
        guard !base.isEmpty, base.count <= 64, base.allSatisfy(allowed.contains), base.first != "-" else { return nil }
        func direct(_ sgr: Int) -> String {
            "\\E[\(sgr);2;%p1%{65536}%/%d;%p1%{256}%/%{255}%&%d;%p1%{255}%&%dm"
        }
        return """
        \(name)|\(base) with direct colour (eventctl watch),
        \tcolors#0x1000000, pairs#0x10000, RGB,
        \tsetaf=\(direct(38)), setab=\(direct(48)), ccc@, initc@,
        \tuse=\(base),

        """
    }
}
