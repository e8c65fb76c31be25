extension AgendaItem {
    /// One item's own fields in its block: its sort keys, what its dates are written
    /// from, and where its own bytes lie.
    struct Slot {
        let sortStart: Int64
        let sortEnd: Int64
        /// What `start` and `end` are written from where the template has their slots
        /// (`ItemJSON.writeDate`): a timed item's UTC offsets at its start and end, an
        /// all-day item's dates (days since the epoch).
        let startField: Int32
        let endField: Int32
        /// The item's date (days since the epoch).
        let day: Int32
        /// The item's own bytes (the values its template leaves out, `ItemJSON`) in the
        /// block's bytes; the full JSON's length.
        let ownStart: UInt32
        let fullCount: UInt32
        let template: UInt32
        let ownCount: UInt16
        /// The id's bytes within the own bytes.
        let idStart: UInt16
        let idCount: UInt16
        let allDay: Bool
        /// `ItemJSON.Dates.flags`: the continuation flags, and whether the id is kept
        /// as its 16 bytes at the start of the own bytes. In the padding of the stride.
        let flags: UInt8

        var dates: ItemJSON.Dates {
            ItemJSON.Dates(start: sortStart, end: sortEnd, startField: startField, endField: endField, allDay: allDay,
                           flags: flags)
        }
    }

    /// What the items of one event record share: their compact JSON with a slot for
    /// each value of their own, in the block's bytes.
    struct Template {
        let start: UInt32
        let count: UInt32
        /// The summary's bytes in the block's bytes: its JSON form within the template,
        /// or, when escaping changed it, a copy of its own.
        let summaryStart: UInt32
        let summaryCount: UInt32
        /// The summary's first 8 bytes, big-endian, zero-padded: when two differ, they
        /// order the summaries as their bytes do (sorting reads no bytes then).
        let summaryPrefix: UInt64
    }

    struct BlockHeader {
        let count: Int
        let templateCount: Int
    }

    /// One series' items in one allocation: their slots, the templates they share and
    /// the bytes of both. A year-long view holds a hundred thousand items, most of them
    /// occurrences of recurring events whose text is the same in each: one allocation
    /// per item with its whole JSON cost about 340 bytes an item, this about 100 and a
    /// template per event record.
    /// Written once, in `Builder.make`, and only read after.
    final class Block: ManagedBuffer<BlockHeader, UInt64> {
        private var templatesOffset: Int { header.count &* MemoryLayout<Slot>.stride }
        private var bytesOffset: Int { templatesOffset &+ header.templateCount &* MemoryLayout<Template>.stride }

        func slot(_ k: Int) -> Slot {
            withUnsafeMutablePointerToElements {
                UnsafeRawPointer($0).load(fromByteOffset: k &* MemoryLayout<Slot>.stride, as: Slot.self)
            }
        }

        func template(_ t: Int) -> Template {
            let at = templatesOffset &+ t &* MemoryLayout<Template>.stride
            return withUnsafeMutablePointerToElements { UnsafeRawPointer($0).load(fromByteOffset: at, as: Template.self) }
        }

        private func withBytes<R>(_ body: (UnsafePointer<UInt8>) -> R) -> R {
            let at = bytesOffset
            return withUnsafeMutablePointerToElements {
                body(UnsafeRawPointer($0).advanced(by: at).assumingMemoryBound(to: UInt8.self))
            }
        }

        /// Writes item `k`'s JSON at `out` and returns its length.
        func writeJSON(_ k: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
            let s = slot(k), t = template(Int(s.template))
            return withBytes { bytes in
                ItemJSON.expand(template: UnsafeBufferPointer(start: bytes + Int(t.start), count: Int(t.count)),
                                own: UnsafeBufferPointer(start: bytes + Int(s.ownStart), count: Int(s.ownCount)),
                                dates: s.dates, into: out)
            }
        }

        /// The id's bytes as written (without quotes); an id kept as 16 bytes is written
        /// out for `body` (only ties on every other sort key compare ids).
        func withIDBytes<R>(_ k: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            let s = slot(k)
            return withBytes { bytes in
                let id = bytes + Int(s.ownStart) + Int(s.idStart)
                guard s.flags & ItemJSON.Dates.rawID != 0 else { return body(UnsafeBufferPointer(start: id, count: Int(s.idCount))) }
                return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 34) { hex in
                    _ = ItemJSON.writeHex(id, to: hex.baseAddress!)
                    return body(UnsafeBufferPointer(rebasing: hex[1..<33]))
                }
            }
        }

        func withSummaryBytes<R>(_ k: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            let t = template(Int(slot(k).template))
            return withBytes { body(UnsafeBufferPointer(start: $0 + Int(t.summaryStart), count: Int(t.summaryCount))) }
        }
    }
}

