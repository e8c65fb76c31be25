import FeedProtocol
import ICalendar

/// What a date's section is, for its layout: the dashboard's `data-kind`, `watch`'s
/// headers or dense list. A new kind is added here first (docs/architecture.md).
public enum SectionKind: String, Sendable, CaseIterable {
    case today
    case tomorrow
    /// The rest of the coming week (up to six days after today).
    case week
    /// A week away or more: a dense list.
    case later
    /// Before today (a view that starts earlier).
    case past
    /// A date with nothing on it (its one item the feed's placeholder).
    case placeholder

    /// The kind of the section of `date`, labelled `label`, with `items`, when it is
    /// `today`: a date of only placeholders is `placeholder`, else its `range`.
    public init(date: CivilDate, label: String?, items: [FeedItem], today: CivilDate) {
        if !items.isEmpty && items.allSatisfy({ $0.kind == .placeholder }) {
            self = .placeholder
        } else {
            self = Self.range(date: date, label: label, today: today)
        }
    }

    /// Where a date falls, items aside: the feed's label first (`today`, `tomorrow`),
    /// then before today, within six days after it, or later.
    public static func range(date: CivilDate, label: String?, today: CivilDate) -> SectionKind {
        if label == "today" { return .today }
        if label == "tomorrow" { return .tomorrow }
        if date < today { return .past }
        return date <= today.adding(days: 6) ? .week : .later
    }
}
