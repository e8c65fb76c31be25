import CLibical
import Foundation
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
