import Digests

/// Several VEVENTs with one UID and no RECURRENCE-ID (invalid, RFC 5545 3.8.4.7, but
/// written: nylas' tests assert 2 events from such a file, ics-golang's fixture says "3
/// events", fullcalendar and ical-expander show each). Where their content differs, each
/// is its own event, identified by the UID and a suffix derived from its content (so the
/// id is the same on every import of the file and whatever the order of the copies);
/// identical copies (true duplicates) get one suffix, and the store's rule for one key
/// met twice keeps one. Where every copy is identical the UID is left as it is. Copies
/// of different SEQUENCE are revisions of one event: the latest wins, as before.
///
/// An override (RECURRENCE-ID) of such a UID belongs to one of them: the one whose
/// DTSTART is written as its RECURRENCE-ID is (a moved single event, or a series' first
/// instance), else the recurring one (RRULE or RDATE) with the latest DTSTART not after
/// it, else the first by suffix. The values are compared as written (`YYYYMMDDTHHMMSS`,
/// without parameters): a choice between copies, not a reading of their times.
///
/// The blocks are found by one look at each block's lines before any is parsed, so the
/// events can still be delivered as they are read.
enum SharedUIDs {
    /// What one block says of its identity, read from its lines as written.
    struct Block {
        var uid: String
        var recurrenceID: String?
        var start: String = ""
        var recurs = false
        var sequence = 0
    }

    /// What a block of a shared UID takes.
    struct Assignment: Sendable, Equatable {
        enum Role: Sendable { case copy, superseded, override }
        /// `#` and 12 hex digits, appended to the UID.
        var suffix: String
        var role: Role
    }

    /// What each slice of `slices` that takes a derived UID takes, by index: every block
    /// of a UID whose masters of its highest SEQUENCE differ. A copy of a lower SEQUENCE
    /// is an earlier revision (RFC 5545 3.8.7.4; node-ical's tests ignore it): it takes
    /// the suffix of one of the latest, and the rule for one key met twice drops it.
    static func assignments(_ slices: [ComponentSlice], _ buffer: UnsafeBufferPointer<UInt8>) -> [Int: Assignment] {
        // First only a hash of each master's UID (most files share none): a 64-bit hash
        // met twice makes its blocks candidates, read in full and compared as text below,
        // so a collision costs a few reads, never a wrong answer. Strings and a String
        // dictionary here cost most of the time before the first event of a large file.
        var uidHashes: [UInt64?] = []
        uidHashes.reserveCapacity(slices.count)
        var seen = Set<UInt64>(minimumCapacity: slices.count)
        var candidates = Set<UInt64>()
        for slice in slices {
            let key = masterKey(UnsafeBufferPointer(rebasing: buffer[slice.range]))
            uidHashes.append(key?.uidHash)
            if let key, !key.override, !seen.insert(key.uidHash).inserted { candidates.insert(key.uidHash) }
        }
        guard !candidates.isEmpty else { return [:] }
        var blocks = [Block?](repeating: nil, count: slices.count)
        var masterCounts: [String: Int] = [:]
        for (index, hash) in uidHashes.enumerated() {
            guard let hash, candidates.contains(hash),
                  let block = read(UnsafeBufferPointer(rebasing: buffer[slices[index].range]), full: true) else { continue }
            blocks[index] = block
            if block.recurrenceID == nil { masterCounts[block.uid, default: 0] += 1 }
        }
        let shared = Set(masterCounts.filter { $0.value > 1 }.keys)
        guard !shared.isEmpty else { return [:] }
        // The masters of each shared UID with their content suffixes.
        var masters: [String: [(index: Int, suffix: String, block: Block)]] = [:]
        for (index, block) in blocks.enumerated() {
            guard let block, block.recurrenceID == nil, shared.contains(block.uid) else { continue }
            let text = CalendarScanner.decodeText(UnsafeBufferPointer(rebasing: buffer[slices[index].range]))
            masters[block.uid, default: []].append((index, suffix(text), block))
        }
        var out: [Int: Assignment] = [:]
        var latest: [String: [(suffix: String, block: Block)]] = [:]
        for (uid, list) in masters {
            let top = list.map(\.block.sequence).max() ?? 0
            let current = list.filter { $0.block.sequence == top }
            // Identical copies, or one latest revision: one event under its own UID.
            guard Set(current.map(\.suffix)).count > 1 else { continue }
            let first = current.map(\.suffix).min()!
            for entry in list {
                out[entry.index] = entry.block.sequence == top ? Assignment(suffix: entry.suffix, role: .copy)
                    : Assignment(suffix: first, role: .superseded)
            }
            latest[uid] = current.map { ($0.suffix, $0.block) }
        }
        for (index, block) in blocks.enumerated() {
            guard let block, let rid = block.recurrenceID, let list = latest[block.uid] else { continue }
            out[index] = Assignment(suffix: owner(of: rid, among: list), role: .override)
        }
        return out
    }

