import Agenda
import CommandLineKit
import ICalendar
import FeedProtocol

/// The view options shared by `agenda` and `subscribe`.
struct ViewOptions: Sendable {
    static let from = Option.value(
        "--from", "DATE", help: "First date (default: today; the window slides).",
        details: "YYYY-MM-DD, today, tomorrow, yesterday, a weekday name (the next one, today included), or +Nd, -Nw (days or weeks from today).",
        validation: .custom {
            CivilDate(words: $0, today: CivilDate(year: 2000, month: 1, day: 1)) == nil
                ? "invalid date '\($0)' for --from: expected YYYY-MM-DD, today, tomorrow, yesterday, a weekday, +3d or -1w" : nil
        })
    static let days = Option.value("--days", "N", as: Int.self, help: "Number of dates, 1-3660 (default: 14).",
                                   validation: .integer(View.daysRange))
    static let pastDays = Option.value("--past-days", "N", as: Int.self, help: "Start N days before today, 0-366 (default: 0).",
                                       validation: .integer(View.pastDaysRange))
    static let tz = Option.value("--tz", "ZONE", help: "IANA time zone, any case (default: the system's).",
                                 details: "Windows names (W. Europe Standard Time) and the other names the importer understands are read as their IANA zone.",
                                 completion: .timeZone)
    static let calendars = Option.values("--calendar", "NAME", help: "Only this calendar (repeatable; default: all).",
                                         completion: .calendar)
    static let emptyDays = Option.value("--empty-days", "MODE", help: "omit (default) or placeholder.",
                                        details: "With placeholder, dates without events are listed too.",
                                        completion: .choices(["omit", "placeholder"]))
    static let declarations: [any OptionDeclaring] = [from, days, pastDays, tz, calendars, emptyDays]

    var from: CivilDate?
    /// `--from` as given: a word (`tomorrow`) is read against today in the view's zone.
    var fromText: String?
    var days: Int?
    var pastDays: Int?
    var tz: String?
    var calendars: [String] = []
    var emptyDays: View.EmptyDays?

    /// The view options among `arguments` (already checked by the declarations).
    init(_ arguments: ParsedArguments) {
        fromText = arguments[Self.from]
        from = fromText.flatMap(CivilDate.init(iso:))
        days = arguments[Self.days]
        pastDays = arguments[Self.pastDays]
        tz = arguments[Self.tz]
        calendars = arguments[Self.calendars]
        emptyDays = arguments[Self.emptyDays].flatMap(View.EmptyDays.init(rawValue:))
    }

    /// The options with `--tz` as its IANA name and `--from` as a date (words read against
    /// today in the view's zone, by `AgendaClock`). A zone no name matches stays as given:
    /// the view's check names it.
    func resolved(environment: [String: String]) -> ViewOptions {
        var options = self
        options.tz = tz.map { Zone.ianaName(for: $0) ?? $0 }
        if let fromText, from == nil {
            let zoneName = options.tz ?? AgendaClock.systemZoneName(environment: environment)
            let zone = Zone.system(zoneName) ?? Zone.utc
            let today = zone.local(atUTC: AgendaClock(environment: environment).now()).date
            options.from = CivilDate(words: fromText, today: today)
        }
        return options
    }

    /// The view as a request names it (`{"tz": ..., "days": ...}`), defaults left out.
    var fields: ViewFields {
        ViewFields(tz: tz, from: from?.iso, days: days.map { Int64($0) }, pastDays: pastDays.map { Int64($0) },
                   calendars: calendars, emptyDays: emptyDays?.rawValue)
    }

    /// The view these options describe (defaults filled in by `View.parse`).
    func view(defaultZone: String, knownCalendars: Set<String>?) throws(ViewError) -> View {
        try View.parse(fields, defaultZone: defaultZone, knownCalendars: knownCalendars)
    }
}
