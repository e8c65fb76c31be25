import CSQLite
import ICalendar

/// The text parameters of one statement execution, gathered into one reused buffer and
/// bound without a copy (`SQLITE_STATIC`) while `run` steps the statement.
///
/// An import binds about a dozen texts per event. Bound as
/// `SQLITE_TRANSIENT`, SQLite copies each into memory of its own (about 700 instructions
/// per text in callgrind, most of it its allocator) only to copy it again into the row.
/// Here the texts are copied once into this buffer, which does not move while the
/// statement runs, and the statement's bindings are cleared before `run` returns, so no
/// parameter points into the buffer afterwards.
final class BoundTextArena {
    private var bytes: [UInt8] = []
    /// Parameter index, offset in `bytes`, byte count.
    private var spans: [(index: Int32, start: Int, count: Int)] = []

    init() {
        bytes.reserveCapacity(4096)
        spans.reserveCapacity(32)
    }

    /// Adds `text` for parameter `index` of `statement`; NULL is bound at once.
    func add(_ text: String?, at index: Int32, of statement: Statement) throws(SQLiteError) {
        guard let text else { return try statement.bindText(nil, at: index) }
        spans.append((index, bytes.count, text.utf8.count))
        bytes.append(contentsOf: text.utf8)
    }

    /// Adds `digest`'s storage form (32 hex digits) for parameter `index`; NULL for nil.
    func add(_ digest: BlockDigest?, at index: Int32, of statement: Statement) throws(SQLiteError) {
        guard let digest else { return try statement.bindInt(nil, at: index) }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: 32))
        bytes.withUnsafeMutableBytes { digest.writeHex(into: UnsafeMutableRawBufferPointer(rebasing: $0[start..<(start + 32)])) }
        spans.append((index, start, 32))
    }

    /// Binds the gathered texts to `statement` (whose other parameters are bound), runs
    /// it to completion, then resets it and clears all its bindings.
    func run(_ statement: Statement) throws {
        defer {
            spans.removeAll(keepingCapacity: true)
            bytes.removeAll(keepingCapacity: true)
        }
        try bytes.withUnsafeBufferPointer { buffer in
            defer {
                sqlite3_reset(statement.handle)
                sqlite3_clear_bindings(statement.handle)
            }
            for span in spans {
                let code: Int32
                if span.count == 0 {
                    // An empty text is '' (not NULL), which needs a pointer.
                    code = sqlite3_bind_text(statement.handle, span.index, "", 0, eventd_sqlite_transient())
                } else {
                    let pointer = UnsafeRawPointer(buffer.baseAddress! + span.start).assumingMemoryBound(to: CChar.self)
                    code = sqlite3_bind_text(statement.handle, span.index, pointer, Int32(span.count), nil)
                }
                try check(code, statement.connection.handle, sql: statement.sql)
            }
            while try statement.step() {}
        }
    }
}