    /// Gives `record` its derived UID, with the warning that says so.
    static func apply(_ assignment: Assignment, to record: inout EventRecord, _ issues: inout [String]) {
        let uid = record.uid
        record.uid = uid + assignment.suffix
        let shown = "\"\(record.uid.prefix(200))\""
        switch assignment.role {
        case .copy:
            issues.append("UID \"\(uid.prefix(200))\" is shared by VEVENTs that differ and have no RECURRENCE-ID "
                          + "(RFC 5545 3.8.4.7); each is kept as its own event, this one as \(shown)")
        case .superseded:
            issues.append("UID \"\(uid.prefix(200))\" is shared by VEVENTs without RECURRENCE-ID; this one has a lower "
                          + "SEQUENCE than the latest, an earlier revision, and is not shown")
        case .override:
            issues.append("override of the shared UID \"\(uid.prefix(200))\" attached to \(shown), "
                          + "the event of that UID its RECURRENCE-ID belongs to")
        }
    }

    /// The suffix of the master an override with RECURRENCE-ID `rid` belongs to.
    static func owner(of rid: String, among masters: [(suffix: String, block: Block)]) -> String {
        let sorted = masters.sorted { $0.suffix < $1.suffix }
        if let same = sorted.first(where: { $0.block.start == rid }) { return same.suffix }
        let key = String(rid.prefix(15))
        let earlier = sorted.filter { $0.block.recurs && String($0.block.start.prefix(15)) <= key }
        if let latest = earlier.max(by: { $0.block.start.prefix(15) < $1.block.start.prefix(15) }) { return latest.suffix }
        return sorted[0].suffix
    }

    /// `#` and the first 12 hex digits of the SHA-256 of the block's text without DTSTAMP
    /// (which exporters rewrite on every export), its line ends and folds normalised.
    static func suffix(_ text: String) -> String {
        "#" + VEventReader.synthesizedUID(text).dropFirst("synthesized-".count).prefix(12)
    }

