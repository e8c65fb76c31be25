import ICalendar

extension EventStore {
    /// The events of `calendars` (all when empty) as one iCalendar document: the
    /// original VEVENT texts and the in-file VTIMEZONEs they use, so that importing the
    /// export into the same calendar changes nothing.
    public func exportICalendar(calendars: [String] = []) throws -> String {
        let known = try calendarNames()
        for name in calendars where !known.contains(name) { throw StoreError.unknownCalendar(name) }
        let selected = calendars.isEmpty ? known : calendars.sorted()
        // One VCALENDAR per calendar, source and X-WR-TIMEZONE: each carries the
        // VTIMEZONEs its events use, so two files that define one TZID differently, or
        // that read floating times differently, keep their meaning.
        struct Block { var calendar: String; var defaultZone: String?; var events: [String] = []; var zoneKeys = Set<String>() }
        var blocks: [Block] = []
        var index: [String: Int] = [:]
        for name in selected {
            try db.statement("""
                SELECT e.vevent, e.dtstart, e.rdates, e.exdates, e.default_tz, e.source_id
                FROM event e JOIN calendar c ON c.id = e.calendar_id
                WHERE c.name = ? ORDER BY e.source_id, e.uid, e.recurrence_id
                """).forEachRow([.text(name)]) { row in
                let zone = row.optionalText(4)
                let key = "\(name)\u{0}\(row.int(5))\u{0}\(zone ?? "")"
                if index[key] == nil {
                    index[key] = blocks.count
                    blocks.append(Block(calendar: name, defaultZone: zone))
                }
                let b = index[key]!
                blocks[b].events.append(row.text(0))
                for column in [1, 2, 3] where !row.isNull(Int32(column)) {
                    for k in Self.zoneKeys(in: row.text(Int32(column))) { blocks[b].zoneKeys.insert(k) }
                }
            }
        }
        if blocks.isEmpty { blocks.append(Block(calendar: selected.first ?? "eventd", defaultZone: nil)) }
        var out = ""
        for block in blocks {
            out += "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//eventd//eventd 0.1.0//EN\r\n"
            out += "X-WR-CALNAME:\(block.calendar)\r\n"
            if let tz = block.defaultZone { out += "X-WR-TIMEZONE:\(tz)\r\n" }
            for key in block.zoneKeys.sorted() {
                if let text = try db.scalarText("SELECT definition FROM timezone WHERE key = ?", [.text(key)]) {
                    out += Self.withCRLF(text)
                }
            }
            for text in block.events { out += Self.withCRLF(text) }
            out += "END:VCALENDAR\r\n"
        }
        return out
    }

    static func zoneKeys(in encoded: String) -> [String] {
        encoded.split(whereSeparator: { $0 == "," || $0 == "/" }).compactMap { part in
            guard let at = part.firstIndex(of: "@") else { return nil }
            let key = part[part.index(after: at)...]
            return key.hasPrefix("vtz:") ? String(key) : nil
        }
    }

    /// Text with CRLF line endings and a final line break.
    static func withCRLF(_ text: String) -> String {
        var lines = text.replacingOccurrencesOfCRLF()
        if !lines.hasSuffix("\n") { lines += "\n" }
        return lines.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { $0 + "\r\n" }.joined()
    }
}

extension String {
    func replacingOccurrencesOfCRLF() -> String {
        var out = String.UnicodeScalarView()
        for s in unicodeScalars where s != "\r" { out.append(s) }
        return String(out)
    }
}
