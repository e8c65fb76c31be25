import CanonicalJSON
import EventStore
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

/// What one attempt at a source did.
public struct SyncReport: Sendable, Equatable {
    /// The source's name.
    public var name: String
    /// `nil` on success, else why it failed (its events were kept).
    public var failure: FetchFailure?
    /// Whether the attempt changed the database's events (a refresh is due).
    public var changedEvents: Bool
    /// One line for people: `not modified`, `unchanged`, `2 added, 1 updated, 0 removed`,
    /// or the failure.
    public var summary: String
    /// The calendar's refresh interval as the body asked for it, seconds.
    public var ttl: Int64?
    /// The source with its state after the attempt.
    public var source: LiveSource

    /// Creates a report (the syncer makes them; tests and other runners may too).
    public init(name: String, failure: FetchFailure?, changedEvents: Bool, summary: String, ttl: Int64?, source: LiveSource) {
        self.name = name
        self.failure = failure
        self.changedEvents = changedEvents
        self.summary = summary
        self.ttl = ttl
        self.source = source
    }

    /// Whether the attempt succeeded.
    public var succeeded: Bool { failure == nil }

    /// The object `synced` and `source sync --json` print: name, ok, changed, summary,
    /// the failure's class when it failed, and the source's status (null for a name that
    /// is no source).
    public var json: JSONValue {
        var object: [String: JSONValue] = ["name": .string(name), "ok": .bool(succeeded), "changed": .bool(changedEvents),
                                           "summary": .string(summary), "status": source.location.isEmpty ? .null : SourceStatus(source).json]
        if let failure { object["failure"] = .string(failure.kind.rawValue) }
        return .object(object)
    }
}

/// Why a source could not be synchronised: one line, with no secret in it (a URL is
/// only ever named as `scheme://host:port/…`). The source keeps its last good events.
public struct FetchFailure: Error, CustomStringConvertible, Sendable, Equatable {
    /// The class of failure, for tests and for deciding what to show.
    public enum Kind: String, Sendable {
        case refused, dns, timeout, tls, httpStatus, tooManyRedirects, redirectRefused, oversize, headersTooLarge
        case network, notICalendar, truncated, unreadable, missing, parse
    }

    /// What went wrong, as a class.
    ///
    /// `isTransient`: the server could not be reached (it may be later); the other kinds
    /// are answers that are no calendar (a login page, an HTTP error, a cut-off body),
    /// which `source add` refuses rather than keeps.
    public var kind: Kind
    /// The one-line message.
    public var message: String

    /// Creates a failure; `message` must already be free of secrets.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// A message cut to one line of at most 300 characters (a server's text or a parse
    /// error can be long or multi-line).
    static func oneLine(_ text: String) -> String {
        let flat = text.map { $0.isNewline || $0 == "\t" ? " " : $0 }
        let line = String(flat)
        return line.count > 300 ? String(line.prefix(300)) + "…" : line
    }
}

extension FetchFailure.Kind {
    /// Whether the server could not be reached (refused, DNS, timeout, TLS, network),
    /// rather than answered with something that is not a calendar.
    public var isTransient: Bool { [.refused, .dns, .timeout, .tls, .network].contains(self) }
}
