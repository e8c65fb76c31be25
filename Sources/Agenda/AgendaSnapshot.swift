import ICalendar
import CanonicalJSON
import Digests

/// One local date of the view.
public struct AgendaSection: Sendable, Equatable {
    /// The local date.
    public var date: CivilDate
    /// `"yesterday"`, `"today"`, `"tomorrow"` or nil.
    public var label: String?
    /// The date's items, in display order.
    public var items: [AgendaItem]

    /// The section id (its ISO date).
    public var id: String { date.iso }

    /// The header as canonical JSON: `{"date":…,"id":…,"label":…}` (no items).
    public var headerJSON: [UInt8] {
        var w = JSONWriter()
        writeHeader(&w, closing: true)
        return w.takeBytes()
    }

    func writeHeader(_ w: inout JSONWriter, closing: Bool) {
        w.beginObject()
        w.key("date"); w.string(date.iso)
        w.key("id"); w.string(date.iso)
        if !closing {
            w.key("items")
            w.beginArray()
            for item in items { w.raw(item.json) }
            w.endArray()
        }
        w.key("label")
        if let label { w.string(label) } else { w.null() }
        w.endObject()
    }

    /// The whole section as canonical JSON.
    public var json: [UInt8] {
        var w = JSONWriter()
        writeHeader(&w, closing: false)
        return w.takeBytes()
    }
}

/// A view's snapshot: its normalised view, date sections in order, and the digest.
public struct AgendaSnapshot: Sendable, Equatable {
    /// The view it was computed for.
    public var view: View
    /// The date sections, in date order.
    public var sections: [AgendaSection]
    /// Lowercase hex SHA-256 of the canonical JSON of `sections`.
    public var digest: String
    /// The local date in the view's zone when it was computed (labels are relative to it).
    public var today: CivilDate

    /// The `sections` array as canonical JSON.
    public var sectionsJSON: [UInt8] { Self.sectionsJSON(sections) }

    static func sectionsJSON(_ sections: [AgendaSection]) -> [UInt8] {
        var w = JSONWriter(reservingCapacity: encodedSize(of: sections))
        writeSections(sections, into: &w)
        return w.takeBytes()
    }

    /// Writes the `sections` array into `w` (a value where `w` expects one), so that a
    /// message holds the only copy of the sections' bytes.
    public func writeSections(into w: inout JSONWriter) { Self.writeSections(sections, into: &w) }

    static func writeSections(_ sections: [AgendaSection], into w: inout JSONWriter) {
        w.beginArray()
        for s in sections { s.writeHeader(&w, closing: false) }
        w.endArray()
    }

    /// The length of the `sections` array's JSON, within a few bytes per section (for reserving).
    public var sectionsSize: Int { Self.encodedSize(of: sections) }

    /// The number of items in all sections.
    public var itemCount: Int { sections.reduce(0) { $0 + $1.items.count } }

    static func encodedSize(of sections: [AgendaSection]) -> Int {
        sections.reduce(2) { $0 + 80 + $1.items.reduce(0) { $0 + $1.jsonCount + 1 } }
    }

    /// The digest of a sections array: SHA-256 fed section by section and item by item
    /// (through `BufferedDigest`), never the whole array at once (a year-long view's
    /// JSON is tens of megabytes).
    public static func digest(of sections: [AgendaSection]) -> String {
        var digest = BufferedDigest(continuing: digestStart)
        for (n, s) in sections.enumerated() { hashSection(s, first: n == 0, into: &digest) }
        return finishDigest(digest.state())
    }

    /// Feeds one section of a sections array into `digest` (after a comma unless `first`).
    static func hashSection(_ s: AgendaSection, first: Bool, into digest: inout BufferedDigest) {
        if !first { digest.update(byte: UInt8(ascii: ",")) }
        // The header of a section without items, cut at its empty `items` array: the
        // bytes around the items are then exactly the writer's (the date and label
        // before it hold no "[").
        let empty = AgendaSection(date: s.date, label: s.label, items: []).json
        let open = empty.firstIndex(of: UInt8(ascii: "["))! + 1
        empty.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[..<open])) }
        s.items.withUnsafeBufferPointer { items in
            // A group of items at a time: first their sizes, then their bytes. Each item
            // is a record and an array on the heap, so reading an item's bytes waits on
            // two loads that often miss the cache; reading the group's sizes first issues
            // those loads for every item of the group at once (none depends on another),
            // instead of one item's after the other's bytes were copied.
            var start = 0
            while start < items.count {
                let end = min(start + Self.digestGroup, items.count)
                var bytes = 0
                for k in start..<end { bytes &+= Int(items[k].record.header.fullCount) }
                digest.reserve(bytes + (end - start))
                for k in start..<end {
                    if k > 0 { digest.update(byte: UInt8(ascii: ",")) }
                    let item = items[k]
                    digest.update(count: item.jsonCount) { item.writeJSON(to: $0) }
                }
                start = end
            }
        }
        empty.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[open...])) }
    }

    /// The hex digest of a sections array whose "[" and sections `sha` was fed.
    static func finishDigest(_ sha: SHA256) -> String {
        var sha = sha
        sha.update(closeBracket)
        let hex = Array("0123456789abcdef".utf8)
        return String(decoding: sha.finalize().flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] }, as: UTF8.self)
    }

    /// How many items `hashSection` looks up before hashing them.
    static let digestGroup = 64

    /// The hasher of a sections array before its first section: fed its "[".
    static let digestStart: SHA256 = {
        var sha = SHA256()
        sha.update([UInt8(ascii: "[")])
        return sha
    }()

    static let closeBracket: [UInt8] = [UInt8(ascii: "]")]

    /// `{"view": …, "digest": …, "sections": […]}` exactly as `eventctl agenda --json` prints it.
    public var agendaJSON: [UInt8] {
        var w = JSONWriter(reservingCapacity: sectionsSize + 256)
        w.beginObject()
        w.key("digest"); w.string(digest)
        w.key("sections"); writeSections(into: &w)
        w.key("view"); w.value(view.json)
        w.endObject()
        return w.takeBytes()
    }
}
