/// State shared by the VEVENTs of one VCALENDAR: its zones and what was resolved.
struct ReaderContext {
    /// The file's VTIMEZONEs by TZID as written, read when first used (`FileZoneBudget`).
    private(set) var fileZones: [String: FileZone] = [:]
    /// The TZIDs of `fileZones` by their `normalise`d form.
    private var normalisedTZIDs: [String: String] = [:]
    /// The bound on the definitions the file's events use, shared by the parse's contexts.
    var zoneBudget = FileZoneBudget()
    var defaultZone: Zone?
    /// The TZID of the file's first VTIMEZONE: with `defaultZone`, the file's own zone
    /// (`ownZone`), which dates a UTC UNTIL on an all-day series.
    var fileZoneTZID: String?
    var usedZoneKeys: Set<String> = []

    /// The zone a TZID names, in the order of docs/data-model.md: an IANA name the system knows
    /// (embedded definitions are often stale); the file's VTIMEZONE; a Windows zone name
    /// through CLDR's mapping; a vendor-prefixed name by its IANA tail; a Windows display
    /// name (`(UTC+10:00) Canberra, Melbourne, Sydney`) through its Windows zone, so DST
    /// still applies; a `(GMT+01:00) …` or `UTC+01:00` name as that fixed offset. Nil:
    /// unknown (the caller reads the time as floating, with a warning).
    mutating func zone(forTZID tzid: String) -> Zone? {
        let name = Self.normalise(tzid)
        if !name.hasPrefix("/"), let zone = Zone.system(name) { return zone }
        if let entry = fileZones[tzid] ?? fileZones[name] ?? normalisedTZIDs[name].flatMap({ fileZones[$0] }),
           let zone = zoneBudget.zone(for: entry) {
            usedZoneKeys.insert(zone.key)
            return zone
        }
        if let iana = WindowsZones.iana[name], let zone = Zone.system(iana) { return zone }
        if name.hasPrefix("/"), let zone = Self.ianaTail(name) { return zone }
        if let iana = WindowsDisplayNames.iana(forDisplayName: name), let zone = Zone.system(iana) { return zone }
        if let offset = Self.fixedOffset(name) { return Zone.fixed(offsetSeconds: offset) }
        return nil
    }

    /// The file's own zone: X-WR-TIMEZONE, else its first VTIMEZONE's TZID resolved as any
    /// TZID is (so its definition is read only when a series needs it). Nil: none.
    mutating func ownZone() -> Zone? {
        defaultZone ?? fileZoneTZID.flatMap { zone(forTZID: $0) }
    }

    /// A TZID without surrounding quotes, spaces and stray trailing colons
    /// (`TZID:Pacific Standard Time:` has been seen in exported files).
    static func normalise(_ tzid: String) -> String {
        var s = Substring(tzid)
        while let c = s.first, c == "\"" || c == " " { s.removeFirst() }
        while let c = s.last, c == "\"" || c == " " || c == ":" { s.removeLast() }
        return String(s)
    }

    /// Adds a VTIMEZONE of the file (the first definition of a TZID wins).
    mutating func addFileZone(_ zone: FileZone, tzid: String) {
        guard fileZones[tzid] == nil else { return }
        fileZones[tzid] = zone
        let name = Self.normalise(tzid)
        if normalisedTZIDs[name] == nil { normalisedTZIDs[name] = tzid }
    }

    /// `/mozilla.org/20050126_1/Europe/Berlin`, `/softwarestudio.org/Olson_20011030_5/Pacific/Auckland`,
    /// `/Europe/Stockholm`: the longest tail of the path that the system knows as a zone.
    static func ianaTail(_ name: String) -> Zone? {
        let parts = name.split(separator: "/")
        for start in parts.indices {
            if let zone = Zone.system(parts[start...].joined(separator: "/")) { return zone }
        }
        return nil
    }

    /// The offset (seconds east of UTC) a name like `(GMT+01:00) Amsterdam, Berlin`,
    /// `(UTC-05:00) Eastern Time`, `UTC+01:00`, `GMT+0530` or `UTC+1` states; `(GMT)
    /// Greenwich Mean Time` is 0. Nil when the name does not start that way.
    static func fixedOffset(_ name: String) -> Int? {
        var s = Substring(name)
        if s.first == "(" { s = s.dropFirst() }
        guard s.uppercased().hasPrefix("GMT") || s.uppercased().hasPrefix("UTC") else { return nil }
        s = s.dropFirst(3)
        guard let sign = s.first, sign == "+" || sign == "-" || sign == "\u{2212}" else {
            // Only the bare name, or the name in parentheses followed by places.
            return s.isEmpty || s.first == ")" ? 0 : nil
        }
        s = s.dropFirst()
        let digits = s.prefix { $0.isASCII && ($0.isNumber || $0 == ":") }
        let rest = s.dropFirst(digits.count)
        guard rest.isEmpty || rest.first == ")" || rest.first == " " else { return nil }
        let numbers = digits.split(separator: ":")
        var hours = 0, minutes = 0
        switch (numbers.count, numbers.first?.count ?? 0) {
        case (1, 1...2): hours = Int(numbers[0]) ?? 99
        case (1, 4): hours = Int(numbers[0].prefix(2)) ?? 99; minutes = Int(numbers[0].suffix(2)) ?? 99
        case (2, 1...2) where numbers[1].count == 2: hours = Int(numbers[0]) ?? 99; minutes = Int(numbers[1]) ?? 99
        default: return nil
        }
        guard hours <= 14, minutes < 60 else { return nil }
        return (sign == "+" ? 1 : -1) * (hours * 3600 + minutes * 60)
    }
}
