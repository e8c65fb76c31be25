/// What a status bar shows and how: the choices of `eventctl subscribe --format
/// waybar|i3bar|line`.
public struct BarOptions: Sendable {
    /// When all-day events reach the bar's text.
    public enum AllDay: String, Sendable, CaseIterable {
        /// Only when nothing timed is left today (a holiday does not hide the next meeting).
        case whenFree = "when-free"
        /// Always, ahead of the current or next timed event.
        case always
    }

    /// An event starting within this many seconds is `soon`.
    public var soon: Int64
    public var allDay: AllDay
    /// The text of the current or next event; nil: the built-in wording.
    public var template: BarTemplate?

    public init(soon: Int64 = 15 * 60, allDay: AllDay = .whenFree, template: BarTemplate? = nil) {
        self.soon = soon
        self.allDay = allDay
        self.template = template
    }

    /// `15m`, `1h`, `90s`, `1h30m` or a bare number of minutes, in seconds; nil if unreadable.
    public static func duration(_ text: String) -> Int64? {
        if let minutes = Int64(text), minutes >= 0 { return minutes * 60 }
        var total: Int64 = 0
        var number: Int64?
        for c in text {
            if let d = c.wholeNumberValue, c.isASCII {
                number = (number ?? 0) * 10 + Int64(d)
                if number! > 10_000_000 { return nil }
                continue
            }
            guard let n = number else { return nil }
            switch c {
            case "s": total += n
            case "m": total += n * 60
            case "h": total += n * 3600
            case "d": total += n * 86_400
            default: return nil
            }
            number = nil
        }
        return number == nil && !text.isEmpty ? total : nil
    }
}
