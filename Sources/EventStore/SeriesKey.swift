/// A series' identity in the store: its calendar id and UID.
struct SeriesKey: Hashable {
    var calendar: Int64
    var uid: String
}