extension AgendaItem {
    /// A block's items in order, with their dates: what a series contributes to a
    /// window (the expansion cache's and the memo's entry).
    struct Expansion: RandomAccessCollection, @unchecked Sendable { // @unchecked: its block is written once when made, only read after
        let block: Block

        var startIndex: Int { 0 }
        var endIndex: Int { block.header.count }
        subscript(position: Int) -> (day: Int, item: AgendaItem) {
            (Int(block.slot(position).day), AgendaItem(block: block, index: position))
        }
    }
}

extension AgendaItem {
    /// A value of an item's JSON that is its own (not its template's), in the JSON the
    /// item was written as: a `start` or `end` date the block writes from its slot's
    /// fields (when they give those bytes), the id, or another value kept as it is.
    struct Part {
        enum Kind { case own, id, start, end, from, to, recurrenceID }
        var range: Range<Int>
        var kind: Kind
    }

    /// Makes a block: items are added with their full JSON, cut into a template (found
    /// again for each occurrence of the same record) and their own bytes.
    struct Builder {
        private var slots: [Slot] = []
        private var templates: [Template] = []
        private var bytes: [UInt8] = []
        /// Each template's bytes before compaction, and its key, to find it again.
        private var plain: [(key: Int, bytes: [UInt8])] = []
        var count: Int { slots.count }

