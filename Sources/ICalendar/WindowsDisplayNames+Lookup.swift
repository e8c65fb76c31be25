extension WindowsDisplayNames {
    /// The IANA zone a Windows display name names (`(UTC+10:00) Canberra, Melbourne, Sydney`
    /// is Australia/Sydney, with its DST), or nil when the name is not one.
    ///
    /// The table's spelling is matched first, also with the older `(GMT+10:00)` prefix and
    /// `(UTC+00:00)` for `(UTC)`. Windows renamed places between versions (`Kiev` to `Kyiv`,
    /// `(GMT) Greenwich Mean Time : Dublin, …` to `(UTC+00:00) Dublin, …`), so otherwise the
    /// name's offset must equal an entry's and its place words pick the entry: the one
    /// sharing the most words, when no entry of another zone shares as many.
    static func iana(forDisplayName name: String) -> String? {
        guard let (offset, places) = split(name) else { return nil }
        let prefix = offset == 0 ? "(UTC) " : "(UTC" + String(Zone.fixedKey(offsetSeconds: offset).dropFirst(3)) + ") "
        if let id = zoneIDs[prefix + places], let iana = WindowsZones.iana[id] { return iana }
        let wanted = words(places)
        guard !wanted.isEmpty else { return nil }
        var best: (score: Int, iana: String?) = (0, nil)
        for entry in index[offset] ?? [] {
            let score = entry.words.intersection(wanted).count
            if score > best.score { best = (score, entry.iana) }
            else if score == best.score, score > 0, best.iana != entry.iana { best.iana = nil }
        }
        return best.iana
    }

    /// The offset a display name states and the places after it: `(GMT+01:00) Amsterdam`
    /// is (3600, "Amsterdam"); nil for a name that does not start with `(UTC…)` or `(GMT…)`.
    static func split(_ name: String) -> (Int, String)? {
        guard name.first == "(", let close = name.firstIndex(of: ")"),
              let offset = ReaderContext.fixedOffset(String(name[...close])) else { return nil }
        let places = name[name.index(after: close)...].drop { $0 == " " }
        return places.isEmpty ? nil : (offset, String(places))
    }

    /// The words of a place list that name places (lower-cased; the words every US and
    /// Canadian zone shares are left out).
    static func words(_ places: String) -> Set<String> {
        let generic: Set<String> = ["time", "standard", "us", "canada", "old", "of", "and", "the", "is", "mean"]
        let parts = places.lowercased().split { !($0.isLetter || $0 == "'") }.map(String.init)
        return Set(parts.filter { !generic.contains($0) })
    }

    /// The table's entries by offset (seconds east of UTC), with their IANA zone.
    static let index: [Int: [(words: Set<String>, iana: String)]] = {
        var byOffset: [Int: [(words: Set<String>, iana: String)]] = [:]
        for (name, id) in zoneIDs {
            guard let (offset, places) = split(name), let iana = WindowsZones.iana[id] else { continue }
            byOffset[offset, default: []].append((words(places), iana))
        }
        return byOffset
    }()
}
