import CanonicalJSON

/// A view's fields from a URL query's parameters, as the dashboard's `/api/events` and
/// `eventd --publish-view` both take them: `tz`, `from`, `empty_days` (text), `days`,
/// `past_days` (whole numbers), `calendar` or `calendars` (repeatable, or a comma list).
/// One reading for both, so that the same query names the same view, and Redis key.
/// Only the shape is checked; eventd checks the values when the view is subscribed.
public struct ViewParameters: Sendable {
    /// A `days` or `past_days` that is not a whole number.
    public struct NotAWholeNumber: Error, Equatable {
        /// The parameter's name and value, for the caller's message.
        public var name: String, value: String
    }

    private var fields: [String: JSONValue] = [:]
    private var calendars: [JSONValue] = []

    /// No parameters yet: the empty view (every default).
    public init() {}

    /// Takes one parameter; false when `name` is not a view field (the caller decides
    /// whether that is an error). An empty value leaves the field at its default.
    public mutating func take(_ name: String, _ value: String) throws(NotAWholeNumber) -> Bool {
        switch name {
        case "tz", "from", "empty_days":
            if !value.isEmpty { fields[name] = .string(value) }
        case "days", "past_days":
            guard !value.isEmpty else { return true }
            guard let n = Int64(value) else { throw NotAWholeNumber(name: name, value: value) }
            fields[name] = .int(n)
        case "calendar", "calendars":
            // The dashboard's filter sends one name per parameter; a comma list works too.
            for part in value.split(separator: ",") where !part.isEmpty { calendars.append(.string(String(part))) }
        default:
            return false
        }
        return true
    }

    /// The view object, as a `subscribe` request carries it.
    public var view: JSONValue {
        var object = fields
        if !calendars.isEmpty { object["calendars"] = .array(calendars) }
        return .object(object)
    }
}
