import Agenda
import CommandLineKit
import ICalendar
import CanonicalJSON

/// The view options shared by `agenda` and `subscribe`.
struct ViewOptions: Sendable {
    static let declarations: [Option] = [
        Option("--from", value: "DATE", help: "First date, YYYY-MM-DD (default: today; the window slides).",
               summary: "First date (YYYY-MM-DD)",
               validation: .custom { CivilDate(iso: $0) == nil ? "invalid date '\($0)' for --from: expected YYYY-MM-DD" : nil },
               manual: #"""
               First date,
               .I YYYY\-MM\-DD
               (default: today; the window slides).
               """#),
        Option("--days", value: "N", help: "Number of dates, 1-3660 (default: 14).", summary: "Number of dates (1-3660)",
               validation: .integer(View.daysRange), manual: #"Number of dates, 1\(en3660 (default: 14)."#),
        Option("--past-days", value: "N", help: "Start N days before today, 0-366 (default: 0).",
               summary: "Start this many days before today (0-366)", validation: .integer(View.pastDaysRange),
               manual: #"""
               Start
               .I N
               days before today, 0\(en366 (default: 0).
               """#),
        Option("--tz", value: "ZONE", help: "IANA time zone (default: the system's).", summary: "IANA time zone",
               completion: .timeZone, manual: #"""
               IANA time zone, such as
               .B Europe/Berlin
               (default: the system's).
               """#),
        Option("--calendar", value: "NAME", help: "Only this calendar (repeatable; default: all).",
               summary: "Only this calendar (repeatable)", completion: .calendar, repeatable: true),
        Option("--empty-days", value: "MODE", help: "omit (default) or placeholder.", summary: "Dates without events",
               completion: .choices(["omit", "placeholder"]), manual: #"""
               .B omit
               (default) or
               .BR placeholder :
               list dates without events too.
               """#),
    ]

    var from: CivilDate?
    var days: Int?
    var pastDays: Int?
    var tz: String?
    var calendars: [String] = []
    var emptyDays: View.EmptyDays?

    /// The view options among `arguments` (already checked by the declarations).
    init(_ arguments: ParsedArguments) {
        from = arguments.value("--from").flatMap(CivilDate.init(iso:))
        days = arguments.int("--days")
        pastDays = arguments.int("--past-days")
        tz = arguments.value("--tz")
        calendars = arguments.values("--calendar")
        emptyDays = arguments.value("--empty-days").flatMap(View.EmptyDays.init(rawValue:))
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
