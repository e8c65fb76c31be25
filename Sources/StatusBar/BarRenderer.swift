import ICalendar
import AgendaText

/// The status bar's state machine: it takes the feed's changes, minute turns and lost
/// connections, and returns the whole lines to write. Pure (the caller brings the clock
/// and does the I/O), so the lines at each minute and change are tested exactly.
///
/// A line is written only when what it shows changed; a minute turn changes countdowns
/// and classes, a feed change the events, a lost connection the class (`stale`, the
/// last known events kept and their countdowns still turning).
public struct BarRenderer {
    public let format: BarFormat
    public let options: BarOptions
    private var events: [BarEvent] = []
    private var zone: Zone?
    private var stale = false
    private var lastBody: String?
    private var started = false

    public init(format: BarFormat, options: BarOptions) {
        self.format = format
        self.options = options
    }

    /// The feed's events changed (a snapshot or a diff), in the view's zone.
    public mutating func feedChanged(_ events: [BarEvent], zone: Zone, now: Int64) -> [String] {
        self.events = events
        self.zone = zone
        stale = false
        return render(now)
    }

    /// The minute turned (or the caller's timer fired for another reason).
    public mutating func tick(now: Int64) -> [String] { render(now) }

    /// The connection to eventd is gone: keep the last known state, marked stale.
    public mutating func connectionLost(now: Int64) -> [String] {
        stale = true
        return render(now)
    }

    /// When the next minute turns (the caller's next `tick`).
    public static func nextMinute(after now: Int64) -> Int64 { (now.floorDiv(60) + 1) * 60 }

    private mutating func render(_ now: Int64) -> [String] {
        let glance = zone.map { BarGlance.at(now, events: events, zone: $0, options: options) }
            ?? BarGlance(kind: .free, text: "", shortText: "", alt: "none", percentage: 0, today: [], tomorrow: [])
        let body = format.body(glance, stale: stale || zone == nil)
        guard body != lastBody else { return [] }
        lastBody = body
        guard format == .i3bar else { return [body] }
        defer { started = true }
        return started ? ["," + body] : BarFormat.i3barHeader + [body]
    }
}
