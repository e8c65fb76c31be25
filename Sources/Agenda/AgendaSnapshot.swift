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
    /// The digest of `view.digestVersion` (docs/protocol.md): protocol 1's SHA-256 of
    /// the canonical JSON of `sections`, or protocol 2's of the sections' digests.
    public var digest: String
    /// The local date in the view's zone when it was computed (labels are relative to it).
    public var today: CivilDate
    /// The number of items in all sections.
    public let itemCount: Int
    /// The length of the `sections` array's JSON, within a few bytes per section (for reserving).
    public let sectionsSize: Int

    /// A snapshot; the counts are taken from `sections` unless given (a build that keeps
    /// them per date passes them, so that a one-event change does not walk every item).
    public init(view: View, sections: [AgendaSection], digest: String, today: CivilDate,
                itemCount: Int? = nil, sectionsSize: Int? = nil) {
        self.view = view
        self.sections = sections
        self.digest = digest
        self.today = today
        self.itemCount = itemCount ?? sections.reduce(0) { $0 + $1.items.count }
        self.sectionsSize = sectionsSize ?? Self.encodedSize(of: sections)
    }

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

    static func encodedSize(of sections: [AgendaSection]) -> Int {
        sections.reduce(2) { $0 + encodedSize(of: $1) }
    }

    /// One section's share of `encodedSize`.
    static func encodedSize(of section: AgendaSection) -> Int {
        80 + section.items.reduce(0) { $0 + $1.jsonCount + 1 }
    }

    /// The digest of a sections array in `version`, computed whole (a build keeps its
    /// parts instead: `ViewMemo`).
    public static func digest(of sections: [AgendaSection], version: View.DigestVersion) -> String {
        switch version {
        case .whole: return digest(of: sections)
        case .sections: return viewDigest(sections.map(sectionDigest))
        }
    }

    /// Protocol 2's digest of one section: the lowercase hex SHA-256 of its canonical
    /// JSON, as ASCII bytes.
    static func sectionDigest(_ s: AgendaSection) -> [UInt8] {
        var digest = BufferedDigest(continuing: SHA256())
        hashSection(s, first: true, into: &digest)
        return hexBytes(digest.state().finalize())
    }

    /// Protocol 2's digest of a view from its sections' digests, in order.
    static func viewDigest(_ sectionDigests: some Sequence<[UInt8]>) -> String {
        var sha = SHA256()
        for d in sectionDigests { sha.update(d) }
        return String(decoding: hexBytes(sha.finalize()), as: UTF8.self)
    }

    static func hexBytes(_ raw: [UInt8]) -> [UInt8] {
        let hex = Array("0123456789abcdef".utf8)
        return raw.flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 15)]] }
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
            // is a place in its series' block on the heap, so reading an item's bytes
            // waits on loads that often miss the cache; reading the group's sizes first
            // issues those loads for every item of the group at once (none depends on
            // another), instead of one item's after the other's bytes were copied.
            var start = 0
            while start < items.count {
                let end = min(start + Self.digestGroup, items.count)
                var bytes = 0
                for k in start..<end { bytes &+= items[k].jsonCount }
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
        return String(decoding: hexBytes(sha.finalize()), as: UTF8.self)
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
