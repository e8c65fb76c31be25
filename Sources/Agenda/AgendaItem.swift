import CanonicalJSON
#if canImport(Glibc)
import Glibc
#endif

/// One item of a section: an event occurrence on one date, or a placeholder.
///
/// One reference to an immutable record: the expansion cache, the view's memo, its
/// per-date lists and the snapshot's sections all hold the same item, so a copy is one
/// pointer (and one retain) instead of three buffers and the sort keys. The id and the
/// summary are ranges into the JSON bytes (kept apart only when escaping changed them).
public struct AgendaItem: @unchecked Sendable, Equatable { // @unchecked: `Record` (a ManagedBuffer, never Sendable) is written once when made and only read after
    /// The shared record; `===` on it is the item's identity within one engine.
    let record: Record

    /// Stable id (docs/data-model.md).
    public var id: String { withIDBytes { String(decoding: $0, as: UTF8.self) } }
    /// The item as canonical JSON (a copy made from its compact form, `ItemJSON`).
    public var json: [UInt8] { [UInt8](unsafeUninitializedCapacity: jsonCount) { $1 = writeJSON(to: $0.baseAddress!) } }
    /// A copy of the item's JSON as held (`ItemJSON`), for tests.
    var compactJSON: [UInt8] { record.withJSON { Array($0) } }
    /// The length of `json`.
    public var jsonCount: Int { Int(record.header.fullCount) }
    /// The item as a JSON value (for tools that want fields).
    public var value: JSONValue { (try? JSONValue.parse(json)) ?? .null }

    /// Writes `json` at `out` (room for `jsonCount` bytes) and returns `jsonCount`.
    public func writeJSON(to out: UnsafeMutablePointer<UInt8>) -> Int {
        record.withJSON { ItemJSON.expand($0, into: out) }
    }

    /// Appends `json` to `bytes`.
    public func appendJSON(to bytes: inout [UInt8]) {
        bytes += json
    }

    /// Sort keys: all-day first, then start, end, summary, id.
    var allDay: Bool { record.header.allDay }
    var sortStart: Int64 { record.header.sortStart }
    var sortEnd: Int64 { record.header.sortEnd }

    /// `json`, whose bytes at `idRange` are the id, and at `summaryRange` the summary
    /// when `summary` is nil (its JSON form is its bytes), else `summary` holds them.
    /// The item keeps it compact (`ItemJSON`).
    init(json: [UInt8], idRange: Range<Int>, summaryRange: Range<Int>, summary: [UInt8]?, allDay: Bool,
         sortStart: Int64, sortEnd: Int64) {
        let compact = ItemJSON.compact(json, ranges: [idRange, summaryRange])
        record = Record.make(json: compact.bytes, fullCount: compact.fullCount, idRange: compact.ranges[0],
                             summaryRange: compact.ranges[1], summary: summary, allDay: allDay,
                             sortStart: sortStart, sortEnd: sortEnd)
    }

    public static func == (a: AgendaItem, b: AgendaItem) -> Bool {
        a.record === b.record || (a.allDay == b.allDay && a.sortStart == b.sortStart && a.sortEnd == b.sortEnd
            && a.record.withJSON { x in b.record.withJSON { y in x.elementsEqual(y) } })
    }

    /// The bytes of the id and the summary, for ordering without making Strings.
    func withIDBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        record.withJSON { body(UnsafeBufferPointer(rebasing: $0[record.idRange])) }
    }

    /// The record's identity (items of one engine are the same record wherever held).
    var identity: ObjectIdentifier { ObjectIdentifier(record) }

    func withSummaryBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let summary = record.header.summary { return summary.withUnsafeBufferPointer(body) }
        return record.withJSON { body(UnsafeBufferPointer(rebasing: $0[record.summaryRange])) }
    }
}
