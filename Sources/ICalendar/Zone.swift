import CLibical
import Synchronization

/// A time zone: its rules come from libical — either an in-file `VTIMEZONE` or the
/// system zone database (`/usr/share/zoneinfo`, read by libical's built-in loader).
///
/// This type is the one owner of local-time rules in eventd. libical supplies the
/// offsets; the RFC 5545 reading of nonexistent and ambiguous local times is applied
/// here (libical's own conversion gets both wrong): a local time in a gap uses the
/// offset before the gap, and an ambiguous one means its first occurrence.
///
/// A zone is shared between threads. libical's zone is not immutable: every lookup
/// lazily extends its table of offset changes (`icaltimezone_ensure_coverage`), and the
/// built-in zones are loaded on first use, so every call on `handle` takes
/// `LibICal.lock`; the other stored properties are immutable or a `Mutex`.
public final class Zone: @unchecked Sendable, CustomStringConvertible { // @unchecked: `handle` is only used under `LibICal.lock`
    let handle: OpaquePointer
    private let owned: Bool
    /// The TZID or IANA name this zone was created for.
    public let identifier: String
    /// The key eventd stores for this zone (`Europe/Berlin`, or `vtz:HASH` for in-file definitions).
    public let key: String

    /// For an in-file definition whose TZID is also a system zone: that zone, used for
    /// instants before the definition's first observance, which the definition does not
    /// describe (exporters often write only recent rules).
    private let fallback: Zone?
    /// The first instant the in-file definition covers.
    private let firstOnset: Int64
    /// The last instant it covers: its last onset when no observance recurs.
    private let lastOnset: Int64
    /// For an in-file definition without a system zone of its name: the offset before its
    /// first onset, which RFC 5545 does not define. libical takes the first onset's
    /// TZOFFSETFROM; RFC 5545's own example (section 4: a meeting "at 8:30 AM EST on March
    /// 12, 1998" in a VTIMEZONE whose first onset is 25 October 1998, a STANDARD one from
    /// -04:00) means standard time, and so do the other readers: the first STANDARD
    /// observance's TZOFFSETTO.
    private let offsetBeforeOnset: Int?

    init(handle: OpaquePointer, owned: Bool, identifier: String, key: String,
                 fallback: Zone? = nil, coverage: (Int64, Int64) = (.min, .max), offsetBeforeOnset: Int? = nil) {
        self.handle = handle
        self.owned = owned
        self.identifier = identifier
        self.key = key
        self.fallback = fallback
        self.firstOnset = coverage.0
        self.lastOnset = coverage.1
        self.offsetBeforeOnset = fallback == nil ? offsetBeforeOnset : nil
    }

    deinit {
        if owned { LibICal.locked { icaltimezone_free(handle, 1) } }
    }

    /// The zone's identifier.
    public var description: String { identifier }

    // MARK: - Creating zones

    /// UTC.
    public static let utc = Zone(handle: LibICal.utc, owned: false, identifier: "UTC", key: "UTC")

    /// The system zone named `name` (IANA), or nil when the system database lacks it.
    ///
    /// Accepts libical's and Mozilla's prefixed forms (`/freeassociation.sourceforge.net/Europe/Berlin`)
    /// and other spellings of one zone (`canonicalName`); the zone's identifier is its
    /// canonical name.
    public static func system(_ name: String) -> Zone? {
        // A canonical name seen before (nearly every call: an import asks once per event):
        // from the cache alone, without libical's lock or a cleaned copy of the name.
        // Other spellings are cached only canonical, so the cache (and libical's own, which
        // adds a zone per file name it loads) holds one zone per zone file at most.
        if let cached = systemCache.withLock({ $0[name] }) { return cached }
        return LibICal.locked {
            let cleaned = Zone.canonicalName(name)
            if let cached = systemCache.withLock({ $0[cleaned] }) { return cached }
            if cleaned == "UTC" || cleaned == "Etc/UTC" || cleaned == "Z" || cleaned == "GMT" { return Zone.utc }
            guard Zone.isPlausibleName(cleaned), let zone = loadSystem(cleaned) else { return nil }
            systemCache.withLock { $0[cleaned] = zone }
            return zone
        }
    }

    /// A zone defined by VTIMEZONE text (a complete `BEGIN:VTIMEZONE ... END:VTIMEZONE`).
    public static func definition(_ text: String, key: String) -> Zone? {
        LibICal.locked {
            guard let comp = icalparser_parse_string(text) else { return nil }
            guard icalcomponent_isa(comp) == ICAL_VTIMEZONE_COMPONENT,
                  let tzidProp = icalcomponent_get_first_property(comp, ICAL_TZID_PROPERTY),
                  let tzid = LibICal.string(icalproperty_get_tzid(tzidProp)),
                  icalcomponent_get_first_component(comp, ICAL_ANY_COMPONENT) != nil,
                  let zone = icaltimezone_new() else {
                icalcomponent_free(comp)
                return nil
            }
            // libical expands every RRULE observance from its DTSTART year on; a costly
            // one (FREQ=SECONDLY, or yearly on every day since year 1) would hang every
            // conversion. Such a definition is refused; the TZID falls back to the system zone.
            guard let cost = Self.expansionCost(of: comp), cost <= Self.maxExpansion else {
                icalcomponent_free(comp)
                icaltimezone_free(zone, 1)
                return nil
            }
            // The zone takes ownership of the component.
            guard icaltimezone_set_component(zone, comp) != 0 else {
                icalcomponent_free(comp)
                icaltimezone_free(zone, 1)
                return nil
            }
            let coverage = Self.coverage(of: comp)
            let fallback = coverage == (.min, .max) ? nil : Zone.system(tzid)
            return Zone(handle: zone, owned: true, identifier: tzid, key: key, fallback: fallback, coverage: coverage,
                        offsetBeforeOnset: Self.standardOffset(of: comp))
        }
    }

