import ICalendar
import CanonicalJSON
import FeedProtocol

/// The parameters of one snapshot (docs/data-model.md), normalised: defaults filled in,
/// calendars sorted and unique. Two equal views share one snapshot and sequence.
public struct View: Hashable, Sendable {
    /// What a date with no occurrence becomes.
    public enum EmptyDays: String, Sendable {
        case omit, placeholder
    }

    /// The IANA zone the dates are local to.
    public var timeZone: String
    /// The first date, or nil for relative to today.
    public var from: CivilDate?
    /// Days before today in the window (0 with `from`).
    public var pastDays: Int
    /// The number of dates in the window.
    public var days: Int
    /// nil: all calendars.
    public var calendars: [String]?
    /// What a date with no occurrence becomes.
    public var emptyDays: EmptyDays
    /// Which digest the view's messages carry (the subscription's protocol). Not part
    /// of `json`: subscribers of both protocols to one window are two views, each with
    /// its own digest, so protocol 1's whole-view hash runs only while it has one.
    public var digestVersion: DigestVersion = .whole

    /// The digests of docs/protocol.md, by the protocol version that carries them.
    public enum DigestVersion: Int64, Sendable, CaseIterable {
        /// Protocol 1: the SHA-256 of the whole `sections` array's canonical JSON.
        case whole = 1
        /// Protocol 2: the SHA-256 of the sections' own SHA-256 digests (hex), in order.
        case sections = 2
    }

    /// The allowed `days`.
    public static let daysRange = 1...3660
    /// The allowed `pastDays`.
    public static let pastDaysRange = 0...366

    /// A normalised view: calendars sorted and unique, no `pastDays` with `from`.
    public init(timeZone: String, from: CivilDate? = nil, pastDays: Int = 0, days: Int = 14,
                calendars: [String]? = nil, emptyDays: EmptyDays = .omit) {
        self.timeZone = timeZone
        self.from = from
        self.pastDays = from == nil ? pastDays : 0
        self.days = days
        self.calendars = calendars.map { Array(Set($0)).sorted() }
        self.emptyDays = emptyDays
    }

    /// The view's fields, as `snapshot` messages carry them (`from` and `calendars` null
    /// when not set).
    public var fields: ViewFields { ViewFields(json) }

    /// The view as JSON, keys in canonical order, as `snapshot` messages carry it.
    public var json: JSONValue {
        .object([
            "tz": .string(timeZone),
            "from": from.map { .string($0.iso) } ?? .null,
            "past_days": .int(Int64(pastDays)),
            "days": .int(Int64(days)),
            "calendars": calendars.map { .array($0.map { .string($0) }) } ?? .null,
            "empty_days": .string(emptyDays.rawValue),
        ])
    }
}

/// Why a view was refused (`invalid_view`).
public struct ViewError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong with the view.
    public var message: String
    /// The calendar the view names that the database does not have, when that is what
    /// is wrong (`invalid_view`'s `unknown_calendar`).
    public var unknownCalendar: String?
    /// An error saying `message`.
    public init(_ message: String) { self.message = message }
    /// The view names `calendar`, which the database does not have.
    public init(unknownCalendar calendar: String) {
        message = "unknown calendar \"\(calendar)\""
        unknownCalendar = calendar
    }
    /// The message.
    public var description: String { message }
}

extension View {
    /// Reads a view from a request's view fields, filling defaults. `knownCalendars`
    /// validates `calendars`; `defaultZone` is the daemon's zone. A member of another type
    /// than its field's, or one no view has, is refused by name.
    public static func parse(_ fields: ViewFields?, defaultZone: String, knownCalendars: Set<String>?) throws(ViewError) -> View {
        guard let fields, fields.notAnObject != .null else {
            return try View(timeZone: defaultZone).validated(knownCalendars: knownCalendars)
        }
        guard fields.notAnObject == nil else { throw ViewError("view must be an object") }
        let other = fields.otherMembers
        if let unknown = other.keys.sorted().first(where: { !ViewFields.names.contains($0) }) {
            throw ViewError("unknown view field \"\(unknown)\"")
        }
        /// A member of another type than its field's (a `null` is as if absent).
        func mistyped(_ name: String) -> Bool { other[name].map { !$0.isNull } ?? false }
        var view = View(timeZone: defaultZone)
        if mistyped("tz") { throw ViewError("tz must be a string") }
        if let tz = fields.tz { view.timeZone = tz }
        if mistyped("from") { throw ViewError("from must be a date YYYY-MM-DD") }
        if let from = fields.from {
            guard let d = CivilDate(iso: from) else { throw ViewError("from must be a date YYYY-MM-DD") }
            view.from = d
        }
        func int(_ name: String, _ value: Int64?, _ range: ClosedRange<Int>) throws(ViewError) -> Int? {
            let problem = ViewError("\(name) must be an integer in \(range.lowerBound)...\(range.upperBound)")
            if mistyped(name) { throw problem }
            guard let value else { return nil }
            guard let n = Int(exactly: value), range.contains(n) else { throw problem }
            return n
        }
        if let n = try int("days", fields.days, daysRange) { view.days = n }
        if let n = try int("past_days", fields.pastDays, pastDaysRange) { view.pastDays = n }
        if mistyped("calendars") { throw ViewError("calendars must be an array of names") }
        if let names = fields.calendars { view.calendars = Array(Set(names)).sorted() }
        if mistyped("empty_days") { throw ViewError("empty_days must be \"omit\" or \"placeholder\"") }
        if let e = fields.emptyDays {
            guard let mode = EmptyDays(rawValue: e) else { throw ViewError("empty_days must be \"omit\" or \"placeholder\"") }
            view.emptyDays = mode
        }
        if view.from != nil { view.pastDays = 0 }
        return try view.validated(knownCalendars: knownCalendars)
    }

    /// Checks the ranges, calendar names and zone; the view returned names its zone by
    /// its canonical name (`Zone.canonicalName`: `Europe////Berlin` is `Europe/Berlin`),
    /// so that every spelling is one view. The zone is loaded last, only for a view that
    /// is otherwise valid.
    public func validated(knownCalendars: Set<String>?) throws(ViewError) -> View {
        guard View.daysRange.contains(days) else { throw ViewError("days must be in 1...3660") }
        guard View.pastDaysRange.contains(pastDays) else { throw ViewError("past_days must be in 0...366") }
        if let from {
            guard from.year >= 1000, from.adding(days: days - 1).year <= 9999 else {
                throw ViewError("the window must lie within the years 1000...9999")
            }
        }
        if let calendars, let knownCalendars {
            if let missing = calendars.first(where: { !knownCalendars.contains($0) }) {
                throw ViewError(unknownCalendar: missing)
            }
        }
        guard let zone = Zone.system(timeZone) else { throw ViewError("unknown time zone \"\(timeZone)\"") }
        var view = self
        // UTC's other names (`Etc/UTC`, `GMT`) are one zone but kept as asked.
        view.timeZone = zone === Zone.utc ? Zone.canonicalName(timeZone) : zone.identifier
        return view
    }
}
