/// Items' canonical JSON, held compact: each member name items use (`"summary":`), and
/// the commonest values (`false`, `null`), is kept as one byte, a control byte that
/// canonical JSON never contains raw (it escapes every byte below 0x20), and written out
/// in full wherever the JSON leaves the item:
/// a snapshot's pieces, the digest, a diff, a section's JSON.
///
/// The names and those values are about 170 of an item's 350 bytes, and a year-long view holds a hundred
/// thousand items for as long as it lives. Values are kept verbatim, so an item's id and
/// summary are still ranges of its bytes, and two items' JSON is equal exactly when
/// their compact forms are.
public enum ItemJSON {
    /// The member names, each as written (`"name":`); name `k` is kept as byte `k + 1`.
    static let names: [[UInt8]] = [
        "all_day", "calendar", "continues_from_previous_day", "continues_to_next_day", "end", "id", "kind",
        "location", "recurrence_id", "start", "status", "summary", "uid",
    ].map { Array("\"\($0)\":".utf8) }
    /// The values most members have, kept as one byte each after the names' bytes.
    static let values: [[UInt8]] = ["false", "true", "null", "\"event\""].map { Array($0.utf8) }
    /// What each kept byte stands for: byte `k` for `pieces[k - 1]`.
    static let pieces = names + values

    /// The compact form of canonical item JSON `json`, its full length, and where each
    /// of `ranges` (ranges of values in `json`) lies in it.
    static func compact(_ json: [UInt8], ranges: [Range<Int>]) -> (bytes: [UInt8], fullCount: Int, ranges: [Range<Int>]) {
        // First where the names are (an item has a dozen), then the bytes at their length.
        var found: [(at: Int, piece: Int)] = []
        json.withUnsafeBufferPointer { j in
            var i = 1
            while i < j.count {
                if j[i] == UInt8(ascii: "\""), j[i - 1] == UInt8(ascii: "{") || j[i - 1] == UInt8(ascii: ",") {
                    // A member starts here: within a string a quote is always escaped.
                    if let name = names.firstIndex(where: { Self.matches($0, j, at: i) }) {
                        found.append((i, name))
                        i += names[name].count
                        // Its value, when it is one of `values` and all of the value.
                        if let value = values.firstIndex(where: { Self.matches($0, j, at: i) }),
                           i + values[value].count < j.count,
                           j[i + values[value].count] == UInt8(ascii: ",") || j[i + values[value].count] == UInt8(ascii: "}") {
                            found.append((i, names.count + value))
                            i += values[value].count
                        }
                        continue
                    }
                }
                i += 1
            }
        }
        guard !found.isEmpty else { return (json, json.count, ranges) }
        let saved = found.reduce(0) { $0 + pieces[$1.piece].count - 1 }
        let bytes = [UInt8](unsafeUninitializedCapacity: json.count - saved) { out, count in
            json.withUnsafeBufferPointer { j in
                var from = 0, to = 0
                for (at, piece) in found {
                    for k in from..<at { out[to] = j[k]; to += 1 }
                    out[to] = UInt8(piece + 1); to += 1
                    from = at + pieces[piece].count
                }
                for k in from..<j.count { out[to] = j[k]; to += 1 }
                count = to
            }
        }
        func moved(_ position: Int) -> Int {
            position - found.reduce(0) { $1.at < position ? $0 + pieces[$1.piece].count - 1 : $0 }
        }
        return (bytes, json.count, ranges.map { $0.isEmpty && $0.lowerBound == 0 ? $0 : moved($0.lowerBound)..<moved($0.upperBound) })
    }

    private static func matches(_ name: [UInt8], _ j: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        guard i + name.count <= j.count else { return false }
        for k in 0..<name.count where j[i + k] != name[k] { return false }
        return true
    }

    /// Writes the full JSON of `compact` at `out` (room for all of it) and returns its
    /// length. The hot path of digests and snapshot pieces: one pass, runs and names
    /// copied from a table made once.
    static func expand(_ compact: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        // Byte by byte: the runs and names are a few bytes to a few dozen, where a call
        // to memmove for each costs more than the copying.
        guard let source = compact.baseAddress else { return 0 }
        let table = PieceTable.shared
        var to = 0
        for i in 0..<compact.count {
            let byte = source[i]
            if byte >= 0x20 {
                out[to] = byte
                to += 1
            } else {
                let piece = Int(byte)
                for k in table.starts[piece]..<table.starts[piece + 1] {
                    out[to] = table.bytes[k]
                    to += 1
                }
            }
        }
        return to
    }

    /// `pieces` laid end to end once, for `expand`: the bytes byte `b` stands for
    /// (`pieces[b - 1]`) run from `starts[b]` to `starts[b + 1]`.
    private struct PieceTable: @unchecked Sendable { // @unchecked: made once, never written after, never freed
        let bytes: UnsafeMutablePointer<UInt8>
        let starts: UnsafeMutablePointer<Int>

        static let shared = PieceTable()

        private init() {
            let all = ItemJSON.pieces.flatMap { $0 }
            bytes = .allocate(capacity: all.count)
            bytes.initialize(from: all, count: all.count)
            starts = .allocate(capacity: ItemJSON.pieces.count + 2)
            starts[0] = 0
            starts[1] = 0 // byte 0 is never kept: piece k is byte k, from 1
            for (k, piece) in ItemJSON.pieces.enumerated() { starts[k + 2] = starts[k + 1] + piece.count }
        }
    }

    /// The full JSON of `compact` (JSON without names kept compact is its own full form).
    public static func expand(_ compact: [UInt8]) -> [UInt8] {
        compact.withUnsafeBufferPointer { c in
            let table = PieceTable.shared
            let full = c.reduce(0) { $0 + ($1 < 0x20 ? table.starts[Int($1) + 1] - table.starts[Int($1)] : 1) }
            return [UInt8](unsafeUninitializedCapacity: full) { $1 = expand(c, into: $0.baseAddress!) }
        }
    }
}
