import CanonicalJSON

/// A section's own fields (docs/data-model.md: one section per date), typed: the content
/// of a section of the client's copy (its items are the section's items). It keeps every
/// member as it came (a newer daemon's too) and their canonical bytes, so that the
/// section's JSON, and so its digest, is the daemon's exactly.
public struct FeedDay: Sendable, Equatable {
    /// The section's id (its date).
    public private(set) var id: String
    /// `YYYY-MM-DD`.
    public private(set) var date: String?
    /// `today`, `tomorrow`, or the date for people; nil when the section has none.
    public private(set) var label: String?
    /// Every member of the section but `items`, as it came.
    public private(set) var fields: [String: JSONValue]
    /// The canonical JSON of `fields` (a `sections.updated` entry's bytes).
    public private(set) var bytes: [UInt8]

    /// The fields of `json` (a section's, with or without its `items`, which are not read).
    public init(_ json: JSONValue) {
        var object = json.objectValue ?? [:]
        object["items"] = nil
        fields = object
        id = object["id"]?.stringValue ?? ""
        (date, label) = (object["date"]?.stringValue, object["label"]?.stringValue)
        bytes = JSONValue.object(object).canonicalBytes()
    }

    /// A section header with these fields (`date` is the id).
    public init(date: String, label: String?) {
        self.init(.object(["id": .string(date), "date": .string(date), "label": label.map(JSONValue.string) ?? .null]))
    }

    /// The canonical JSON of the whole section: these fields and `items` (each item's bytes).
    public func sectionBytes(items: [FeedItem]) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: bytes.count + 16 + items.reduce(0) { $0 + $1.bytes.count + 1 })
        w.beginObject()
        var keys = Array(fields.keys)
        keys.append("items")
        keys.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        for key in keys {
            w.key(key)
            if key == "items" {
                w.beginArray()
                for item in items { w.raw(item.bytes) }
                w.endArray()
            } else {
                w.value(fields[key]!)
            }
        }
        w.endObject()
        return w.takeBytes()
    }

    public static func == (a: FeedDay, b: FeedDay) -> Bool { a.bytes == b.bytes }
}
