import CanonicalJSON

/// One item of a section: an event occurrence on one date, or a placeholder.
///
/// One reference to an immutable record: the expansion cache, the view's memo, its
/// per-date lists and the snapshot's sections all hold the same item, so a copy is one
/// pointer (and one retain) instead of three buffers and the sort keys. The id and the
/// summary are ranges into the JSON bytes (kept apart only when escaping changed them).
public struct AgendaItem: Sendable, Equatable {
    /// The shared record; `===` on it is the item's identity within one engine.
    let record: Record

    /// Stable id (docs/data-model.md).
    public var id: String { String(decoding: record.json[record.idRange], as: UTF8.self) }
    /// The item as canonical JSON (a copy made from its compact form, `ItemJSON`).
    public var json: [UInt8] { ItemJSON.expand(record.json) }
    /// The item's JSON as held (`ItemJSON`): equal for two items exactly when `json` is.
    public var compactJSON: [UInt8] { record.json }
    /// The length of `json`.
    public var jsonCount: Int { Int(record.fullCount) }
    /// The item as a JSON value (for tools that want fields).
    public var value: JSONValue { (try? JSONValue.parse(json)) ?? .null }

    /// Calls `body` with `json` in pieces, in order, without making it.
    func forEachJSONPiece(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        record.json.withUnsafeBufferPointer { ItemJSON.forEachPiece(of: $0, body) }
    }

    /// Appends `json` to `bytes`.
    public func appendJSON(to bytes: inout [UInt8]) {
        forEachJSONPiece { bytes.append(contentsOf: $0) }
    }

    /// Sort keys: all-day first, then start, end, summary, id.
    var allDay: Bool { record.allDay }
    var sortStart: Int64 { record.sortStart }
    var sortEnd: Int64 { record.sortEnd }

    /// `json`, whose bytes at `idRange` are the id, and at `summaryRange` the summary
    /// when `summary` is nil (its JSON form is its bytes), else `summary` holds them.
    /// The item keeps it compact (`ItemJSON`).
    init(json: [UInt8], idRange: Range<Int>, summaryRange: Range<Int>, summary: [UInt8]?, allDay: Bool,
         sortStart: Int64, sortEnd: Int64) {
        let compact = ItemJSON.compact(json, ranges: [idRange, summaryRange])
        record = Record(json: compact.bytes, fullCount: compact.fullCount, idRange: compact.ranges[0],
                        summaryRange: compact.ranges[1], summary: summary, allDay: allDay,
                        sortStart: sortStart, sortEnd: sortEnd)
    }

    public static func == (a: AgendaItem, b: AgendaItem) -> Bool {
        a.record === b.record || (a.record.json == b.record.json && a.record.allDay == b.record.allDay
            && a.record.sortStart == b.record.sortStart && a.record.sortEnd == b.record.sortEnd)
    }

    /// The bytes of the id and the summary, for ordering without making Strings.
    func withIDBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        record.json.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[record.idRange])) }
    }

    /// The record's identity (items of one engine are the same record wherever held).
    var identity: ObjectIdentifier { ObjectIdentifier(record) }

    func withSummaryBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let summary = record.summary { return summary.withUnsafeBufferPointer(body) }
        return record.json.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[record.summaryRange])) }
    }

    /// The immutable part (all `let`s of Sendable types, so the class is Sendable).
    final class Record: Sendable {
        /// The compact JSON (`ItemJSON`).
        let json: [UInt8]
        /// The length of the full JSON.
        let fullCount: UInt32
        let sortStart: Int64
        let sortEnd: Int64
        // Offsets as 32-bit pairs: an item's JSON is far below 4 GB, and 16 bytes fewer
        // per item count in a year-long view.
        private let idStart: UInt32, idEnd: UInt32
        private let summaryStart: UInt32, summaryEnd: UInt32
        var idRange: Range<Int> { Int(idStart)..<Int(idEnd) }
        var summaryRange: Range<Int> { Int(summaryStart)..<Int(summaryEnd) }
        /// The summary's bytes when its JSON form differs (escapes); nil almost always.
        let summary: [UInt8]?
        /// The summary's first 8 bytes, big-endian, zero-padded: when two differ, they
        /// order the summaries as their bytes do (sorting reads no bytes then).
        let summaryPrefix: UInt64
        let allDay: Bool

        init(json: [UInt8], fullCount: Int, idRange: Range<Int>, summaryRange: Range<Int>, summary: [UInt8]?, allDay: Bool,
             sortStart: Int64, sortEnd: Int64) {
            self.json = json
            self.fullCount = UInt32(fullCount)
            idStart = UInt32(idRange.lowerBound); idEnd = UInt32(idRange.upperBound)
            summaryStart = UInt32(summaryRange.lowerBound); summaryEnd = UInt32(summaryRange.upperBound)
            self.summary = summary
            var prefix: UInt64 = 0
            func take(_ bytes: UnsafeBufferPointer<UInt8>) {
                for k in 0..<8 { prefix = prefix << 8 | UInt64(k < bytes.count ? bytes[k] : 0) }
            }
            if let summary {
                summary.withUnsafeBufferPointer(take)
            } else {
                json.withUnsafeBufferPointer { take(UnsafeBufferPointer(rebasing: $0[summaryRange])) }
            }
            summaryPrefix = prefix
            self.allDay = allDay
            self.sortStart = sortStart
            self.sortEnd = sortEnd
        }
    }
}
