import EventStore
import CanonicalJSON

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
