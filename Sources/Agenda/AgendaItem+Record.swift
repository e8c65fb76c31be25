extension AgendaItem {
    /// What an item's record holds besides its JSON.
    struct RecordHeader {
        /// The compact JSON's length (`ItemJSON`), and the full JSON's.
        let count: UInt32
        let fullCount: UInt32
        let sortStart: Int64
        let sortEnd: Int64
        // Offsets as 32-bit pairs: an item's JSON is far below 4 GB.
        let idStart: UInt32, idEnd: UInt32
        let summaryStart: UInt32, summaryEnd: UInt32
        /// The summary's bytes when its JSON form differs (escapes); nil almost always.
        let summary: [UInt8]?
        /// The summary's first 8 bytes, big-endian, zero-padded: when two differ, they
        /// order the summaries as their bytes do (sorting reads no bytes then).
        let summaryPrefix: UInt64
        let allDay: Bool
    }

    /// An item's immutable record: its fields and its compact JSON in one allocation, as
    /// a year-long view holds a hundred thousand of them (a separate array cost each
    /// item another allocation and its 32-byte header).
    /// Written once, in `make`, and only read after (so `AgendaItem` may cross threads).
    final class Record: ManagedBuffer<RecordHeader, UInt8> {
        /// A record of the compact JSON `json` and the fields.
        static func make(json: [UInt8], fullCount: Int, idRange: Range<Int>, summaryRange: Range<Int>, summary: [UInt8]?,
                         allDay: Bool, sortStart: Int64, sortEnd: Int64) -> Record {
            var prefix: UInt64 = 0
            func take(_ bytes: UnsafeBufferPointer<UInt8>) {
                for k in 0..<8 { prefix = prefix << 8 | UInt64(k < bytes.count ? bytes[k] : 0) }
            }
            if let summary {
                summary.withUnsafeBufferPointer(take)
            } else {
                json.withUnsafeBufferPointer { take(UnsafeBufferPointer(rebasing: $0[summaryRange])) }
            }
            let header = RecordHeader(
                count: UInt32(json.count), fullCount: UInt32(fullCount), sortStart: sortStart, sortEnd: sortEnd,
                idStart: UInt32(idRange.lowerBound), idEnd: UInt32(idRange.upperBound),
                summaryStart: UInt32(summaryRange.lowerBound), summaryEnd: UInt32(summaryRange.upperBound),
                summary: summary, summaryPrefix: prefix, allDay: allDay)
            let record = unsafeDowncast(Record.create(minimumCapacity: json.count) { _ in header }, to: Record.self)
            record.withUnsafeMutablePointerToElements { elements in
                json.withUnsafeBufferPointer { bytes in
                    if let base = bytes.baseAddress { elements.initialize(from: base, count: bytes.count) }
                }
            }
            return record
        }

        /// Calls `body` with the compact JSON.
        func withJSON<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            let count = Int(header.count)
            return withUnsafeMutablePointerToElements { body(UnsafeBufferPointer(start: $0, count: count)) }
        }

        var idRange: Range<Int> { Int(header.idStart)..<Int(header.idEnd) }
        var summaryRange: Range<Int> { Int(header.summaryStart)..<Int(header.summaryEnd) }
    }
}