    /// The span a VTIMEZONE describes: from its earliest observance onset (DTSTART is
    /// local time before the change, so it is read with TZOFFSETFROM) to its latest one
    /// when no observance has an RRULE and the offsets differ (open otherwise).
    private static func coverage(of comp: OpaquePointer) -> (Int64, Int64) {
        var earliest = Int64.max
        var latest = Int64.min
        var recurs = false
        var offsets = Set<Int32>()
        var sub = icalcomponent_get_first_component(comp, ICAL_ANY_COMPONENT)
        while let observance = sub {
            if let p = icalcomponent_get_first_property(observance, ICAL_TZOFFSETTO_PROPERTY) {
                offsets.insert(icalproperty_get_tzoffsetto(p))
            }
            if let start = icalcomponent_get_first_property(observance, ICAL_DTSTART_PROPERTY) {
                let local = icalproperty_get_dtstart(start).civil.secondsAsIfUTC
                var from: Int64 = 0
                if let p = icalcomponent_get_first_property(observance, ICAL_TZOFFSETFROM_PROPERTY) {
                    from = Int64(icalproperty_get_tzoffsetfrom(p))
                }
                earliest = min(earliest, local - from)
                latest = max(latest, local - from)
            }
            if icalcomponent_get_first_property(observance, ICAL_RRULE_PROPERTY) != nil { recurs = true }
            var rdate = icalcomponent_get_first_property(observance, ICAL_RDATE_PROPERTY)
            while let p = rdate {
                let local = icalproperty_get_rdate(p).time.civil.secondsAsIfUTC
                latest = max(latest, local - 14 * 3600)
                rdate = icalcomponent_get_next_property(observance, ICAL_RDATE_PROPERTY)
            }
            sub = icalcomponent_get_next_component(comp, ICAL_ANY_COMPONENT)
        }
        if earliest == .max { return (.min, .max) }
        // A definition with one offset (a fixed-offset zone, or one that stopped changing)
        // has no last change: it holds from its onset on.
        return (earliest, recurs || offsets.count <= 1 ? .max : latest)
    }

    /// The TZOFFSETTO of the VTIMEZONE's first STANDARD observance.
    private static func standardOffset(of comp: OpaquePointer) -> Int? {
        guard let standard = icalcomponent_get_first_component(comp, ICAL_XSTANDARD_COMPONENT),
              let p = icalcomponent_get_first_property(standard, ICAL_TZOFFSETTO_PROPERTY) else { return nil }
        return Int(icalproperty_get_tzoffsetto(p))
    }

    /// Most offset changes an in-file definition may make libical compute (up to 2100).
    static let maxExpansion = 200_000

    /// An upper bound of the offset changes libical expands for the VTIMEZONE `comp` up
    /// to the year 2100: per RRULE observance, the rule's instances per year (the product
    /// of its BYxxx list sizes; a BYDAY without BYMONTHDAY counts five per weekday) times
    /// the years from its DTSTART. Nil when an observance RRULE is not yearly (real zone
    /// rules are; a monthly, daily or finer one is never a time-zone rule).
    static func expansionCost(of comp: OpaquePointer) -> Int? {
        var total = 0
        var sub = icalcomponent_get_first_component(comp, ICAL_ANY_COMPONENT)
        while let observance = sub {
            var startYear = 1970
            if let start = icalcomponent_get_first_property(observance, ICAL_DTSTART_PROPERTY) {
                startYear = Int(icalproperty_get_dtstart(start).year)
            }
            var rp = icalcomponent_get_first_property(observance, ICAL_RRULE_PROPERTY)
            while let p = rp {
                var rule = icalproperty_get_rrule(p)
                guard let cString = icalrecurrencetype_as_string_r(&rule) else { return nil }
                let text = String(cString: cString)
                icalmemory_free_buffer(cString)
                guard let summary = RuleSummary(Substring(text)), summary.freq == "YEARLY" else { return nil }
                var perYear = 1
                for (name, value) in summary.parts where name.hasPrefix("BY") {
                    let n = value.split(separator: ",").count
                    let factor = name == "BYDAY" && summary.parts["BYMONTHDAY"] == nil ? 5 * n : n
                    perYear = min(perYear * max(1, factor), maxExpansion + 1)
                }
                let years = max(1, (2100 - min(max(startYear, 0), 2100)) / max(1, summary.interval))
                total = min(total + perYear * years, Int(Int32.max))
                if total > maxExpansion { return total }
                rp = icalcomponent_get_next_property(observance, ICAL_RRULE_PROPERTY)
            }
            sub = icalcomponent_get_next_component(comp, ICAL_ANY_COMPONENT)
        }
        return total
    }

