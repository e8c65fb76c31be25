import CanonicalJSON

/// A view (docs/protocol.md: `subscribe`'s `view`, a snapshot's normalised `view`), typed:
/// the one description of a view that the request, the daemon, the gateway and the Redis
/// keys share. Nil fields are left out of `json`, so eventd fills in its defaults.
///
/// Members the typed fields do not hold are kept as they came (`otherMembers`: a newer
/// daemon's, a `null`, a value of another type), so that a view passed on or re-encoded
/// is the same bytes, and so that eventd can name what is wrong with one it refuses.
public struct ViewFields: Sendable, Hashable {
    /// An IANA zone name.
    public var tz: String?
    /// The first date, `YYYY-MM-DD`.
    public var from: String?
    public var days: Int64?
    public var pastDays: Int64?
    /// The calendars' names; nil: every calendar (an empty list names none).
    public var calendars: [String]?
    /// `omit` or `placeholder`.
    public var emptyDays: String?
    /// The members that are not one of the fields above with its type, as they came.
    public private(set) var otherMembers: [String: JSONValue] = [:]
    /// What came instead of an object (eventd refuses it: `view must be an object`).
    public private(set) var notAnObject: JSONValue?

    /// The members a view has (docs/protocol.md).
    public static let names: Set<String> = ["tz", "from", "past_days", "days", "calendars", "empty_days"]

    /// The empty view: every default.
    public init() {}

    /// A view with these fields (every default by default; no calendars: all of them).
    public init(tz: String? = nil, from: String? = nil, days: Int64? = nil, pastDays: Int64? = nil,
                calendars: [String] = [], emptyDays: String? = nil) {
        (self.tz, self.from, self.days, self.pastDays) = (tz, from, days, pastDays)
        (self.calendars, self.emptyDays) = (calendars.isEmpty ? nil : calendars, emptyDays)
    }

    /// The fields of the view object `json` (anything else but an object: no field, kept
    /// as `notAnObject`; eventd takes `null` for the empty view).
    public init(_ json: JSONValue) {
        guard case .object(let members) = json else {
            notAnObject = json
            return
        }
        for (name, value) in members {
            switch (name, value) {
            case ("tz", .string(let s)): tz = s
            case ("from", .string(let s)): from = s
            case ("empty_days", .string(let s)): emptyDays = s
            case ("days", _) where value.intValue != nil: days = value.intValue
            case ("past_days", _) where value.intValue != nil: pastDays = value.intValue
            case ("calendars", .array(let list)) where list.allSatisfy({ $0.stringValue != nil }):
                calendars = list.compactMap(\.stringValue)
            default: otherMembers[name] = value
            }
        }
    }

    /// The view object, as a request and a snapshot carry it.
    public var json: JSONValue {
        if let notAnObject { return notAnObject }
        var object = otherMembers
        if let tz { object["tz"] = .string(tz) }
        if let from { object["from"] = .string(from) }
        if let days { object["days"] = .int(days) }
        if let pastDays { object["past_days"] = .int(pastDays) }
        if let calendars { object["calendars"] = .array(calendars.map { .string($0) }) }
        if let emptyDays { object["empty_days"] = .string(emptyDays) }
        return .object(object)
    }

    /// The same view with its calendars as a set (sorted, each once, left out when none):
    /// one spelling per view, for the key a view is published under.
    public var withCalendarSet: ViewFields {
        var view = self
        let names = Set(calendars ?? []).sorted()
        view.calendars = names.isEmpty ? nil : names
        if case .array(let list)? = otherMembers["calendars"] {
            let names = Set(list.compactMap(\.stringValue)).sorted()
            view.otherMembers["calendars"] = names.isEmpty ? nil : .array(names.map(JSONValue.string))
        }
        return view
    }
}

extension ViewFields: ExpressibleByDictionaryLiteral {
    /// The view of an object literal (`["tz": "UTC", "days": 7]`), read as `init(_:)` reads JSON.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(.object(Dictionary(elements, uniquingKeysWith: { _, last in last })))
    }
}

extension ViewFields {
    /// The view whose object has these members (read as `init(_:)` reads JSON).
    public static func object(_ members: [String: JSONValue]) -> ViewFields { ViewFields(.object(members)) }
}

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