        /// Adds the item whose canonical JSON is `json`: `parts` (in order) are its own
        /// values, `summary` the range of its summary's bytes (empty without one;
        /// after every part), `rawSummary` the summary's bytes when escaping changed
        /// them. Items of one `key` (an event record) usually share a template.
        mutating func add(json: [UInt8], parts: [Part], summary: Range<Int>, rawSummary: [UInt8]?, key: Int, day: Int,
                          allDay: Bool, sortStart: Int64, sortEnd: Int64, startField: Int32, endField: Int32) {
            var template: [UInt8] = [], own: [UInt8] = [], rawID: [UInt8] = []
            template.reserveCapacity(json.count)
            var from = 0, idStart = 0, idCount = 0, owned = false
            var dates = ItemJSON.Dates(start: sortStart, end: sortEnd, startField: startField, endField: endField, allDay: allDay)
            for part in parts {
                template += json[from..<part.range.lowerBound]
                from = part.range.upperBound
                let value = json[part.range]
                let isTrue = value.elementsEqual("true".utf8)
                if part.kind == .start || part.kind == .end, dates.writes(value, end: part.kind == .end) {
                    template.append(part.kind == .start ? ItemJSON.startSlot : ItemJSON.endSlot)
                    continue
                }
                if part.kind == .from || part.kind == .to, isTrue || value.elementsEqual("false".utf8) {
                    if isTrue { dates.flags |= part.kind == .from ? ItemJSON.Dates.fromPrevious : ItemJSON.Dates.toNext }
                    template.append(part.kind == .from ? ItemJSON.fromSlot : ItemJSON.toSlot)
                    continue
                }
                if part.kind == .recurrenceID, dates.writesRecurrenceID(value) {
                    template.append(ItemJSON.recurrenceIDSlot)
                    continue
                }
                if part.kind == .id, rawID.isEmpty, let raw = ItemJSON.rawHex(value) {
                    rawID = raw
                    dates.flags |= ItemJSON.Dates.rawID
                    template.append(ItemJSON.idSlot)
                    continue
                }
                if owned { own.append(ItemJSON.separator) }
                owned = true
                if part.kind == .id { (idStart, idCount) = (own.count + 1, value.count - 2) }
                own += part.kind == .id ? Array(value) : ItemJSON.compactValue(value)
                template.append(ItemJSON.ownSlot)
            }
            if !rawID.isEmpty {
                // The raw id first (`ItemJSON.expand` reads the other values after it).
                (idStart, idCount) = (0, 16)
                own = rawID + own
            }
            precondition(summary.isEmpty || summary.lowerBound >= from, "the summary comes after the item's own values")
            let summaryInTemplate = summary.isEmpty ? 0..<0 : (summary.lowerBound - from + template.count)..<(summary.upperBound - from + template.count)
            template += json[from...]
            let index = plain.firstIndex { $0.key == key && $0.bytes == template }
                ?? addTemplate(template, key: key, summary: summaryInTemplate, rawSummary: rawSummary)
            slots.append(Slot(sortStart: sortStart, sortEnd: sortEnd, startField: startField, endField: endField,
                              day: Int32(truncatingIfNeeded: day), ownStart: UInt32(bytes.count), fullCount: UInt32(json.count),
                              template: UInt32(index), ownCount: UInt16(own.count), idStart: UInt16(idStart),
                              idCount: UInt16(idCount), allDay: allDay, flags: dates.flags))
            bytes += own
        }

        private mutating func addTemplate(_ template: [UInt8], key: Int, summary: Range<Int>, rawSummary: [UInt8]?) -> Int {
            let compact = ItemJSON.compact(template, ranges: [summary])
            let start = bytes.count
            bytes += compact.bytes
            var summaryStart = start + compact.ranges[0].lowerBound, summaryCount = compact.ranges[0].count
            if let rawSummary {
                summaryStart = bytes.count
                summaryCount = rawSummary.count
                bytes += rawSummary
            }
            var prefix: UInt64 = 0
            for k in 0..<8 { prefix = prefix << 8 | UInt64(k < summaryCount ? bytes[summaryStart + k] : 0) }
            templates.append(Template(start: UInt32(start), count: UInt32(compact.bytes.count), summaryStart: UInt32(summaryStart),
                                      summaryCount: UInt32(summaryCount), summaryPrefix: prefix))
            plain.append((key, template))
            return templates.count - 1
        }

        /// The block of the items added, in one allocation of their size.
        func make() -> Expansion {
            let slotBytes = slots.count * MemoryLayout<Slot>.stride
            let templateBytes = templates.count * MemoryLayout<Template>.stride
            let total = slotBytes + templateBytes + bytes.count
            let block = unsafeDowncast(Block.create(minimumCapacity: (total + 7) / 8) { _ in
                BlockHeader(count: slots.count, templateCount: templates.count)
            }, to: Block.self)
            block.withUnsafeMutablePointerToElements { elements in
                let raw = UnsafeMutableRawPointer(elements)
                slots.withUnsafeBytes { if let base = $0.baseAddress { raw.copyMemory(from: base, byteCount: $0.count) } }
                templates.withUnsafeBytes {
                    if let base = $0.baseAddress { (raw + slotBytes).copyMemory(from: base, byteCount: $0.count) }
                }
                let to = (raw + slotBytes + templateBytes).bindMemory(to: UInt8.self, capacity: bytes.count)
                bytes.withUnsafeBufferPointer { if let base = $0.baseAddress { to.initialize(from: base, count: $0.count) } }
            }
            return Expansion(block: block)
        }
    }
}
