import EventStore
import CanonicalJSON
import ICalendar

/// A source as `status` and `source list` show it: never its secret location.
public struct SourceStatus: Sendable, Equatable {
    /// The source's name.
    public var name: String
    /// URL, vdir or file.
    public var kind: LiveSource.Kind
    /// `scheme://host:port/…` for a URL; the path of a vdir or file.
    public var location: String
    /// The calendar it fills.
    public var calendar: String
    /// The calendar's events after the last success.
    public var events: Int
    /// Unix seconds.
    public var lastAttempt: Int64?
    /// Unix seconds.
    public var lastSuccess: Int64?
    /// One line, redacted; nil when the last attempt succeeded.
    public var lastError: String?
    /// When the next attempt is due, Unix seconds.
    public var nextAttempt: Int64?
    /// Failures since the last success.
    public var failures: Int

    /// The status of `source`.
    public init(_ source: LiveSource) {
        name = source.name
        kind = source.kind
        location = source.redactedLocation
        calendar = source.calendar
        events = source.state.events
        lastAttempt = source.state.lastAttempt
        lastSuccess = source.state.lastSuccess
        lastError = source.state.lastError
        nextAttempt = source.state.nextAttempt
        failures = source.state.failures
    }

    /// The object `status` (`sources`) and `source list --json` print; times are
    /// `YYYY-MM-DDTHH:MM:SSZ` or null.
    public var json: JSONValue {
        func time(_ t: Int64?) -> JSONValue { t.map { .string(Self.utcStamp($0)) } ?? .null }
        return .object([
            "name": .string(name), "kind": .string(kind.rawValue), "location": .string(location),
            "calendar": .string(calendar), "events": .int(Int64(events)),
            "last_attempt": time(lastAttempt), "last_success": time(lastSuccess),
            "last_error": lastError.map { .string($0) } ?? .null, "next_attempt": time(nextAttempt),
            "failures": .int(Int64(failures)),
        ])
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` of Unix seconds.
    public static func utcStamp(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = Int(seconds - days * 86_400)
        let civil = GregorianCalendar.date(daysSinceEpoch: Int(days))
        func p(_ v: Int, _ width: Int = 2) -> String { String(repeating: "0", count: max(0, width - String(v).count)) + String(v) }
        return "\(p(civil.year, 4))-\(p(civil.month))-\(p(civil.day))T\(p(rest / 3600)):\(p(rest / 60 % 60)):\(p(rest % 60))Z"
    }
}
