import ICalendar
import Diagnostics

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
            typealias Column = EventColumns.Export
            try db.statement("""
                SELECT \(Column.selectList)
                FROM event e JOIN calendar c ON c.id = e.calendar_id
                WHERE c.name = ? ORDER BY e.source_id, e.uid, e.recurrence_id
                """).forEachRow([.text(name)]) { row in
                let zone = row.optionalText(Column.defaultTZ)
                let key = "\(name)\u{0}\(row.int(Column.sourceID))\u{0}\(zone ?? "")"
                if index[key] == nil {
                    index[key] = blocks.count
                    blocks.append(Block(calendar: name, defaultZone: zone))
                }
                let b = index[key]!
                blocks[b].events.append(row.text(Column.vevent))
                for column in [Column.dtstart, .rdates, .exdates] where !row.isNull(column) {
                    for k in Self.zoneKeys(in: row.text(column)) { blocks[b].zoneKeys.insert(k) }
                }
            }
        }
        if blocks.isEmpty { blocks.append(Block(calendar: selected.first ?? "eventd", defaultZone: nil)) }
        var out = ""
        for block in blocks {
            out += "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//eventd//eventd \(ProductVersion.number)//EN\r\n"
            out += "X-WR-CALNAME:\(block.calendar)\r\n"
            if let tz = block.defaultZone { out += "X-WR-TIMEZONE:\(tz)\r\n" }
            for key in block.zoneKeys.sorted() {
                if let text = try db.scalarText("SELECT definition FROM timezone WHERE key = ?", [.text(key)]) {
                    out += text.withCRLFLineEndings()
                }
            }
            for text in block.events { out += text.withCRLFLineEndings() }
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
}
