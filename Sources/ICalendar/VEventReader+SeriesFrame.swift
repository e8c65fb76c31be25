extension VEventReader {
    /// A floating DTSTART (no zone, or a TZID nothing defines) with an EXDATE or RDATE in
    /// UTC or in a zone: the series is read in that value's frame, as DTSTART is read in
    /// DTEND's when only DTEND has a zone (`reconcile`). RFC 5545 wants these values in
    /// DTSTART's form; the file mixes them, and its author wrote one frame for the whole
    /// series. Read floating, the EXDATEs would remove nothing in a view outside that
    /// frame, and the days the author excluded would show. The first such EXDATE, else
    /// RDATE, decides (the other readers take the first zoned value too); floating
    /// EXDATEs and RDATEs of the series move with it.
    static func adoptSeriesFrame(_ record: inout EventRecord, _ issues: inout [String]) {
        guard case .floating(let wallClock) = record.start else { return }
        let candidates = record.exdates.map { ("EXDATE", $0) } + record.rdates.map { ("RDATE", $0.start) }
        guard let (property, frame) = candidates.first(where: { $0.1.isUTC || $0.1.zoneKey != nil }) else { return }
        func reframed(_ value: TimeValue) -> TimeValue {
            guard case .floating(let t) = value else { return value }
            return frame.withWallClock(t)
        }
        record.start = frame.withWallClock(wallClock)
        record.exdates = record.exdates.map(reframed)
        record.rdates = record.rdates.map { RecurrenceDate(start: reframed($0.start), end: $0.end.map(reframed)) }
        let zone = frame.zoneKey.map { ZoneRegistry.shared.zone(forKey: $0)?.identifier ?? $0 } ?? "UTC"
        issues.append(seriesFrameWarning(property: property, zone: zone))
    }

    /// The warning for a floating series read in the frame of its EXDATE or RDATE.
    static func seriesFrameWarning(property: String, zone: String) -> String {
        "floating DTSTART with an \(property) in \(zone); the series is read in \(zone)"
    }
}
