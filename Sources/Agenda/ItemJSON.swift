import ICalendar

/// Items' canonical JSON, held compact: each member name items use (`"summary":`), and
/// the commonest values (`false`, `null`), is kept as one byte, a control byte that
/// canonical JSON never contains raw (it escapes every byte below 0x20), and written out
/// in full wherever the JSON leaves the item:
/// a snapshot's pieces, the digest, a diff, a section's JSON.
///
/// The names and those values are about 170 of an item's 400 bytes, and a year-long view holds a hundred
/// thousand items for as long as it lives. An item's JSON is kept in two parts
/// (`AgendaItem.Block`): a template its block shares among the occurrences of one event
/// record, with slots (`ownSlot`, `startSlot`, `endSlot`) where the item's own values
/// go, and those values. Values are kept verbatim, so an item's id and summary are
/// still ranges of its bytes.
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

    /// Template bytes: where the item's next own value goes, and its `start` and `end`
    /// written from its slot's fields; the own values are kept one after the other,
    /// each but the last followed by `separator`. Control bytes above the pieces'.
    static let ownSlot: UInt8 = 0x1C
    static let startSlot: UInt8 = 0x1D
    static let endSlot: UInt8 = 0x1E
    static let separator: UInt8 = 0x1F
    /// Template bytes for values written from the item's slot, not kept as bytes: the
    /// continuation flags (`Dates.flags`), a `recurrence_id` that is the item's start
    /// (`Dates.writeRecurrenceID`), and an id of 32 hex digits kept as its 16 bytes at
    /// the start of the own bytes (`Dates.rawID`). Together 40 of an occurrence's 57
    /// own bytes, for a hundred thousand items.
    static let fromSlot: UInt8 = 0x18
    static let toSlot: UInt8 = 0x19
    static let idSlot: UInt8 = 0x1A
    static let recurrenceIDSlot: UInt8 = 0x1B

    /// An own value as kept: one of `values` as its byte, any other as it is.
    static func compactValue(_ value: ArraySlice<UInt8>) -> [UInt8] {
        if let v = values.firstIndex(where: { $0.elementsEqual(value) }) { return [UInt8(names.count + v + 1)] }
        return Array(value)
    }

    /// Writes the full JSON of an item at `out` (room for all of it) and returns its
    /// length: its `template` with its `own` values and its `dates` in the slots. The
    /// hot path of digests and snapshot pieces: one pass, runs and names copied from a
    /// table made once.
    static func expand(template: UnsafeBufferPointer<UInt8>, own: UnsafeBufferPointer<UInt8>, dates: Dates,
                       into out: UnsafeMutablePointer<UInt8>) -> Int {
        // Byte by byte: the runs and names are a few bytes to a few dozen, where a call
        // to memmove for each costs more than the copying.
        guard let source = template.baseAddress else { return 0 }
        let table = PieceTable.shared
        var to = 0, next = dates.flags & Dates.rawID != 0 ? 16 : 0
        @inline(__always) func put(_ byte: UInt8) {
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
        for i in 0..<template.count {
            let byte = source[i]
            if byte >= 0x20 {
                out[to] = byte
                to += 1
            } else if byte < fromSlot {
                put(byte)
            } else if byte == ownSlot {
                while next < own.count, own[next] != separator {
                    put(own[next])
                    next += 1
                }
                next += 1
            } else if byte >= startSlot {
                to += dates.write(end: byte == endSlot, to: out + to)
            } else if byte == idSlot {
                to += writeHex(own.baseAddress!, to: out + to)
            } else if byte == recurrenceIDSlot {
                to += dates.writeRecurrenceID(to: out + to)
            } else {
                put(dates.flags & (byte == fromSlot ? Dates.fromPrevious : Dates.toNext) != 0 ? trueByte : falseByte)
            }
        }
        return to
    }

    /// The kept bytes of `true` and `false` (`values`).
    static let falseByte = UInt8(names.count + 1), trueByte = UInt8(names.count + 2)

    /// Writes the 16 bytes at `raw` as 32 lowercase hex digits in quotes; returns 34.
    @inline(__always)
    static func writeHex(_ raw: UnsafePointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> Int {
        out[0] = UInt8(ascii: "\"")
        for k in 0..<16 {
            let b = raw[k], hi = b >> 4, lo = b & 15
            out[1 + 2 * k] = hi < 10 ? 48 &+ hi : 87 &+ hi
            out[2 + 2 * k] = lo < 10 ? 48 &+ lo : 87 &+ lo
        }
        out[33] = UInt8(ascii: "\"")
        return 34
    }

    /// The 16 bytes whose `writeHex` is `value` (a quoted string of 32 lowercase hex
    /// digits), nil for any other value.
    static func rawHex(_ value: ArraySlice<UInt8>) -> [UInt8]? {
        guard value.count == 34, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") else { return nil }
        func digit(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: c - 48
            case 97...102: c - 87
            default: nil
            }
        }
        var raw: [UInt8] = []
        raw.reserveCapacity(16)
        var i = value.startIndex + 1
        for _ in 0..<16 {
            guard let hi = digit(value[i]), let lo = digit(value[i + 1]) else { return nil }
            raw.append(hi << 4 | lo)
            i += 2
        }
        return raw
    }

    /// The full JSON of `compact`, JSON without slots (JSON without names kept compact
    /// is its own full form).
    public static func expand(_ compact: [UInt8]) -> [UInt8] {
        compact.withUnsafeBufferPointer { c in
            let table = PieceTable.shared
            let full = c.reduce(0) { $0 + ($1 < 0x20 ? table.starts[Int($1) + 1] - table.starts[Int($1)] : 1) }
            return [UInt8](unsafeUninitializedCapacity: full) {
                $1 = expand(template: c, own: UnsafeBufferPointer(start: nil, count: 0),
                            dates: Dates(start: 0, end: 0, startField: 0, endField: 0, allDay: true), into: $0.baseAddress!)
            }
        }
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
}

extension ItemJSON {
    /// What an item's `start` and `end` are written from, where its template has their
    /// slots: for a timed item its instants and the view zone's UTC offsets at each,
    /// for an all-day one its dates (days since the epoch) in the fields. A block keeps
    /// these instead of the 25-byte strings (a slot is used only where they give the
    /// very bytes the item was written with: `writes`).
    struct Dates {
        var start: Int64
        var end: Int64
        var startField: Int32
        var endField: Int32
        var allDay: Bool
        /// `fromPrevious`, `toNext` and `rawID`.
        var flags: UInt8 = 0

        static let fromPrevious: UInt8 = 1, toNext: UInt8 = 2, rawID: UInt8 = 4

        /// Writes the `start` (or `end`) value, quotes included, at `out` (room for 32
        /// bytes); returns its length, 0 for a date this does not write (a year outside
        /// 0–9999, an offset of 100 hours or more).
        func write(end isEnd: Bool, to out: UnsafeMutablePointer<UInt8>) -> Int {
            let field = Int(isEnd ? endField : startField)
            var p = out
            // Two digits at a time: this runs twice for every item a digest or a
            // snapshot writes out.
            @inline(__always) func two(_ value: Int) {
                let tens = value / 10
                p[0] = 48 &+ UInt8(truncatingIfNeeded: tens)
                p[1] = 48 &+ UInt8(truncatingIfNeeded: value &- tens &* 10)
                p += 2
            }
            @inline(__always) func digits(_ value: Int, _ count: Int) {
                if count == 4 { two(value / 100) }
                two(value % 100)
            }
            @inline(__always) func byte(_ b: UInt8) {
                p.pointee = b
                p += 1
            }
            let quote = UInt8(ascii: "\""), dash = UInt8(ascii: "-"), colon = UInt8(ascii: ":")
            let days: Int, seconds: Int
            if allDay {
                (days, seconds) = (field, 0)
            } else {
                let local = (isEnd ? end : start) &+ Int64(field)
                let d = floorDiv(local, 86_400)
                (days, seconds) = (Int(d), Int(local - d * 86_400))
                guard abs(field) < 100 * 3600 else { return 0 }
            }
            let (year, month, day) = GregorianCalendar.date(daysSinceEpoch: days)
            guard year >= 0, year <= 9999 else { return 0 }
            byte(quote); digits(year, 4); byte(dash); digits(month, 2); byte(dash); digits(day, 2)
            if !allDay {
                byte(UInt8(ascii: "T")); digits(seconds / 3600, 2); byte(colon); digits(seconds / 60 % 60, 2); byte(colon)
                digits(seconds % 60, 2)
                let offset = abs(field)
                byte(field < 0 ? dash : UInt8(ascii: "+")); digits(offset / 3600, 2); byte(colon); digits(offset / 60 % 60, 2)
            }
            byte(quote)
            return p - out
        }

        /// Writes the `recurrence_id` an occurrence not moved from its instance has,
        /// quotes included (`SnapshotBuilder.recurrenceID`): an all-day item's start date
        /// (`20261129`), a timed one's start in UTC (`20261129T090000Z`); returns its
        /// length, 0 for a year outside 0–9999.
        func writeRecurrenceID(to out: UnsafeMutablePointer<UInt8>) -> Int {
            var p = out
            @inline(__always) func two(_ value: Int) {
                p[0] = 48 &+ UInt8(truncatingIfNeeded: value / 10)
                p[1] = 48 &+ UInt8(truncatingIfNeeded: value % 10)
                p += 2
            }
            let d = allDay ? Int64(startField) : floorDiv(start, 86_400)
            let (year, month, day) = GregorianCalendar.date(daysSinceEpoch: Int(d))
            guard year >= 0, year <= 9999 else { return 0 }
            p.pointee = UInt8(ascii: "\""); p += 1
            two(year / 100); two(year % 100); two(month); two(day)
            if !allDay {
                let seconds = Int(start - d * 86_400)
                p.pointee = UInt8(ascii: "T"); p += 1
                two(seconds / 3600); two(seconds / 60 % 60); two(seconds % 60)
                p.pointee = UInt8(ascii: "Z"); p += 1
            }
            p.pointee = UInt8(ascii: "\""); p += 1
            return p - out
        }

        /// Whether `write` gives exactly `value`.
        func writes(_ value: ArraySlice<UInt8>, end isEnd: Bool) -> Bool {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
                let count = write(end: isEnd, to: buffer.baseAddress!)
                return count > 0 && buffer[..<count].elementsEqual(value)
            }
        }

        /// Whether `writeRecurrenceID` gives exactly `value`.
        func writesRecurrenceID(_ value: ArraySlice<UInt8>) -> Bool {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
                let count = writeRecurrenceID(to: buffer.baseAddress!)
                return count > 0 && buffer[..<count].elementsEqual(value)
            }
        }
    }
}
