import CLibical

extension VEventReader {
    /// A template's placeholder where a UID belongs (`$uid`, `${uid}`, `{{uid}}`, `%UID%`):
    /// a file written to be filled in, whose events would all share one made-up identity.
    static func isPlaceholder(_ uid: String) -> Bool {
        let u = uid.trimmingSpaces()
        func isName(_ s: Substring) -> Bool { !s.isEmpty && s.allSatisfy { $0.isLetter || $0 == "_" || $0.isNumber } }
        if u.hasPrefix("${"), u.hasSuffix("}") { return isName(u.dropFirst(2).dropLast()) }
        if u.hasPrefix("{{"), u.hasSuffix("}}") { return isName(u.dropFirst(2).dropLast(2).drop(while: { $0 == " " }).prefix(while: { $0 != " " })) }
        if u.hasPrefix("%"), u.hasSuffix("%"), u.count > 2 { return isName(u.dropFirst().dropLast()) }
        if u.hasPrefix("$") { return isName(u.dropFirst()) }
        return false
    }

    /// The UID as written. libical drops the white space at the end of a value, but a UID
    /// is TEXT (RFC 5545 3.8.4.7, 3.3.11): every character is part of the identifier, and
    /// other readers keep it (`UID:only-dst@example.com ` is not `only-dst@example.com`).
    /// `parsed` is libical's value; the spaces and tabs it dropped are put back.
    static func exactUID(_ parsed: String, in text: String) -> String {
        var result = parsed
        text.utf8.withContiguousStorageIfAvailable { block in
            guard let raw = rawUIDValue(block) else { return }
            var kept = raw.count
            while kept > 0, raw[kept - 1] == 32 || raw[kept - 1] == 9 { kept -= 1 }
            guard kept < raw.count, String(decoding: raw[..<kept], as: UTF8.self) == parsed else { return }
            result = parsed + String(decoding: raw[kept...], as: UTF8.self)
        }
        return result
    }

    /// The unfolded bytes after the `:` of the block's first `UID` line, when they end in
    /// white space (nil otherwise, without copying anything: nearly every UID).
    static func rawUIDValue(_ block: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var i = 0
        while i + 3 < block.count {
            if i == 0 || block[i - 1] == 10 || block[i - 1] == 13,
               ParserFeed.upper(block[i]) == 85, ParserFeed.upper(block[i + 1]) == 73, ParserFeed.upper(block[i + 2]) == 68,
               block[i + 3] == 58 || block[i + 3] == 59 {
                var line = ParserFeed.UnfoldedLine(block, at: i + 3)
                var quoted = false
                while let byte = line.next(), quoted || byte != 58 {
                    if byte == 34 { quoted.toggle() }
                }
                let valueStart = line
                var trailing = 0
                while let byte = line.next() { trailing = byte == 32 || byte == 9 ? trailing + 1 : 0 }
                guard trailing > 0 else { return nil }
                line = valueStart
                var value: [UInt8] = []
                while let byte = line.next() { value.append(byte) }
                return value
            }
            i += 1
        }
        return nil
    }
}

extension VEventReader {
    /// The VEVENT's display alarms as seconds before its start (see `EventRecord.alarms`).
    /// `length` is the event's duration in seconds, for triggers related to its end.
    static func displayAlarms(_ c: OpaquePointer, length: Int64) -> [Int64] {
        var befores: [Int64] = []
        var alarm = icalcomponent_get_first_component(c, ICAL_VALARM_COMPONENT)
        while let a = alarm {
            defer { alarm = icalcomponent_get_next_component(c, ICAL_VALARM_COMPONENT) }
            guard let action = icalcomponent_get_first_property(a, ICAL_ACTION_PROPERTY),
                  icalproperty_get_action(action) == ICAL_ACTION_DISPLAY,
                  let triggerProp = icalcomponent_get_first_property(a, ICAL_TRIGGER_PROPERTY) else { continue }
            let trigger = icalproperty_get_trigger(triggerProp)
            // An absolute trigger (VALUE=DATE-TIME) names one instant, not an offset that
            // applies to every occurrence: not kept.
            guard icaltime_is_null_time(trigger.time) != 0 else { continue }
            var offset = Int64(icaldurationtype_as_int(trigger.duration))
            if let related = icalproperty_get_first_parameter(triggerProp, ICAL_RELATED_PARAMETER),
               icalparameter_get_related(related) == ICAL_RELATED_END {
                offset += length
            }
            let before = -offset
            if before >= 0, !befores.contains(before) { befores.append(before) }
        }
        return befores
    }
}

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
