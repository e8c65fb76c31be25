import ICalendar

/// How times and countdowns are worded, the same in a status bar and a reminder.
public enum EventWording {
    /// `HH:MM` in `zone`.
    public static func clock(_ instant: Int64, _ zone: Zone) -> String { AgendaWords.clock(instant, zone) }

    /// Whole minutes, rounded up: a countdown says "1 min" until the moment itself.
    public static func minutes(_ seconds: Int64) -> Int64 { seconds <= 0 ? 0 : (seconds + 59) / 60 }

    /// `25 min`, `1 h`, `2 h 5 min`.
    public static func phrase(_ seconds: Int64) -> String {
        let m = minutes(seconds)
        if m < 60 { return "\(m) min" }
        return m % 60 == 0 ? "\(m / 60) h" : "\(m / 60) h \(m % 60) min"
    }
}
