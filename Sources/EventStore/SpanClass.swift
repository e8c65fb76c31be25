import ICalendar

/// The window index groups events by how long their span is: class `k` holds spans of
/// at most `60 << k` minutes (1 h, 2 h, 4 h, ... ~114 years); `open` holds open-ended
/// series. An event of class `k` can overlap `[a, b)` only if it starts in
/// `[a - (60 << k), b)`, which is one range scan of `(span_class, first_minute)`.
public enum SpanClass {
    /// The class of records with no end (open recurrences).
    public static let open = 63
    /// The largest class of bounded records.
    public static let largest = 20

    /// The class of a record occupying `[first, last]` (minutes).
    public static func of(first: Int64, last: Int64) -> Int {
        if last >= EventRecord.openEndMinute { return open }
        let span = max(last - first, 1)
        var k = 0
        while k < largest, span > Int64(60) << Int64(k) { k += 1 }
        return k
    }

    /// Every class, in the order a window scan reads them.
    public static let all = Array(0...largest) + [open]

    /// A window scan on two connections reads the classes from this one on (spans over
    /// 2^15 hours, about 3.7 years, and open ones) on the second, before the override
    /// join: recurring masters, a sixth of the bench's window rows, while most rows of a
    /// window are short events of the lower classes. Measured on the bench's 30-day
    /// view, 16 to 20 and `open` alone split about as well; 13 to 15 worse.
    static let secondConnectionFrom = 16
    /// The classes a two-connection window scan reads on each connection.
    static let firstPart = all.filter { $0 < secondConnectionFrom }
    static let secondPart = all.filter { $0 >= secondConnectionFrom }

    /// The longest span (minutes) class `k` holds.
    public static func reach(_ k: Int) -> Int64 { Int64(60) << Int64(k) }
}

/// A series' identity in the store: its calendar id and UID.
struct SeriesKey: Hashable {
    var calendar: Int64
    var uid: String
}
