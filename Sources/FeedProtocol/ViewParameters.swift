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

/// A view object's fields (`subscribe`'s `view`, a snapshot's `view`), typed: clients
/// build and read views here rather than by key. Nil (or empty) fields are left out of
/// `json`, so eventd fills in its defaults; keys this client does not know are ignored.
public struct ViewFields: Sendable, Equatable {
    /// An IANA zone name.
    public var tz: String?
    /// The first date, `YYYY-MM-DD`.
    public var from: String?
    public var days: Int64?
    public var pastDays: Int64?
    public var calendars: [String]
    /// `omit` or `placeholder`.
    public var emptyDays: String?

    /// A view with these fields (every default by default).
    public init(tz: String? = nil, from: String? = nil, days: Int64? = nil, pastDays: Int64? = nil,
                calendars: [String] = [], emptyDays: String? = nil) {
        (self.tz, self.from, self.days, self.pastDays) = (tz, from, days, pastDays)
        (self.calendars, self.emptyDays) = (calendars, emptyDays)
    }

    /// The fields of the view object `json`.
    public init(_ json: JSONValue) {
        self.init(tz: json["tz"]?.stringValue, from: json["from"]?.stringValue, days: json["days"]?.intValue,
                  pastDays: json["past_days"]?.intValue, calendars: json["calendars"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                  emptyDays: json["empty_days"]?.stringValue)
    }

    /// The members of the view object `view` with its `calendars` as a set (sorted, each
    /// once, left out when none); every other member as it came, a newer daemon's too.
    public static func members(withCalendarSet view: JSONValue) -> [String: JSONValue] {
        var members = view.objectValue ?? [:]
        if let calendars = members["calendars"]?.arrayValue {
            let names = Set(calendars.compactMap(\.stringValue)).sorted()
            members["calendars"] = names.isEmpty ? nil : .array(names.map(JSONValue.string))
        }
        return members
    }

    /// The view object, as a `subscribe` request carries it.
    public var json: JSONValue {
        var object: [String: JSONValue] = [:]
        if let tz { object["tz"] = .string(tz) }
        if let from { object["from"] = .string(from) }
        if let days { object["days"] = .int(days) }
        if let pastDays { object["past_days"] = .int(pastDays) }
        if !calendars.isEmpty { object["calendars"] = .array(calendars.map { .string($0) }) }
        if let emptyDays { object["empty_days"] = .string(emptyDays) }
        return .object(object)
    }
}
