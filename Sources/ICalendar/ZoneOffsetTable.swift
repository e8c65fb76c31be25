/// A zone's UTC offsets by UTC day, for the days whose offset holds all day long: a
/// direct-mapped table of fixed size, made once with its zone and never grown.
///
/// Fixed, because views of many zones are built and dropped on one thread: a table that
/// grew there (as a dictionary did) left each zone's storage among the views' items for
/// good, and those few live blocks kept the pages of every freed view resident. A
/// table made with its zone (on the thread that loads zones) costs the same memory and
/// allocates nothing afterwards. 4,096 consecutive days (eleven years) fit without
/// collisions; a day that collides with another only costs its lookup again.
struct ZoneOffsetTable: Sendable {
    static let slots = 4096
    private static let empty = Int32.min

    /// Day of slot `day & (slots - 1)`, and its offset in seconds.
    private var days: [Int32]
    private var offsets: [Int32]

    init() {
        days = Array(repeating: Self.empty, count: Self.slots)
        offsets = Array(repeating: 0, count: Self.slots)
    }

    /// The offset remembered for UTC day `day`, if any.
    func offset(onDay day: Int64) -> Int? {
        guard let key = Int32(exactly: day), key != Self.empty else { return nil }
        let slot = Int(truncatingIfNeeded: day) & (Self.slots - 1)
        return days[slot] == key ? Int(offsets[slot]) : nil
    }

    /// Remembers that UTC day `day` has offset `seconds` all day (replacing the day that
    /// shared its slot). Days beyond ±5.8 million years (and the one that marks an empty
    /// slot) are not remembered.
    mutating func remember(_ seconds: Int, onDay day: Int64) {
        guard let key = Int32(exactly: day), let value = Int32(exactly: seconds), key != Self.empty else { return }
        let slot = Int(truncatingIfNeeded: day) & (Self.slots - 1)
        days[slot] = key
        offsets[slot] = value
    }
}
