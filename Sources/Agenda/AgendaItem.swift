import CanonicalJSON
#if canImport(Glibc)
import Glibc
#endif

/// One item of a section: an event occurrence on one date, or a placeholder.
///
/// A place in an immutable block (`AgendaItem.Block`): one series' expansion is one
/// block, which holds once what its occurrences share (the calendar, summary, location,
/// description, uid: a template) and per item only its sort keys, dates and id. The
/// expansion cache, the view's memo, its per-date lists and the snapshot's sections all
/// hold the same block, so a copy is one pointer and an index.
public struct AgendaItem: @unchecked Sendable, Equatable { // @unchecked: `Block` (a ManagedBuffer, never Sendable) is written once when made and only read after
    /// The block the item is in, and its place there.
    let block: Block
    let index: Int

    /// Stable id (docs/data-model.md).
    public var id: String { withIDBytes { String(decoding: $0, as: UTF8.self) } }
    /// The item as canonical JSON, written out from its block (`ItemJSON`).
    public var json: [UInt8] { [UInt8](unsafeUninitializedCapacity: jsonCount) { $1 = writeJSON(to: $0.baseAddress!) } }
    /// The length of `json`.
    public var jsonCount: Int { Int(block.slot(index).fullCount) }
    /// The item as a JSON value (for tools that want fields).
    public var value: JSONValue { (try? JSONValue.parse(json)) ?? .null }

    /// Writes `json` at `out` (room for `jsonCount` bytes) and returns `jsonCount`.
    public func writeJSON(to out: UnsafeMutablePointer<UInt8>) -> Int {
        block.writeJSON(index, to: out)
    }

    /// Appends `json` to `bytes`.
    public func appendJSON(to bytes: inout [UInt8]) {
        bytes += json
    }

    /// Sort keys: all-day first, then start, end, summary, id.
    var allDay: Bool { block.slot(index).allDay }
    var sortStart: Int64 { block.slot(index).sortStart }
    var sortEnd: Int64 { block.slot(index).sortEnd }
    /// The summary's first 8 bytes, big-endian, zero-padded (`Block.Template`).
    var summaryPrefix: UInt64 { block.template(Int(block.slot(index).template)).summaryPrefix }

    /// Equal JSON and sort keys (the same place in the same block, at least).
    public static func == (a: AgendaItem, b: AgendaItem) -> Bool {
        if a.block === b.block && a.index == b.index { return true }
        let x = a.block.slot(a.index), y = b.block.slot(b.index)
        guard x.allDay == y.allDay, x.sortStart == y.sortStart, x.sortEnd == y.sortEnd, x.fullCount == y.fullCount else {
            return false
        }
        return a.json == b.json
    }

    /// The bytes of the id and the summary, for ordering without making Strings.
    func withIDBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        block.withIDBytes(index, body)
    }

    /// The identity of the item's block: every item of one series' expansion has it,
    /// and no item of another series (a block is made for one series).
    var identity: ObjectIdentifier { ObjectIdentifier(block) }

    func withSummaryBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        block.withSummaryBytes(index, body)
    }
}
