import ICalendar
import Diagnostics

extension EventStore {
    /// The events of `calendars` (all when empty) as one iCalendar document
    /// (`ExportDocument`): the original VEVENT texts after a VTIMEZONE for every TZID
    /// they use, so that other programs read them as eventd did and importing the
    /// export into the same calendars changes nothing.
    public func exportICalendar(calendars: [String] = []) throws -> String {
        let known = try calendarNames()
        for name in calendars where !known.contains(name) { throw StoreError.unknownCalendar(name) }
        let selected = calendars.isEmpty ? known : calendars.sorted()
        // The events by calendar, source and X-WR-TIMEZONE, with the in-file VTIMEZONEs
        // each group's events were read with (two files may define one TZID differently).
        var blocks: [ExportDocument.Block] = []
        var index: [String: Int] = [:]
        var zoneKeys: [Set<String>] = []
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
                    blocks.append(ExportDocument.Block(calendar: name, defaultZone: zone))
                    zoneKeys.append([])
                }
                let b = index[key]!
                blocks[b].events.append(row.text(Column.vevent))
                for column in [Column.dtstart, .rdates, .exdates] where !row.isNull(column) {
                    for k in Self.zoneKeys(in: row.text(column)) { zoneKeys[b].insert(k) }
                }
            }
        }
        for b in blocks.indices {
            for key in zoneKeys[b].sorted() {
                guard let text = try db.scalarText("SELECT definition FROM timezone WHERE key = ?", [.text(key)]),
                      let tzid = Self.tzid(ofDefinition: text) else { continue }
                blocks[b].definitions[tzid] = text
            }
        }
        return ExportDocument.text(blocks, name: selected.count == 1 ? selected[0] : nil,
                                   prodID: "-//eventd//eventd \(ProductVersion.number)//EN")
    }

    /// The TZID property of a VTIMEZONE text.
    static func tzid(ofDefinition text: String) -> String? {
        ExportDocument.contentLines(text.withCRLFLineEndings()).lazy.compactMap { ContentLine($0.logical) }
            .first { $0.name == "TZID" }?.value
    }

    static func zoneKeys(in encoded: String) -> [String] {
        encoded.split(whereSeparator: { $0 == "," || $0 == "/" }).compactMap { part in
            guard let at = part.firstIndex(of: "@") else { return nil }
            let key = part[part.index(after: at)...]
            return key.hasPrefix("vtz:") ? String(key) : nil
        }
    }
}
