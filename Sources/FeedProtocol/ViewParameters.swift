import CanonicalJSON

/// A view's fields from a URL query's parameters, as the dashboard's `/api/events` and
/// `eventd --publish-view` both take them: `tz`, `from`, `empty_days` (text), `days`,
/// `past_days` (whole numbers), `calendar` or `calendars` (repeatable, or a comma list).
/// One reading for both, so that the same query names the same view, and Redis key.
/// Only the shape is checked; eventd checks the values when the view is subscribed.
/// What it builds is a `ViewFields`, the one description of a view.
public struct ViewParameters: Sendable {
    /// A `days` or `past_days` that is not a whole number.
    public struct NotAWholeNumber: Error, Equatable {
        /// The parameter's name and value, for the caller's message.
        public var name: String, value: String
    }

    /// The view the parameters taken so far describe.
    public private(set) var view = ViewFields()

    /// No parameters yet: the empty view (every default).
    public init() {}

    /// Takes one parameter; false when `name` is not a view field (the caller decides
    /// whether that is an error). An empty value leaves the field at its default.
    public mutating func take(_ name: String, _ value: String) throws(NotAWholeNumber) -> Bool {
        switch name {
        case "tz": if !value.isEmpty { view.tz = value }
        case "from": if !value.isEmpty { view.from = value }
        case "empty_days": if !value.isEmpty { view.emptyDays = value }
        case "days", "past_days":
            guard !value.isEmpty else { return true }
            guard let n = Int64(value) else { throw NotAWholeNumber(name: name, value: value) }
            if name == "days" { view.days = n } else { view.pastDays = n }
        case "calendar", "calendars":
            // The dashboard's filter sends one name per parameter; a comma list works too.
            let names = value.split(separator: ",").filter { !$0.isEmpty }.map(String.init)
            if !names.isEmpty { view.calendars = (view.calendars ?? []) + names }
        default:
            return false
        }
        return true
    }
}
