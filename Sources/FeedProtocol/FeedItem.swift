import CanonicalJSON

/// One item of a section (docs/data-model.md), typed: decoded once at the edge, from the
/// item's JSON, and kept with its canonical bytes, so that digests and re-encoded lines
/// are the daemon's bytes exactly (a newer daemon's fields included) and no client reads
/// an item by key.
public struct FeedItem: Sendable, Equatable {
    /// What the item is.
    public enum Kind: String, Sendable {
        /// An occurrence of an event.
        case event
        /// The one item of a date without occurrences (`empty_days: placeholder`).
        case placeholder
    }

    public private(set) var id: String
    /// Nil for a kind this client does not know.
    public private(set) var kind: Kind?
    public private(set) var uid: String?
    public private(set) var recurrenceID: String?
    public private(set) var summary: String?
    public private(set) var location: String?
    /// The event's DESCRIPTION, its first 1,024 bytes (`…` when cut); nil when none.
    public private(set) var description: String?
    /// The event's URL: http, https or mailto only (the feed carries no other); nil when none.
    public private(set) var url: String?
    public private(set) var calendar: String?
    /// Local date-times (`YYYY-MM-DDTHH:MM:SS±HH:MM`), or dates for all-day events.
    public private(set) var start: String?
    public private(set) var end: String?
    public private(set) var allDay: Bool
    /// The iCalendar `STATUS` (`CONFIRMED`, `TENTATIVE`, `CANCELLED`), when given.
    public private(set) var status: String?
    public private(set) var continuesFromPreviousDay: Bool
    public private(set) var continuesToNextDay: Bool
    /// The item's canonical JSON as it came (every field, unknown ones too): what digests
    /// hash and lines carry. Two items are equal when these bytes are.
    public private(set) var bytes: [UInt8]

    /// The item that `json` (one element of a section's `items`) describes.
    public init(_ json: JSONValue) {
        func text(_ key: String) -> String? { json[key]?.stringValue }
        id = text("id") ?? ""
        kind = text("kind").flatMap(Kind.init)
        uid = text("uid")
        recurrenceID = text("recurrence_id")
        summary = text("summary")
        location = text("location")
        description = text("description")
        url = text("url")
        calendar = text("calendar")
        start = text("start")
        end = text("end")
        allDay = json["all_day"]?.boolValue == true
        status = text("status")
        continuesFromPreviousDay = json["continues_from_previous_day"]?.boolValue == true
        continuesToNextDay = json["continues_to_next_day"]?.boolValue == true
        bytes = json.canonicalBytes()
    }

    /// An item with these fields; its bytes are the ones the daemon would write
    /// (`description` and `url` left out when nil, other nils as `null`).
    public init(id: String, kind: Kind? = .event, uid: String? = nil, recurrenceID: String? = nil, summary: String? = nil,
                location: String? = nil, description: String? = nil, url: String? = nil, calendar: String? = nil,
                start: String? = nil, end: String? = nil, allDay: Bool = false, status: String? = nil,
                continuesFromPreviousDay: Bool = false, continuesToNextDay: Bool = false) {
        func text(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
        var object: [String: JSONValue] = [
            "id": .string(id), "kind": text(kind?.rawValue), "uid": text(uid), "recurrence_id": text(recurrenceID),
            "summary": text(summary), "location": text(location), "calendar": text(calendar), "start": text(start),
            "end": text(end), "all_day": .bool(allDay), "status": text(status),
            "continues_from_previous_day": .bool(continuesFromPreviousDay), "continues_to_next_day": .bool(continuesToNextDay),
        ]
        if let description { object["description"] = .string(description) }
        if let url { object["url"] = .string(url) }
        self.init(.object(object))
    }

    /// The item as a JSON value (parsed again from its bytes: for printing).
    public var json: JSONValue { (try? JSONValue.parse(bytes, maxDepth: 64)) ?? .null }

    public static func == (a: FeedItem, b: FeedItem) -> Bool { a.bytes == b.bytes }
}
