
/// Calendar colours and how many colours the terminal has.
public struct CalendarPalette: Sendable, Equatable {
    /// A colour as red, green, blue (0-255).
    public struct RGB: Sendable, Hashable {
        public var r: Int, g: Int, b: Int
        public init(_ r: Int, _ g: Int, _ b: Int) { (self.r, self.g, self.b) = (r, g, b) }

        /// The nearest colour of xterm's 6×6×6 cube (indexes 16-231).
        public var xterm256: Int {
            func level(_ v: Int) -> Int { v < 48 ? 0 : v < 115 ? 1 : (v - 35) / 40 }
            return 16 + 36 * level(r) + 6 * level(g) + level(b)
        }

        /// The nearest of the eight basic colours (curses' COLOR_BLACK … COLOR_WHITE).
        public var basic: Int {
            let bits = (r > 127 ? 1 : 0) | (g > 127 ? 2 : 0) | (b > 127 ? 4 : 0)
            return bits == 7 || bits == 0 ? 7 : bits
        }

        /// `#rgb` or `#rrggbb` (either case); nil for anything else (a CSS colour name).
        public init?(hex: String) {
            let digits = hex.dropFirst()
            guard hex.hasPrefix("#"), digits.count == 3 || digits.count == 6, digits.allSatisfy(\.isHexDigit),
                  let value = Int(digits, radix: 16) else { return nil }
            if digits.count == 3 {
                self.init((value >> 8) * 17, (value >> 4 & 15) * 17, (value & 15) * 17)
            } else {
                self.init(value >> 16, value >> 8 & 255, value & 255)
            }
        }
    }

    /// What the terminal can show.
    public enum Depth: Sendable, Equatable {
        /// No colour: NO_COLOR set, a dumb terminal, or one without colours.
        case none
        case basic
        case xterm256
        case trueColor
    }

    /// Colours in the order calendars get them (by name), distinct on dark and light
    /// backgrounds alike.
    public static let colors: [RGB] = [
        RGB(66, 133, 244), RGB(52, 168, 83), RGB(171, 71, 188), RGB(0, 172, 193),
        RGB(251, 140, 0), RGB(229, 57, 53), RGB(124, 179, 66), RGB(216, 27, 96),
    ]

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

    /// The one place a calendar's colour is decided: its own where eventd knows it
    /// (`own`), else the palette's, in name order.
    public func color(for calendar: String) -> RGB {
        if let mine = own[calendar] { return mine }
        let index = names.firstIndex(of: calendar) ?? abs(calendar.unicodeScalars.reduce(0) { $0 &* 31 &+ Int($1.value) })
        return Self.colors[index % Self.colors.count]
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
