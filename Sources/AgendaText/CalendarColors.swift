/// A calendar's colour, the same on every surface: the calendar's own where it has one,
/// else one of a fixed palette chosen by a hash of its name, so that a calendar added
/// or removed never recolours the others.
public enum CalendarColors {
    /// A colour as red, green, blue (0-255).
    public struct RGB: Sendable, Hashable, CustomStringConvertible {
        public var r: Int, g: Int, b: Int
        public init(_ r: Int, _ g: Int, _ b: Int) { (self.r, self.g, self.b) = (r, g, b) }

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

        /// `#rrggbb`, lower case.
        public var description: String {
            "#" + [r, g, b].map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }

        /// The nearest colour of xterm's 6×6×6 cube (indexes 16-231).
        public var xterm256: Int {
            func level(_ v: Int) -> Int { v < 48 ? 0 : v < 115 ? 1 : (v - 35) / 40 }
            return 16 + 36 * level(r) + 6 * level(g) + level(b)
        }

        /// The nearest of the eight basic colours (curses' COLOR_BLACK … COLOR_WHITE;
        /// ANSI 30 + this): white for grey, black and white.
        public var basic: Int {
            let bits = (r > 127 ? 1 : 0) | (g > 127 ? 2 : 0) | (b > 127 ? 4 : 0)
            return bits == 7 || bits == 0 ? 7 : bits
        }

        /// WCAG's relative luminance.
        var luminance: Double {
            func linear(_ v: Int) -> Double {
                let c = Double(v) / 255
                return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
            }
            return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
        }

        /// WCAG's contrast ratio of two colours (1 to 21).
        public func contrast(with other: RGB) -> Double {
            let (x, y) = (luminance, other.luminance)
            return (max(x, y) + 0.05) / (min(x, y) + 0.05)
        }
    }

    /// The palette (Tableau 10) for calendars without a colour of their own.
    public static let palette: [RGB] = [
        "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
    ].map { RGB(hex: $0)! }

    /// The palette's index for a calendar named `name`: FNV-1a (32 bits) of its UTF-16
    /// code units, so that a browser computes the same (web/format.js).
    public static func index(for name: String) -> Int {
        var hash: UInt32 = 2_166_136_261
        for unit in name.utf16 { hash = (hash ^ UInt32(unit)) &* 16_777_619 }
        return Int(hash % UInt32(palette.count))
    }

    /// The one place a calendar's colour is decided: `own` (the calendar's colour, as
    /// status's `calendar_colors` gives it) when set, else the palette's for the name.
    public static func color(for name: String, own: RGB? = nil) -> RGB {
        own ?? palette[index(for: name)]
    }

    /// The backgrounds colours are written on: the dashboard's card and banner, light and
    /// dark (web/style.css), with what a colour is mixed toward on each.
    public static let grounds: [(card: RGB, banner: RGB, toward: Int)] = [
        (RGB(255, 255, 255), RGB(231, 238, 252), 0), (RGB(27, 32, 39), RGB(35, 48, 74), 255),
    ]

    /// `color` as ink for the light and the dark scheme: mixed a tenth at a time toward
    /// black (light) or white (dark) until it has 4.5:1 on both card and banner.
    public static func inks(_ color: RGB) -> (light: RGB, dark: RGB) {
        let both = grounds.map { ground in
            var c = color
            for _ in 0..<20 where min(c.contrast(with: ground.card), c.contrast(with: ground.banner)) < 4.5 {
                func mix(_ v: Int) -> Int { Int((Double(v) + Double(ground.toward - v) * 0.1).rounded(.toNearestOrAwayFromZero)) }
                c = RGB(mix(c.r), mix(c.g), mix(c.b))
            }
            return c
        }
        return (both[0], both[1])
    }
}
#if canImport(Glibc)
import Glibc
#endif
