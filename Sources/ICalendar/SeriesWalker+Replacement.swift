extension SeriesWalker {
    /// The instance an override plainly replaces when its RECURRENCE-ID names none, or nil.
    ///
    /// Exchange writes overrides of whole-day and moved instances whose RECURRENCE-ID is
    /// off by the zone's offset (a local time written as UTC, the UTC instant of a local
    /// midnight on a date series); read literally, the override and the instance it was
    /// meant to replace would both be shown. As Outlook and Google read these files, the
    /// override replaces the instance on the same local date that lies within the series'
    /// zone offset of its RECURRENCE-ID (the nearest, when two do); a date series has no
    /// zone of its own, so any offset a zone can have (14 h) bounds it. Nothing is matched
    /// when the RECURRENCE-ID names an instance, for a series in UTC, or for an override
    /// older than its master.
    func replacedInstance(_ o: EventRecord, of master: EventRecord) -> TimeValue? {
        // An override older than its master is left to `isSuperseded` (the series was revised).
        guard !o.thisAndFuture, o.sequence >= master.sequence, let rid = o.recurrenceID,
              !(rid.isDate && master.start.isDate) else { return nil }
        let key = matchKey(rid), at = instant(rid)
        let probe = SeriesWalker(series: series, from: at - 2 * 86_400, to: at + 2 * 86_400,
                                 floatingZone: floatingZone, zones: zones)
        let near = probe.instances(of: master, reach: 0).map(\.0)
        guard !near.contains(where: { matchKey($0) == key }) else { return nil }
        let candidates: [(TimeValue, distance: Int64)]
        switch master.start {
        case .date:
            let written = rid.wallClock.secondsAsIfUTC
            candidates = near.compactMap { c in
                let distance = abs(CivilDateTime(date: c.wallClock.date).secondsAsIfUTC - written)
                return distance <= 14 * 3600 ? (c, distance) : nil
            }
        case .utc:
            return nil
        default:
            let zone: Zone
            if case .zoned(_, let zoneKey) = master.start { zone = zones.zone(forKey: zoneKey) ?? .utc } else { zone = floatingZone }
            let dates: Set<CivilDate> = [rid.wallClock.date, zone.local(atUTC: at).date]
            candidates = near.compactMap { c in
                let start = instant(c)
                let distance = abs(start - at)
                guard distance <= abs(Int64(zone.offset(atUTC: start))), dates.contains(zone.local(atUTC: start).date) else { return nil }
                return (c, distance)
            }
        }
        let sorted = candidates.sorted { $0.distance < $1.distance }
        guard let best = sorted.first, sorted.count == 1 || sorted[1].distance > best.distance else { return nil }
        // An instance that another override names exactly is that override's.
        if series.overrides.contains(where: { $0.recurrenceID.map(matchKey) == matchKey(best.0) && !$0.thisAndFuture }) { return nil }
        return best.0
    }
}

/// The warnings for overrides read as replacing another instance than the one their
/// RECURRENCE-ID names. Events reach the parser's consumer in batches and are not kept,
/// so only the series of the UIDs whose blocks hold a RECURRENCE-ID are watched (found in
/// the raw bytes before parsing; a file without one costs one search).
struct ReplacementCheck {
    private let uids: Set<String>
    /// The `hashValue`s of `uids`: most records' UIDs are not watched, and a miss in a
    /// set of Ints compares no strings (in `uids` each probe may compare one).
    private let uidHashes: Set<Int>
    private var records: [String: [EventRecord]] = [:]

    /// Nil when no block of the file holds a RECURRENCE-ID.
    init?(_ bytes: UnsafeBufferPointer<UInt8>, _ blocks: [ComponentSlice]) {
        let marker = Array("RECURRENCE-ID".utf8), uidLine = Array("\nUID:".utf8)
        guard !blocks.isEmpty, Self.find(marker, in: bytes, from: 0, to: bytes.count) != nil else { return nil }
        var uids = Set<String>()
        for block in blocks {
            let range = block.range
            guard Self.find(marker, in: bytes, from: range.lowerBound, to: range.upperBound) != nil,
                  let hit = Self.find(uidLine, in: bytes, from: range.lowerBound, to: range.upperBound) else { continue }
            var end = hit + uidLine.count
            while end < range.upperBound, bytes[end] != 13, bytes[end] != 10 { end += 1 }
            uids.insert(String(decoding: UnsafeBufferPointer(rebasing: bytes[(hit + uidLine.count)..<end]), as: UTF8.self))
        }
        guard !uids.isEmpty else { return nil }
        self.uids = uids
        uidHashes = Set(uids.map(\.hashValue))
    }

    /// The index of the first `needle` in `bytes[from..<to]`, or nil.
    static func find(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        var i = from
        while let at = ByteSearch.firstIndex(of: needle[0], in: bytes, from: i, to: to) {
            guard at + needle.count <= to else { return nil }
            if (1..<needle.count).allSatisfy({ bytes[at + $0] == needle[$0] }) { return at }
            i = at + 1
        }
        return nil
    }

    mutating func observe(_ part: CalendarParser.Part) {
        guard case .events(let batch) = part else { return }
        // By index: `for record in batch` copies every record (a retain and a release of
        // each field), though only a few are watched.
        for index in batch.indices where uidHashes.contains(batch[index].uid.hashValue) && uids.contains(batch[index].uid) {
            var kept = batch[index]
            kept.text = ""
            records[kept.uid, default: []].append(kept)
        }
    }

    func warnings() -> [ImportIssue] {
        var issues: [ImportIssue] = []
        for (_, events) in records {
            guard let master = events.first(where: { $0.recurrenceID == nil }) else { continue }
            let series = Series(master: master, overrides: events.filter { $0.recurrenceID != nil })
            let floating = master.defaultZone.flatMap { Zone.system($0) } ?? .utc
            for o in series.overrides.prefix(SeriesWalker.probeLimit) {
                guard let rid = o.recurrenceID else { continue }
                let at = rid.instant(zones: ZoneRegistry.shared, floatingZone: floating)
                let walker = SeriesWalker(series: series, from: at - 2 * 86_400, to: at + 2 * 86_400,
                                          floatingZone: floating, zones: ZoneRegistry.shared)
                guard let original = LibICal.locked({ walker.replacedInstance(o, of: master) }) else { continue }
                issues.append(ImportIssue(line: o.line, message: "RECURRENCE-ID \(rid.wallClock.basic) names no instance of the series; "
                                          + "read as replacing the instance of \(original.wallClock.basic) (same local date, within the zone's offset)"))
            }
        }
        return issues.sorted { $0.line < $1.line }
    }
}
