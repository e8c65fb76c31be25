import CanonicalJSON

/// The answer to `status` (docs/protocol.md), typed: clients read its fields here,
/// decoded once from the message's JSON, rather than by key. Keys this client does not
/// know are ignored; a field that is missing (or of another type) is nil.
public struct FeedStatus: Sendable, Equatable {
    /// When the daemon last recomputed its views.
    public struct Recompute: Sendable, Equatable {
        /// `YYYY-MM-DDTHH:MM:SSZ`.
        public var time: String?
        /// How long it took, milliseconds (one decimal).
        public var durationMS: Double?
    }

    /// One live source (`sources`, and `status` in a `synced` object), as
    /// `SourceStatus.json` writes it: times are `YYYY-MM-DDTHH:MM:SSZ` or null (nil).
    public struct Source: Sendable, Equatable {
        public var name: String?
        /// `url`, `vdir` or `file`.
        public var kind: String?
        public var location: String?
        public var calendar: String?
        public var events: Int64?
        public var lastAttempt: String?
        public var lastSuccess: String?
        public var nextAttempt: String?
        /// One line, redacted; nil when the last attempt succeeded.
        public var lastError: String?
        public var failures: Int64?
        /// The object as it came (what `--json` prints).
        public var json: JSONValue

        /// The source that `json` describes.
        public init(_ json: JSONValue) {
            func text(_ key: String) -> String? { json[key]?.stringValue }
            (name, kind, location, calendar) = (text("name"), text("kind"), text("location"), text("calendar"))
            events = json["events"]?.intValue
            (lastAttempt, lastSuccess, nextAttempt) = (text("last_attempt"), text("last_success"), text("next_attempt"))
            lastError = text("last_error")
            failures = json["failures"]?.intValue
            self.json = json
        }
    }

    public var version: String?
    public var epoch: String?
    public var uptimeSeconds: Int64?
    public var views: Int64?
    public var subscribers: Int64?
    public var connections: Int64?
    /// The database's path (absent when redacted).
    public var database: String?
    /// The socket's path (absent when redacted).
    public var socket: String?
    public var events: Int64?
    /// How many calendars the database holds.
    public var calendars: Int64?
    /// Their names, sorted.
    public var calendarNames: [String]
    /// Each calendar's colour (`#rrggbb`) by name; nil when the daemon sends none.
    public var calendarColors: [String: String]?
    public var healthy: Bool?
    /// Nil before the first recompute.
    public var lastRecompute: Recompute?
    public var problem: String?
    public var sources: [Source]
    /// The message's fields as they came (what `--json` prints).
    public var json: JSONValue

    /// The status that `fields` (a `status` message's, `type` aside) describe.
    public init(fields: [String: JSONValue]) {
        func text(_ key: String) -> String? { fields[key]?.stringValue }
        func number(_ key: String) -> Int64? { fields[key]?.intValue }
        (version, epoch, database, socket, problem) = (text("version"), text("epoch"), text("database"), text("socket"), text("problem"))
        (uptimeSeconds, views, subscribers) = (number("uptime_seconds"), number("views"), number("subscribers"))
        (connections, events, calendars) = (number("connections"), number("events"), number("calendars"))
        calendarNames = fields["calendar_names"]?.arrayValue?.compactMap(\.stringValue) ?? []
        calendarColors = fields["calendar_colors"]?.objectValue?.compactMapValues(\.stringValue)
        healthy = fields["healthy"]?.boolValue
        lastRecompute = fields["last_recompute"]?.objectValue.map {
            Recompute(time: $0["time"]?.stringValue, durationMS: $0["duration_ms"]?.doubleValue)
        }
        sources = fields["sources"]?.arrayValue?.map(Source.init) ?? []
        json = .object(fields)
    }

    /// The status of a `status` message; nil for any other message.
    public init?(_ message: FeedMessage) {
        guard case .status(let status) = message else { return nil }
        self = status
    }
}

/// One object of the `synced` answer (and `source sync --json`), as `SyncReport.json`
/// writes it, typed.
public struct SyncOutcome: Sendable, Equatable {
    public var name: String?
    /// False when the attempt failed (its events were kept); nil when not said.
    public var ok: Bool?
    /// Whether the attempt changed the database's events.
    public var changed: Bool?
    /// One line for people.
    public var summary: String?
    /// The failure's class (`FetchFailure.Kind`'s raw value) when it failed.
    public var failure: String?
    /// The source's status after the attempt; nil for a name that is no source.
    public var status: FeedStatus.Source?
    /// The object as it came (what `--json` prints).
    public var json: JSONValue

    /// The outcome that `json` describes.
    public init(_ json: JSONValue) {
        name = json["name"]?.stringValue
        (ok, changed) = (json["ok"]?.boolValue, json["changed"]?.boolValue)
        (summary, failure) = (json["summary"]?.stringValue, json["failure"]?.stringValue)
        status = json["status"].flatMap { $0.isNull ? nil : FeedStatus.Source($0) }
        self.json = json
    }

    /// An outcome with these fields, written as the daemon writes one (`failure` left
    /// out when nil, `status` null when nil).
    public init(name: String, ok: Bool, changed: Bool, summary: String, failure: String? = nil, status: FeedStatus.Source? = nil) {
        var object: [String: JSONValue] = ["name": .string(name), "ok": .bool(ok), "changed": .bool(changed),
                                           "summary": .string(summary), "status": status?.json ?? .null]
        if let failure { object["failure"] = .string(failure) }
        self.init(.object(object))
    }
}
