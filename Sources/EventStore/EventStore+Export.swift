import ICalendar

extension EventStore {
    /// The events of `calendars` (all when empty) as one iCalendar document: the
    /// original VEVENT texts and the in-file VTIMEZONEs they use, so that importing the
    /// export into the same calendar changes nothing.
    public func exportICalendar(calendars: [String] = []) throws -> String {
        let known = try calendarNames()
        for name in calendars where !known.contains(name) { throw StoreError.unknownCalendar(name) }
        let selected = calendars.isEmpty ? known : calendars.sorted()
        var events: [String] = []
        var zoneKeys = Set<String>()
        var defaultZones = Set<String>()
        for name in selected {
            try db.statement("""
                SELECT e.vevent, e.dtstart, e.rdates, e.exdates, s.default_tz
                FROM event e JOIN calendar c ON c.id = e.calendar_id JOIN source s ON s.id = e.source_id
                WHERE c.name = ? ORDER BY e.uid, e.recurrence_id
                """).forEachRow([.text(name)]) { row in
                events.append(row.text(0))
                for column in [1, 2, 3] where !row.isNull(Int32(column)) {
                    for key in Self.zoneKeys(in: row.text(Int32(column))) { zoneKeys.insert(key) }
                }
                if let tz = row.optionalText(4) { defaultZones.insert(tz) }
            }
        }
        var out = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//eventd//eventd 0.1.0//EN\r\n"
        if selected.count == 1 { out += "X-WR-CALNAME:\(selected[0])\r\n" }
        if defaultZones.count == 1, let tz = defaultZones.first { out += "X-WR-TIMEZONE:\(tz)\r\n" }
        for key in zoneKeys.sorted() {
            if let text = try db.scalarText("SELECT definition FROM timezone WHERE key = ?", [.text(key)]) {
                out += Self.withCRLF(text)
            }
        }
        for text in events { out += Self.withCRLF(text) }
        out += "END:VCALENDAR\r\n"
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
