import CLibical
import Foundation
import Synchronization
import Threads

/// Loading a system zone on a thread of its own.
///
/// A zone lives as long as the process (the cache keeps it), and so does what libical
/// allocates for it: the parsed definition and its table of offset changes. glibc gives
/// each thread its own heap (arena); allocated on a daemon's recompute thread, those
/// blocks would sit among the items of the views being built, and after the views were
/// dropped a few live blocks per page would keep most of those pages resident. Loaded
/// on a short-lived thread, with the change table already extended as far as libical
/// goes, a zone allocates nothing later on the threads that use it.
extension Zone {
    /// The last year libical computes offset changes for (`ICALTIMEZONE_MAX_YEAR`);
    /// later instants use that year's rules.
    static let lastCoveredYear: Int32 = 2037

    /// The system zone `name` (cleaned and plausible), loaded on a thread of its own.
    /// Called with `LibICal.lock` held, which the thread then works under.
    static func loadSystem(_ name: String) -> Zone? {
        WorkerThread(name: "zone-load", stackSize: 1 << 20) { () -> Zone? in
            guard let handle = icaltimezone_get_builtin_timezone(name) else { return nil }
            // Extends the change table now, here, rather than on the first thread that
            // asks for a late instant.
            var last = icaltime_null_time()
            last.year = lastCoveredYear
            last.month = 12
            last.day = 31
            var isDaylight: Int32 = 0
            _ = icaltimezone_get_utc_offset_of_utc_time(handle, &last, &isDaylight)
            return Zone(handle: handle, owned: false, identifier: name, key: name)
        }.join()
    }
}

extension Zone {
    /// The IANA name for a zone name as a person or a file writes it: an IANA name in any
    /// case (`europe/berlin`), or any name the importer understands (a Windows name such
    /// as `W. Europe Standard Time`, a display name, a vendor-prefixed name). Nil when
    /// none matches, or the name is a fixed offset rather than a zone.
    public static func ianaName(for text: String) -> String? {
        var context = ReaderContext()
        if let zone = context.zone(forTZID: text), zone === Zone.utc || Zone.system(zone.identifier) === zone {
            return zone.identifier
        }
        let name = ReaderContext.normalise(text)
        if let (_, iana) = WindowsZones.iana.first(where: { $0.key.caseInsensitiveCompare(name) == .orderedSame }) { return iana }
        guard let path = caseInsensitiveZonePath(Zone.canonicalName(name)), let zone = Zone.system(path) else { return nil }
        return zone.identifier
    }

    /// `europe/berlin` as the zoneinfo directory spells it (`Europe/Berlin`), matched one
    /// path component at a time; nil when a component matches nothing.
    static func caseInsensitiveZonePath(_ name: String, root: String = "/usr/share/zoneinfo") -> String? {
        guard isPlausibleName(name) else { return nil }
        var directory = root
        var found: [String] = []
        for part in name.split(separator: "/") {
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory),
                  let match = entries.first(where: { $0.caseInsensitiveCompare(String(part)) == .orderedSame }) else { return nil }
            found.append(match)
            directory += "/" + match
        }
        return found.isEmpty ? nil : found.joined(separator: "/")
    }
}

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

extension Zone {
    /// Whether the importer reads TZID `tzid` as the system's zone of that name, before
    /// any definition a file gives (`ReaderContext.zone(forTZID:)`).
    public static func isSystemName(_ tzid: String) -> Bool {
        let name = ReaderContext.normalise(tzid)
        return !name.hasPrefix("/") && Zone.system(name) != nil
    }

