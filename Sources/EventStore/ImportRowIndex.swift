import CSQLite
import ICalendar

/// One calendar's rows as an import compares them, without their keys' text.
///
/// A map from `(UID, RECURRENCE-ID)` strings to row summaries cost about
/// 44 MiB at 100,000 events (the strings, the content hashes as strings, and a resize
/// of the whole table). Here a row is a fixed-size summary in one array, found by a
/// 64-bit hash of its key; a hash hit is confirmed against the row's stored key in
/// SQLite (`matches`), so two keys with the same hash are told apart exactly: the later
/// one is kept in `overflow` by its text (rare: 64-bit hashes of distinct keys).
struct ImportRowIndex {
    /// What an import needs of one stored row. 64 bytes instead of 96 as plain optionals
    /// (an import of 100,000 new events holds 100,000 of them): the optionals' flags share
    /// one byte.
    struct Row {
        var id: Int64
        var sourceID: Int64
        private var storedModified: Int64
        private var storedHash: UInt64
        /// `ImportRowIndex.keyHash` of its UID and RECURRENCE-ID.
        var keyHash: UInt64
        private var storedBlock: BlockDigest
        private var storedSequence: Int32
        private var flags: Flags

        private struct Flags: OptionSet {
            let rawValue: UInt8
            static let modified = Flags(rawValue: 1)
            static let hash = Flags(rawValue: 2)
            static let block = Flags(rawValue: 4)
            static let seenHere = Flags(rawValue: 8)
            static let removed = Flags(rawValue: 16)
        }

        init(id: Int64, sourceID: Int64, modified: Int64?, hash: UInt64?, keyHash: UInt64, block: BlockDigest?,
             sequence: Int, seenHere: Bool = false) {
            self.id = id
            self.sourceID = sourceID
            storedModified = modified ?? 0
            storedHash = hash ?? 0
            self.keyHash = keyHash
            storedBlock = block ?? BlockDigest(high: 0, low: 0)
            storedSequence = Int32(clamping: sequence)
            flags = []
            if modified != nil { flags.insert(.modified) }
            if hash != nil { flags.insert(.hash) }
            if block != nil { flags.insert(.block) }
            if seenHere { flags.insert(.seenHere) }
        }

        var modified: Int64? { flags.contains(.modified) ? storedModified : nil }
        /// `content_hash` as its 64 bits (nil: not 16 hex digits, equal to nothing).
        var hash: UInt64? { flags.contains(.hash) ? storedHash : nil }
        /// The digest of the block the row was read from (nil: unknown or read with warnings).
        var block: BlockDigest? { flags.contains(.block) ? storedBlock : nil }
        /// SEQUENCE (clamped to 32 bits, as iCalendar's integers are).
        var sequence: Int { Int(storedSequence) }
        /// The file being imported contained this key.
        var seenHere: Bool {
            get { flags.contains(.seenHere) }
            set { if newValue { flags.insert(.seenHere) } else { flags.remove(.seenHere) } }
        }
        /// Deleted by this run: its slot is dead.
        var removed: Bool {
            get { flags.contains(.removed) }
            set { if newValue { flags.insert(.removed) } else { flags.remove(.removed) } }
        }
    }

    /// A row's position in `rows`, stable for the run.
    typealias Slot = Int32

    /// Every row, by slot (deleted ones stay, marked `removed`).
    private(set) var rows: [Row] = []
    /// The slot of each key hash's first row.
    private var slots: [UInt64: Slot] = [:]
    /// Rows whose key hash was taken by another key, by their key's text.
    private var overflow: [ImportWriter.EventKey: Slot] = [:]
    private var overflowKeys: [Slot: ImportWriter.EventKey] = [:]
    /// The live slots each source owns, so that a file's stale rows are found without
    /// looking at every row of its calendar (a vdir of many small files).
    private(set) var owned: [Int64: Set<Slot>] = [:]

    /// The hash rows are found by (Swift's seeded SipHash: only ever kept in memory).
    static func keyHash(uid: UnsafeRawBufferPointer, rid: UnsafeRawBufferPointer) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(uid.count)
        hasher.combine(bytes: uid)
        hasher.combine(bytes: rid)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    static func keyHash(_ key: ImportWriter.EventKey) -> UInt64 {
        var uid = key.uid, rid = key.rid
        return uid.withUTF8 { u in rid.withUTF8 { r in keyHash(uid: UnsafeRawBufferPointer(u), rid: UnsafeRawBufferPointer(r)) } }
    }

    /// `content_hash` text (16 hex digits) as its value.
    static func contentHash(_ text: String) -> UInt64? {
        var text = text
        return text.withUTF8 { contentHash(hexBytes: UnsafeRawBufferPointer($0)) }
    }

    /// `content_hash` bytes (16 hex digits) as their value; nil for anything else.
    static func contentHash(hexBytes bytes: UnsafeRawBufferPointer) -> UInt64? {
        guard bytes.count == 16 else { return nil }
        return BlockDigest.hexValue(bytes)
    }

    /// The live slot of `key` (whose `keyHash` is `hash`); `matches(id)` says whether the
    /// stored row `id` has this key.
    func slot(of key: ImportWriter.EventKey, hash: UInt64, matches: (Int64) throws -> Bool) rethrows -> Slot? {
        if !overflow.isEmpty, let slot = overflow[key] { return slot }
        if let slot = slots[hash], try matches(rows[Int(slot)].id) { return slot }
        return nil
    }

    /// Adds a row whose key has no live slot (`slot(of:)` returned nil); `key` is needed
    /// only when another key holds its hash.
    @discardableResult
    mutating func append(_ row: Row, key: @autoclosure () -> ImportWriter.EventKey) -> Slot {
        let slot = Slot(rows.count)
        rows.append(row)
        if slots[row.keyHash] == nil {
            slots[row.keyHash] = slot
        } else {
            let text = key()
            overflow[text] = slot
            overflowKeys[slot] = text
        }
        owned[row.sourceID, default: []].insert(slot)
        return slot
    }

    /// Reserves room for `count` more rows (the file's VEVENT count is known up front).
    mutating func reserve(_ count: Int) {
        rows.reserveCapacity(rows.count + count)
        slots.reserveCapacity(slots.count + count)
    }

    subscript(slot: Slot) -> Row {
        get { rows[Int(slot)] }
        set {
            let old = rows[Int(slot)].sourceID
            if newValue.sourceID != old {
                owned[old]?.remove(slot)
                owned[newValue.sourceID, default: []].insert(slot)
            }
            rows[Int(slot)] = newValue
        }
    }

    /// Marks `slot`'s row deleted: its key is free for a new row.
    mutating func remove(_ slot: Slot) {
        let row = rows[Int(slot)]
        rows[Int(slot)].removed = true
        owned[row.sourceID]?.remove(slot)
        if let key = overflowKeys.removeValue(forKey: slot) {
            overflow[key] = nil
        } else if slots[row.keyHash] == slot {
            slots[row.keyHash] = nil
        }
    }

    /// Clears `seenHere` for `seen` (the slots one file contained).
    mutating func clearSeen(_ seen: [Slot]) {
        for slot in seen { rows[Int(slot)].seenHere = false }
    }
}
