import ICalendar

/// `eventctl export`'s one VCALENDAR (RFC 5545): the stored VEVENT texts of every
/// calendar asked for, after one VTIMEZONE for every TZID they use.
///
/// Each TZID's definition is what the importer read it as: the tz database's for a
/// name the system knows (IANA, Windows, display names), else the file's own VTIMEZONE
/// as stored. Texts stay as imported, so re-importing changes nothing, except where one
/// document cannot say what several files said: a TZID two files defined differently
/// is renamed in the later file's events (`Custom/Zone-2`), and when the files disagree
/// on X-WR-TIMEZONE, the floating times of those that had one get it as their TZID.
public struct ExportDocument {
    /// The events of one calendar, source and X-WR-TIMEZONE, with the in-file VTIMEZONE
    /// texts the importer stored for them, by TZID.
    struct Block {
        var calendar: String
        var defaultZone: String?
        var events: [String] = []
        var definitions: [String: String] = [:]
    }

    /// VTIMEZONE texts by the TZID written, in the order first used.
    private var zones: [(tzid: String, text: String)] = []
    private var body = ""

    /// The properties whose floating DATE-TIME values an X-WR-TIMEZONE applies to.
    static let datedProperties: Set<String> = ["DTSTART", "DTEND", "DUE", "RECURRENCE-ID", "RDATE", "EXDATE"]

    /// The document for `blocks`; `name` is its X-WR-CALNAME (one calendar's export).
    static func text(_ blocks: [Block], name: String?, prodID: String) -> String {
        let defaults = Set(blocks.map { $0.defaultZone ?? "" })
        let shared = defaults.count == 1 ? blocks.first?.defaultZone : nil
        var document = ExportDocument()
        for block in blocks { document.add(block, floatingZone: shared == nil ? block.defaultZone : nil) }
        var out = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:\(prodID)\r\n"
        if let name { out += "X-WR-CALNAME:\(name)\r\n" }
        if let shared { out += "X-WR-TIMEZONE:\(shared)\r\n" }
        for zone in document.zones { out += zone.text.withCRLFLineEndings() }
        return out + document.body + "END:VCALENDAR\r\n"
    }

    private mutating func add(_ block: Block, floatingZone: String?) {
        var renamed: [String: String] = [:]
        for event in block.events {
            // Lines are rewritten only where they must be; the others keep their folding.
            for (raw, logical) in Self.contentLines(event.withCRLFLineEndings()) {
                guard var line = ContentLine(logical) else { body += raw; continue }
                if let tzid = line.parameter("TZID") {
                    let written = renamed[tzid] ?? zone(for: tzid, definitions: block.definitions)
                    renamed[tzid] = written
                    guard written != tzid else { body += raw; continue }
                    line.setParameter("TZID", written)
                } else if let zone = floatingZone, Self.datedProperties.contains(line.name), line.isFloatingDateTime {
                    line.setParameter("TZID", self.zone(for: zone, definitions: [:]))
                } else {
                    body += raw
                    continue
                }
                body += Self.fold(line.text)
            }
        }
    }

    /// The TZID to write for `tzid`, its VTIMEZONE added once: the same name unless
    /// another definition took it first.
    private mutating func zone(for tzid: String, definitions: [String: String]) -> String {
        guard let text = Zone.vtimezoneText(forTZID: tzid, definitions: definitions) else { return tzid }
        var name = tzid, n = 1
        while let existing = zones.first(where: { $0.tzid == name }) {
            if existing.text == Self.renamed(text, to: name) { return name }
            n += 1
            name = "\(tzid)-\(n)"
        }
        zones.append((name, Self.renamed(text, to: name)))
        return name
    }

    /// `text` (CRLF) with its TZID property set to `name`.
    static func renamed(_ text: String, to name: String) -> String {
        contentLines(text.withCRLFLineEndings()).map { raw, logical in
            logical.uppercased().hasPrefix("TZID:") || logical.uppercased().hasPrefix("TZID;") ? fold("TZID:" + name) : raw
        }.joined()
    }

    /// The content lines of CRLF text: each as written (folded, with its CRLF) and
    /// unfolded.
    static func contentLines(_ text: String) -> [(raw: String, logical: String)] {
        var lines: [(raw: String, logical: String)] = []
        for piece in text.components(separatedBy: "\r\n") where !piece.isEmpty {
            if let first = piece.first, first == " " || first == "\t", !lines.isEmpty {
                lines[lines.count - 1].raw += piece + "\r\n"
                lines[lines.count - 1].logical += piece.dropFirst()
            } else {
                lines.append((piece + "\r\n", piece))
            }
        }
        return lines
    }

    /// A content line with CRLF, folded before 75 octets (never inside a character):
    /// what every file eventd writes (an export, a vdir's event) takes.
    public static func fold(_ line: String) -> String {
        var out = "", width = 0
        for character in line {
            let size = character.utf8.count
            if width + size > 75 {
                out += "\r\n "
                width = 1
            }
            out.append(character)
            width += size
        }
        return out + "\r\n"
    }
}
