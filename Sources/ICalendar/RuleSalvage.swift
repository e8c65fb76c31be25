import CLibical
import Glibc

/// Reads what can be read of an RRULE that libical refused, before giving up on it:
/// some Ruby and PHP exporters escape its `;` and `,` as TEXT (`FREQ=WEEKLY\;BYDAY=MO`),
/// others add parts of their own or write a COUNT of -1. Only what carries no meaning
/// for the recurrence set is dropped (unknown parts, a COUNT beside UNTIL, INTERVAL=0).
enum RuleSalvage {
    /// The parts RFC 5545 defines (RSCALE and SKIP, RFC 7529, are left to libical).
    static let knownParts: Set<String> = ["FREQ", "UNTIL", "COUNT", "INTERVAL", "BYSECOND", "BYMINUTE", "BYHOUR", "BYDAY",
                                          "BYMONTHDAY", "BYYEARDAY", "BYWEEKNO", "BYMONTH", "BYSETPOS", "WKST", "RSCALE", "SKIP"]

    /// The rule libical reads after the repairs, normalised by libical, and what was
    /// repaired; nil when even a rule of only its readable parts is refused.
    static func salvage(_ raw: String) -> (rule: String, repairs: [String])? {
        var repairs: [String] = []
        var text = Substring(raw)
        if text.uppercased().hasPrefix("RRULE:") { text = text.dropFirst(6) }
        if text.contains("\\") {
            text = Substring(String(text.filter { $0 != "\\" }))
            repairs.append("backslash escapes removed")
        }
        var parts: [String] = []
        var seen = Set<String>()
        var misspeltUntil: (part: String, value: String)?
        for piece in text.split(separator: ";") {
            let part = String(piece).trimmingSpaces()
            guard !part.isEmpty else { continue }
            guard let eq = part.firstIndex(of: "=") else { repairs.append("\"\(part)\" dropped"); continue }
            let name = String(part[..<eq]).uppercased().trimmingSpaces()
            let value = String(part[part.index(after: eq)...]).trimmingSpaces()
            guard knownParts.contains(name), !value.isEmpty else {
                if misspeltUntil == nil, isDateValue(value) {
                    misspeltUntil = (part, value)
                } else {
                    repairs.append("unknown part \"\(part)\" dropped")
                }
                continue
            }
            if name == "COUNT", (Int(value) ?? 0) <= 0, !text.uppercased().contains("UNTIL=") {
                return nil // without its bound the rule would repeat forever
            }
            if name == "COUNT" || name == "INTERVAL", (Int(value) ?? 0) <= 0 {
                repairs.append("invalid \(name)=\(value) dropped")
                continue
            }
            guard seen.insert(name).inserted else { repairs.append("repeated \(name) dropped"); continue }
            parts.append(name + "=" + value)
        }
        // A misspelt UNTIL (`UNTL=20191023`): dropped, it would leave an endless series
        // where the author meant one that ends, so a date in an unknown part is read as
        // UNTIL when the rule has no bound of its own.
        if let (part, value) = misspeltUntil {
            if seen.contains("UNTIL") || seen.contains("COUNT") {
                repairs.append("unknown part \"\(part)\" dropped")
            } else {
                parts.append("UNTIL=" + value)
                repairs.append("unknown part \"\(part)\" read as UNTIL=\(value): its value is a date, and without it the series would never end")
            }
        }
        // A part RFC 5545 defines is never dropped for being unreadable: without a BYxxx
        // part the rule would repeat far more often than its author meant.
        guard let rule = normalised(parts) else { return nil }
        return (rule, repairs.isEmpty ? ["white space removed"] : repairs)
    }

    /// A DATE (`20191023`) or DATE-TIME (`20191023T120000`, `…Z`) value.
    static func isDateValue(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        func digits(_ range: Range<Int>) -> Bool { range.allSatisfy { bytes[$0] >= 48 && bytes[$0] <= 57 } }
        switch bytes.count {
        case 8: return digits(0..<8)
        case 15, 16: return digits(0..<8) && bytes[8] == UInt8(ascii: "T") && digits(9..<15)
            && (bytes.count == 15 || bytes[15] == UInt8(ascii: "Z"))
        default: return false
        }
    }

    /// libical's normalised form of the rule made of `parts`, or nil when it refuses it.
    static func normalised(_ parts: [String]) -> String? {
        guard !parts.isEmpty else { return nil }
        var rule = icalrecurrencetype_from_string(parts.joined(separator: ";"))
        defer { free(rule.rscale) } // strdup()ed by libical, freed by nobody else
        guard rule.freq != ICAL_NO_RECURRENCE, let cString = icalrecurrencetype_as_string_r(&rule) else { return nil }
        defer { icalmemory_free_buffer(cString) }
        return String(cString: cString)
    }
}
