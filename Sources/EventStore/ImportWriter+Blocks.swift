import ICalendar

/// A skipped (unchanged) block's row was rewritten earlier in the same file: the full
/// import would have applied the duplicate rule to the block's values, not read here.
struct BlockSkipConflict: Error {}

extension ImportWriter {
    /// The block digests stored for the calendar `name`'s rows (empty when it does not
    /// exist yet), remembering each digest's slot for `confirmUnchanged`.
    ///
    /// A digest identifies the record its block reads to (`BlockDigest`), so a block
    /// with a stored digest would read to exactly the row that stored it: an import
    /// finds that row's key unchanged, whichever source owns it.
    mutating func knownBlocks(calendar name: String) throws -> Set<BlockDigest> {
        blockSlots = [:]
        guard let calendarID = try db.scalarInt("SELECT id FROM calendar WHERE name = ?", [.text(name)]) else { return [] }
        try loadExisting(calendarID)
        var known = Set<BlockDigest>()
        for (slot, row) in (existing[calendarID]?.rows ?? []).enumerated() where !row.removed {
            guard let block = row.block else { continue }
            blockSlots[block] = Slot(slot)
            known.insert(block)
        }
        return known
    }

    /// The file contained these blocks, unchanged since their rows were written: what
    /// `add` does for a record whose content hash equals its row's, without the record.
    mutating func confirmUnchanged(_ digests: [BlockDigest], in file: inout FileState) throws {
        for digest in digests {
            written += 1
            if written % 2048 == 0 { progress?(0) }
            if file.foreign {
                file.result.keptFromOthers += 1
                continue
            }
            // The row still holds what the block reads to (a row's digest is written with
            // its content). If it was seen already in this file, the block is a duplicate
            // with equal SEQUENCE and modified time: the later one wins the tie and is the
            // same content, so it counts unchanged too, as `add` would. If another block of
            // the file rewrote the row, the duplicate rule needs this block's record.
            guard let slot = blockSlots[digest], !file.rows[slot].removed, file.rows[slot].block == digest else {
                throw BlockSkipConflict()
            }
            if !mayTakeOver(file.rows[slot].sourceID, for: file) {
                file.result.keptFromOthers += 1
                continue
            }
            file.rows[slot].seenHere = true
            file.seen.append(slot)
            if file.replace { file.touched.insert(file.rows[slot].id) }
            file.result.unchanged += 1
            file.result.reusedBlocks += 1
        }
    }
}
