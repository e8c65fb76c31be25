import Agenda
import CommandLineKit
import ICalendar
import CanonicalJSON

/// The view options shared by `agenda` and `subscribe`.
struct ViewOptions: Sendable {
    static let from = Option.value(
        "--from", "DATE", help: "First date, YYYY-MM-DD (default: today; the window slides).",
        validation: .custom { CivilDate(iso: $0) == nil ? "invalid date '\($0)' for --from: expected YYYY-MM-DD" : nil })
    static let days = Option.value("--days", "N", as: Int.self, help: "Number of dates, 1-3660 (default: 14).",
                                   validation: .integer(View.daysRange))
    static let pastDays = Option.value("--past-days", "N", as: Int.self, help: "Start N days before today, 0-366 (default: 0).",
                                       validation: .integer(View.pastDaysRange))
    static let tz = Option.value("--tz", "ZONE", help: "IANA time zone (default: the system's).", completion: .timeZone)
    static let calendars = Option.values("--calendar", "NAME", help: "Only this calendar (repeatable; default: all).",
                                         completion: .calendar)
    static let emptyDays = Option.value("--empty-days", "MODE", help: "omit (default) or placeholder.",
                                        details: "With placeholder, dates without events are listed too.",
                                        completion: .choices(["omit", "placeholder"]))
    static let declarations: [any OptionDeclaring] = [from, days, pastDays, tz, calendars, emptyDays]

    var from: CivilDate?
    var days: Int?
    var pastDays: Int?
    var tz: String?
    var calendars: [String] = []
    var emptyDays: View.EmptyDays?

    /// The view options among `arguments` (already checked by the declarations).
    init(_ arguments: ParsedArguments) {
        from = arguments[Self.from].flatMap(CivilDate.init(iso:))
        days = arguments[Self.days]
        pastDays = arguments[Self.pastDays]
        tz = arguments[Self.tz]
        calendars = arguments[Self.calendars]
        emptyDays = arguments[Self.emptyDays].flatMap(View.EmptyDays.init(rawValue:))
    }

    /// The view as a request names it (`{"tz": ..., "days": ...}`), defaults left out.
    var json: JSONValue {
        var object: [String: JSONValue] = [:]
        if let tz { object["tz"] = .string(tz) }
        if let from { object["from"] = .string(from.iso) }
        if let days { object["days"] = .int(Int64(days)) }
        if let pastDays { object["past_days"] = .int(Int64(pastDays)) }
        if !calendars.isEmpty { object["calendars"] = .array(calendars.map { .string($0) }) }
        if let emptyDays { object["empty_days"] = .string(emptyDays.rawValue) }
        return .object(object)
    }

    /// The view these options describe (defaults filled in by `View.parse`).
    func view(defaultZone: String, knownCalendars: Set<String>?) throws(ViewError) -> View {
        try View.parse(json, defaultZone: defaultZone, knownCalendars: knownCalendars)
    }
}