    /// The UID, RECURRENCE-ID, DTSTART, SEQUENCE and whether it recurs, of a VEVENT's own
    /// lines (not of its VALARMs); nil without a UID. Not `full`: only the UID, and an
    /// empty RECURRENCE-ID where there is one.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, full: Bool = true) -> Block? {
        var uid: String?
        var block = Block(uid: "")
        forEachOwnLine(bytes) { line, end in
            if hasName(line, "UID") {
                uid = value(line, folded: bytes, after: end)
            } else if hasName(line, "RECURRENCE-ID") {
                block.recurrenceID = full ? value(line) : ""
            } else if !full {
                return
            } else if hasName(line, "DTSTART") {
                block.start = value(line)
            } else if hasName(line, "SEQUENCE") {
                block.sequence = Int(value(line).trimmingSpaces()) ?? 0
            } else if hasName(line, "RRULE") || hasName(line, "RDATE") {
                block.recurs = true
            }
        }
        guard let uid, !uid.isEmpty else { return nil }
        block.uid = uid
        return block
    }

    /// What `read(_:full: false)` finds, without making a String: a hash (FNV-1a) of the
    /// UID's bytes as `read` joins them, and whether there is a RECURRENCE-ID.
    static func masterKey(_ bytes: UnsafeBufferPointer<UInt8>) -> (uidHash: UInt64, override: Bool)? {
        var hash: UInt64?
        var override = false
        forEachOwnLine(bytes) { line, end in
            if hasName(line, "UID") {
                hash = valueHash(line, folded: bytes, after: end)
            } else if hasName(line, "RECURRENCE-ID") {
                override = true
            }
        }
        return hash.map { ($0, override) }
    }

    /// Calls `body` with each line (without its line end) of the VEVENT itself, not of a
    /// component inside it, that starts a property, and the index of its LF.
    private static func forEachOwnLine(_ bytes: UnsafeBufferPointer<UInt8>,
                                       _ body: (UnsafeBufferPointer<UInt8>, Int) -> Void) {
        var depth = 0
        var index = 0
        var first = true
        while index < bytes.count {
            let end = ByteSearch.index(of: 10, in: bytes, from: index, to: bytes.count)
            var lineEnd = end
            if lineEnd > index, bytes[lineEnd - 1] == 13 { lineEnd -= 1 }
            defer { index = end + 1; first = false }
            guard lineEnd > index, bytes[index] != 32, bytes[index] != 9 else { continue }
            let line = UnsafeBufferPointer(rebasing: bytes[index..<lineEnd])
            if hasName(line, "BEGIN") {
                if !first { depth += 1 }
                continue
            }
            if hasName(line, "END") { depth -= 1; continue }
            if depth == 0 { body(line, end) }
        }
    }

    /// The FNV-1a hash of what `value(_:folded:after:)` returns; nil where that is empty.
    private static func valueHash(_ line: UnsafeBufferPointer<UInt8>, folded bytes: UnsafeBufferPointer<UInt8>,
                                  after end: Int) -> UInt64? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var count = 0
        func add(_ part: UnsafeBufferPointer<UInt8>.SubSequence) {
            for byte in part { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            count += part.count
        }
        add(line[(colon + 1)...])
        var index = end + 1
        while index < bytes.count, bytes[index] == 32 || bytes[index] == 9 {
            let next = ByteSearch.index(of: 10, in: bytes, from: index, to: bytes.count)
            var lineEnd = next
            if lineEnd > index, bytes[lineEnd - 1] == 13 { lineEnd -= 1 }
            add(bytes[(index + 1)..<lineEnd])
            index = next + 1
        }
        return count > 0 ? hash : nil
    }

    /// Whether `line` is a property (or BEGIN/END) named `name`, in any case.
    static func hasName(_ line: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        guard line.count > count else { return false }
        let next = line[count]
        guard next == UInt8(ascii: ":") || next == UInt8(ascii: ";") else { return false }
        let pointer = name.utf8Start
        for i in 0..<count where line[i] | 0x20 != pointer[i] | 0x20 { return false }
        return true
    }

    /// The value after the line's last `:` (a time's parameters never hold one unquoted).
    static func value(_ line: UnsafeBufferPointer<UInt8>) -> String {
        guard let colon = line.lastIndex(of: UInt8(ascii: ":")) else { return "" }
        return String(decoding: UnsafeBufferPointer(rebasing: line[(colon + 1)...]), as: UTF8.self)
    }

    /// The value after the line's first `:`, with the continuation lines that follow.
    static func value(_ line: UnsafeBufferPointer<UInt8>, folded bytes: UnsafeBufferPointer<UInt8>, after end: Int) -> String {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return "" }
        var out = Array(line[(colon + 1)...])
        var index = end + 1
        while index < bytes.count, bytes[index] == 32 || bytes[index] == 9 {
            var next = index
            while next < bytes.count, bytes[next] != 10 { next += 1 }
            var lineEnd = next
            if lineEnd > index, bytes[lineEnd - 1] == 13 { lineEnd -= 1 }
            out += bytes[(index + 1)..<lineEnd]
            index = next + 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