    /// A VTIMEZONE under `tzid` for the zone the importer reads `tzid` as, when no
    /// definition of the file's own is at hand: the tz database's rules for an IANA,
    /// Windows, display or vendor-prefixed name (libical writes them from the system's
    /// zoneinfo), a constant offset for `UTC+01:00`-style names. Nil for a name the
    /// importer does not know (it reads such times as floating).
    ///
    /// `eventctl export` writes one for every TZID it uses (RFC 5545, 3.2.19), so that
    /// other programs read the times as eventd does.
    ///
    /// `definitions`: the file's own VTIMEZONE texts by TZID, used where the importer
    /// used them (a name the system does not know as an IANA zone).
    public static func vtimezoneText(forTZID tzid: String, definitions: [String: String] = [:]) -> String? {
        if !isSystemName(tzid), let own = definitions[tzid] ?? definitions[ReaderContext.normalise(tzid)] { return own }
        if let iana = ianaName(for: tzid), iana != "UTC" {
            return LibICal.locked {
                guard let handle = icaltimezone_get_builtin_timezone(iana),
                      let own = icaltimezone_get_component(handle), let copy = icalcomponent_new_clone(own) else { return nil }
                defer { icalcomponent_free(copy) }
                guard let property = icalcomponent_get_first_property(copy, ICAL_TZID_PROPERTY) else { return nil }
                icalproperty_set_tzid(property, tzid)
                guard let text = icalcomponent_as_ical_string_r(copy) else { return nil }
                defer { free(text) }
                return String(cString: text)
            }
        }
        guard let offset = ianaName(for: tzid) == "UTC" ? 0 : ReaderContext.fixedOffset(ReaderContext.normalise(tzid)) else { return nil }
        let hours: Int = abs(offset) / 3600
        let minutes: Int = abs(offset) % 3600 / 60
        let utcOffset: String = (offset < 0 ? "-" : "+") + twoDigits(hours) + twoDigits(minutes)
        return ["BEGIN:VTIMEZONE", "TZID:" + tzid, "BEGIN:STANDARD", "DTSTART:19700101T000000",
                "TZOFFSETFROM:" + utcOffset, "TZOFFSETTO:" + utcOffset, "END:STANDARD", "END:VTIMEZONE", ""]
            .joined(separator: "\r\n")
    }

    private static func twoDigits(_ n: Int) -> String { n < 10 ? "0" + String(n) : String(n) }
}

/// A zone's UTC offsets by UTC day, for the days whose offset holds all day long: a
/// direct-mapped table of fixed size, made once with its zone and never grown.
///
/// Fixed, because views of many zones are built and dropped on one thread: a table that
/// grew there (as a dictionary did) left each zone's storage among the views' items for
/// good, and those few live blocks kept the pages of every freed view resident. A
/// table made with its zone (on the thread that loads zones) costs the same memory and
/// allocates nothing afterwards. 4,096 consecutive days (eleven years) fit without
/// collisions; a day that collides with another only costs its lookup again.
struct ZoneOffsetTable: Sendable {
    static let slots = 4096
    private static let empty = Int32.min

    /// Day of slot `day & (slots - 1)`, and its offset in seconds.
    private var days: [Int32]
    private var offsets: [Int32]

    init() {
        days = Array(repeating: Self.empty, count: Self.slots)
        offsets = Array(repeating: 0, count: Self.slots)
    }

    /// The offset remembered for UTC day `day`, if any.
    func offset(onDay day: Int64) -> Int? {
        guard let key = Int32(exactly: day), key != Self.empty else { return nil }
        let slot = Int(truncatingIfNeeded: day) & (Self.slots - 1)
        return days[slot] == key ? Int(offsets[slot]) : nil
    }

    /// Remembers that UTC day `day` has offset `seconds` all day (replacing the day that
    /// shared its slot). Days beyond ±5.8 million years (and the one that marks an empty
    /// slot) are not remembered.
    mutating func remember(_ seconds: Int, onDay day: Int64) {
        guard let key = Int32(exactly: day), let value = Int32(exactly: seconds), key != Self.empty else { return }
        let slot = Int(truncatingIfNeeded: day) & (Self.slots - 1)
        days[slot] = key
        offsets[slot] = value
    }
}
