import FeedProtocol

/// Where today stands against the clock, the same on every surface: which events are
/// over, which is under way, and where the "now" line goes among a date's items.
///
/// An event is under way from its start to its end, whatever day it began on: a night
/// that began yesterday and ends at 07:05 is current until 07:05, not over. It is over
/// once its end has passed (a zero-length event once its moment has come). All-day
/// events are neither: they are the day itself.
public enum NowRule {
    /// How an item stands at an instant.
    public enum Phase: String, Sendable, Equatable {
        /// Ended (dimmed).
        case over
        /// Begun and not ended (marked, with its progress).
        case current
        /// Not begun.
        case coming
        /// An all-day item, a placeholder, or times that cannot be read.
        case timeless
    }

    /// The item's start and end as instants (seconds since the epoch), for timed events.
    public static func instants(_ item: FeedItem) -> (start: Int64, end: Int64)? {
        guard item.kind == .event, !item.allDay, let s = item.start.flatMap(AgendaWords.instant),
              let e = item.end.flatMap(AgendaWords.instant) else { return nil }
        return (s, max(s, e))
    }

    /// How `item` stands at `now` (seconds since the epoch).
    public static func phase(_ item: FeedItem, now: Int64) -> Phase {
        guard let (start, end) = instants(item) else { return .timeless }
        if end <= now { return .over }
        return start <= now ? .current : .coming
    }

    /// The part of a current event that has passed, 0 to 1 (nil when not current).
    public static func progress(_ item: FeedItem, now: Int64) -> Double? {
        guard let (start, end) = instants(item), start <= now, now < end else { return nil }
        return Double(now - start) / Double(max(1, end - start))
    }

    /// The index of today's items before which the now line goes: before the first
    /// timed event that begins after `now`, else after the last item (`items.count`).
    public static func lineIndex(_ items: [FeedItem], now: Int64) -> Int {
        items.firstIndex { phase($0, now: now) == .coming } ?? items.count
    }
}
