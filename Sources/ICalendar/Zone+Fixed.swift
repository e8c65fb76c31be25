import Synchronization

extension Zone {
    /// The key of a fixed-offset zone: `UTC+01:00`, `UTC-05:30` (stored with events, so
    /// it names its rules without a VTIMEZONE text).
    static func fixedKey(offsetSeconds: Int) -> String {
        let magnitude = abs(offsetSeconds) / 60
        let hh = magnitude / 60, mm = magnitude % 60
        return "UTC" + (offsetSeconds < 0 ? "-" : "+") + (hh < 10 ? "0" : "") + "\(hh):" + (mm < 10 ? "0" : "") + "\(mm)"
    }

    /// The zone that is always `offsetSeconds` east of UTC (UTC itself for 0), as a
    /// `(GMT+01:00) …` TZID is read when nothing else defines it.
    static func fixed(offsetSeconds: Int) -> Zone? {
        guard offsetSeconds != 0 else { return .utc }
        guard abs(offsetSeconds) <= 14 * 3600, offsetSeconds % 60 == 0 else { return nil }
        let key = fixedKey(offsetSeconds: offsetSeconds)
        if let cached = fixedCache.withLock({ $0[key] }) { return cached }
        let offset = String(key.dropFirst(3).filter { $0 != ":" })
        // One observance from 1601 on (as Outlook writes its zones), never changing.
        let text = "BEGIN:VTIMEZONE\r\nTZID:\(key)\r\nBEGIN:STANDARD\r\nDTSTART:16010101T000000\r\n"
            + "TZOFFSETFROM:\(offset)\r\nTZOFFSETTO:\(offset)\r\nTZNAME:\(key)\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"
        guard let zone = Zone.definition(text, key: key) else { return nil }
        return fixedCache.withLock { table in
            if let existing = table[key] { return existing }
            table[key] = zone
            return zone
        }
    }

    /// Reads a `fixedKey` back; nil for any other key.
    static func fixed(key: String) -> Zone? {
        guard key.hasPrefix("UTC+") || key.hasPrefix("UTC-"), key.utf8.count == 9,
              let offset = ReaderContext.fixedOffset(key) else { return nil }
        return fixed(offsetSeconds: offset)
    }
}

/// Fixed-offset zones by key, created once.
private let fixedCache = Mutex<[String: Zone]>([:])