    /// System zones by canonical name, created once: at most one per zone file.
    private static let systemCache = Mutex<[String: Zone]>([:])

    /// Whether the system zone `name` (canonical) has been loaded in this process.
    public static func isSystemZoneLoaded(_ name: String) -> Bool {
        systemCache.withLock { $0[name] != nil }
    }

    static func stripPrefix(_ name: String) -> String {
        var s = Substring(name)
        for prefix in ["/freeassociation.sourceforge.net/Tzfile/", "/freeassociation.sourceforge.net/",
                       "/citadel.org/"] where s.hasPrefix(prefix) {
            s = s.dropFirst(prefix.count)
        }
        if s.hasPrefix("/mozilla.org/") {
            // /mozilla.org/20050126_1/Europe/Berlin
            let parts = s.split(separator: "/", maxSplits: 2)
            if parts.count == 3 { s = parts[2] }
        }
        return String(s)
    }

    /// The one spelling of a zone name that eventd loads: vendor prefixes stripped
    /// (`stripPrefix`), repeated and trailing slashes dropped, and the zoneinfo
    /// directory's `posix/` and `right/` copies read as the zone itself
    /// (`posix/Asia///Tokyo` is `Asia/Tokyo`). A name that starts with `/` after the
    /// vendor prefixes is left as it is (no zone name does; `isPlausibleName` refuses it).
    public static func canonicalName(_ name: String) -> String {
        let stripped = stripPrefix(name)
        guard !stripped.hasPrefix("/") else { return stripped }
        var parts = stripped.split(separator: "/")[...]
        while let first = parts.first, parts.count > 1, first == "posix" || first == "right" { parts = parts.dropFirst() }
        return parts.joined(separator: "/")
    }

    /// Rejects names that could escape the zoneinfo directory or are plainly not zone names.
    static func isPlausibleName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 64, !name.hasPrefix("/"), !name.contains("..") else { return false }
        return name.utf8.allSatisfy { c in
            (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57)
                || c == UInt8(ascii: "/") || c == UInt8(ascii: "_") || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")
        }
    }

    // MARK: - Conversions

    /// Seconds east of UTC in effect at the instant `seconds` (since the epoch).
    public func offset(atUTC seconds: Int64) -> Int {
        if handle == LibICal.utc { return 0 }
        if seconds < firstOnset || seconds > lastOnset, let fallback { return fallback.offset(atUTC: seconds) }
        if seconds < firstOnset, let offsetBeforeOnset { return offsetBeforeOnset }
        // Zones change offset at most twice a year, never twice within a day: remember
        // each UTC day whose start and end have the same offset (it holds throughout).
        let bucket = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        if let cached = memo.withLock({ $0.offset(onDay: bucket) }) { return cached }
        let atStart = libicalOffset(bucket * 86_400)
        let atEnd = libicalOffset(bucket * 86_400 + 86_399)
        if atStart == atEnd {
            memo.withLock { $0.remember(atStart, onDay: bucket) }
            return atStart
        }
        return libicalOffset(seconds)
    }

    /// Offsets by UTC day (see `offset(atUTC:)`).
    private let memo = Mutex(ZoneOffsetTable())

    private func libicalOffset(_ seconds: Int64) -> Int {
        LibICal.locked {
            var t = icaltime_from_timet_with_zone(time_t(seconds), 0, LibICal.utc)
            var isDaylight: Int32 = 0
            return Int(icaltimezone_get_utc_offset_of_utc_time(handle, &t, &isDaylight))
        }
    }

    /// The instant of the wall-clock time `local` in this zone (RFC 5545 gap/overlap rules).
    public func instant(forLocal local: CivilDateTime) -> Int64 {
        let l = local.secondsAsIfUTC
        if handle == LibICal.utc { return l }
        let before = offset(atUTC: l - 86_400)
        let after = offset(atUTC: l + 86_400)
        // No transition within a day either side (the usual case): one offset fits.
        if before == after, offset(atUTC: l - Int64(before)) == before { return l - Int64(before) }
        let beforeValid = offset(atUTC: l - Int64(before)) == before
        let afterValid = before != after && offset(atUTC: l - Int64(after)) == after
        switch (beforeValid, afterValid) {
        case (true, true): return min(l - Int64(before), l - Int64(after)) // ambiguous: first occurrence
        case (true, false): return l - Int64(before)
        case (false, true): return l - Int64(after)
        case (false, false): return l - Int64(before) // in a gap: the offset before the gap
        }
    }

    /// The wall-clock time in this zone at the instant `seconds`.
    public func local(atUTC seconds: Int64) -> CivilDateTime {
        CivilDateTime(secondsAsIfUTC: seconds + Int64(offset(atUTC: seconds)))
    }
}
