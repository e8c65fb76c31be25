import CLibical
import Foundation
import Digests

/// Reads one libical VEVENT component into an `EventRecord`.
///
/// libical is not given the lines of properties this reader does not read
/// (`ParserFeed`): a property read here must not be one `ParserFeed` leaves out.
enum VEventReader {
    /// Returns nil (with a reason in `issues`) when the component cannot be used.
    static func read(_ c: OpaquePointer, text: String, line: Int,
                     context: inout ReaderContext, issues: inout [String]) -> EventRecord? {
        // Errors libical recorded while parsing values.
        var badProperties: [String] = []
        var emptyUID = false
        var p = icalcomponent_get_first_property(c, ICAL_XLICERROR_PROPERTY)
        while let prop = p {
            if let message = LibICal.string(icalproperty_get_xlicerror(prop)), message.hasPrefix("No value for UID") {
                emptyUID = true
            }
            // An empty TEXT value ("DESCRIPTION:") is valid iCalendar; libical reports it anyway.
            // Unknown IANA-token property names are allowed by RFC 5545; libical reports them anyway.
            if let message = LibICal.string(icalproperty_get_xlicerror(prop)), !message.hasPrefix("No value for"),
               !message.hasPrefix("Parse error in property name") {
                badProperties.append(message)
            }
            p = icalcomponent_get_next_property(c, ICAL_XLICERROR_PROPERTY)
        }

        guard let startProp = icalcomponent_get_first_property(c, ICAL_DTSTART_PROPERTY) else {
            let detail = badProperties.first.map { " (\(clean($0)))" } ?? ""
            issues.append("VEVENT has no usable DTSTART\(detail); skipped")
            return nil
        }
        guard let start = timeValue(startProp, icalproperty_get_dtstart(startProp), "DTSTART", &context, &issues) else {
            issues.append("VEVENT has an unparseable DTSTART; skipped")
            return nil
        }

        let uid: String
        if let u = LibICal.string(icalcomponent_get_uid(c)), isPlaceholder(u) {
            issues.append("VEVENT is a template: its UID \"\(u)\" is a placeholder, not an identifier; skipped")
            return nil
        } else if let u = LibICal.string(icalcomponent_get_uid(c)), !u.isEmpty {
            uid = exactUID(u, in: text)
        } else if emptyUID || icalcomponent_get_first_property(c, ICAL_UID_PROPERTY) != nil {
            // RFC 5545 3.8.4.7: a UID identifies the event; an empty one identifies nothing,
            // and two events sharing it must not replace each other.
            uid = synthesizedUID(text)
            issues.append("empty UID; the event is identified by its content (\(uid))")
        } else {
            uid = synthesizedUID(text)
        }
        var record = EventRecord(uid: uid, start: start, text: text, line: line)

        // Duration. Where DTSTART and DTEND differ in kind (a DATE with a DATE-TIME, a
        // floating time with a zoned one), both are read in the more specific frame.
        if let endProp = icalcomponent_get_first_property(c, ICAL_DTEND_PROPERTY),
           var end = timeValue(endProp, icalproperty_get_dtend(endProp), "DTEND", &context, &issues) {
            var start = start
            (start, end) = reconcile(start, end)
            record.start = start
            let zones = ZoneRegistry.shared
            if !start.isDate, !end.isDate,
               end.instant(zones: zones, floatingZone: .utc) < start.instant(zones: zones, floatingZone: .utc) {
                // Start and end entered the wrong way round: read them swapped.
                issues.append("DTEND is before DTSTART; read as swapped")
                record.start = end
                setDuration(&record, start: end, end: start)
            } else {
                setDuration(&record, start: start, end: end)
            }
        } else if let durProp = icalcomponent_get_first_property(c, ICAL_DURATION_PROPERTY) {
            let d = icalproperty_get_duration(durProp)
            // RFC 5545 3.8.2.5 allows a zero DURATION: on a date (`DURATION:PT0S`) it is an
            // all-day event of no length, shown on its day, as `DTEND` equal to `DTSTART` is.
            let isZero = d.is_neg == 0 && d.weeks == 0 && d.days == 0 && d.hours == 0 && d.minutes == 0 && d.seconds == 0
            if d.is_neg != 0 {
                issues.append("negative DURATION ignored")
            } else {
                record.durationDays = Int(d.weeks) * 7 + Int(d.days)
                record.durationSeconds = Int64(d.hours) * 3600 + Int64(d.minutes) * 60 + Int64(d.seconds)
            }
            if start.isDate, record.durationSeconds > 0, record.durationSeconds % 86_400 == 0 {
                // Whole days written in seconds (Google's `DURATION:PT86400S`): still all-day.
                record.durationDays += Int(record.durationSeconds / 86_400)
                record.durationSeconds = 0
            }
            if case .date(let day) = start, record.durationSeconds > 0 {
                // A DATE with an hours-long DURATION: a timed event from that midnight.
                record.start = .floating(CivilDateTime(date: day))
            } else if start.isDate, record.durationDays == 0, !isZero {
                record.durationDays = 1
            }
        } else if start.isDate {
            record.durationDays = 1
        }

        // Recurrence.
        // RRULE (RFC 5545 says SHOULD NOT repeat; where it does, the union is used).
        // Each rule with its summary, read once for the cost check and the span.
        var rules: [(text: String, summary: RuleSummary?)] = []
        func accept(_ text: String) {
            let summary = RuleSummary(Substring(text))
            if summary?.isTooCostly ?? false {
                issues.append("RRULE \(text.prefix(200)) ignored: \(RuleSummary.costlyReason)")
            } else {
                rules.append((text, summary))
            }
        }
        var rr = icalcomponent_get_first_property(c, ICAL_RRULE_PROPERTY)
        while let rruleProp = rr {
            var rule = icalproperty_get_rrule(rruleProp)
            if rule.count < 0 { rule.count = 0 } // COUNT=-1 seen in the wild: no count
            if record.start.isDate, icaltime_is_null_time(rule.until) == 0, rule.until.is_date == 0,
               icaltime_is_utc(rule.until) != 0 {
                // Outlook bounds an all-day series by the UTC instant of its last day's local
                // midnight: the series ends on that instant's date in the file's own zone
                // (X-WR-TIMEZONE, else its VTIMEZONE's), else on its UTC date. Apple writes
                // 23:59:59Z of the last day itself: its UTC date, which in a file east of UTC
                // the local date would move a day on. Never the view's zone: the same file
                // gives the same days in every view.
                let apple = rule.until.hour == 23 && rule.until.minute == 59 && rule.until.second == 59
                let zone = apple ? .utc : context.ownZone() ?? .utc
                let local = zone.local(atUTC: rule.until.civil.secondsAsIfUTC)
                rule.until = icaltimetype(civil: CivilDateTime(date: local.date), isDate: true)
                issues.append(allDayUntilWarning(zone.identifier))
            }
            if rule.freq == ICAL_NO_RECURRENCE {
                issues.append("invalid RRULE ignored")
            } else if let cString = icalrecurrencetype_as_string_r(&rule) {
                let text = String(cString: cString)
                icalmemory_free_buffer(cString)
                accept(text)
            }
            rr = icalcomponent_get_next_property(c, ICAL_RRULE_PROPERTY)
        }
        // libical drops an RRULE it cannot read; salvage what can be read (see RuleSalvage).
        for (index, message) in badProperties.enumerated().reversed() where message.contains("RRULE") {
            guard let range = message.range(of: "Removing entire property: ") else { continue }
            let raw = message[range.upperBound...].trimmingCharacters(in: [" ", "\n", "\r"])
            badProperties.remove(at: index)
            guard let salvaged = RuleSalvage.salvage(raw) else {
                issues.append("RRULE could not be read, even without its unreadable parts; ignored: \(raw.prefix(200))")
                continue
            }
            accept(salvaged.rule)
            issues.append("RRULE repaired (\(salvaged.repairs.joined(separator: "; "))): \(raw.prefix(200))")
        }
        if !rules.isEmpty { record.rrule = rules.map(\.text).joined(separator: "\n") }
        var rp = icalcomponent_get_first_property(c, ICAL_RDATE_PROPERTY)
        while let prop = rp {
            let value = icalproperty_get_rdate(prop)
            if icaltime_is_null_time(value.period.start) == 0 {
                if let s = timeValue(prop, value.period.start, "RDATE", &context, &issues) {
                    var endTime = value.period.end
                    if icaltime_is_null_time(endTime) != 0 {
                        endTime = icaltime_add(value.period.start, value.period.duration)
                    }
                    let e = timeValue(prop, endTime, "RDATE", &context, &issues)
                    record.rdates.append(RecurrenceDate(start: s, end: e))
                }
            } else if let s = timeValue(prop, value.time, "RDATE", &context, &issues) {
                record.rdates.append(RecurrenceDate(start: s))
            }
            rp = icalcomponent_get_next_property(c, ICAL_RDATE_PROPERTY)
        }
        if !record.start.isDate {
            // A DATE (or a PERIOD of DATEs) in the RDATE of a DATE-TIME series: RFC 5545
            // wants the type of DTSTART, so it is read as midnight in DTSTART's frame.
            func reframed(_ v: TimeValue?) -> TimeValue? {
                guard case .date(let d)? = v else { return v }
                return record.start.withWallClock(CivilDateTime(date: d))
            }
            record.rdates = record.rdates.map { RecurrenceDate(start: reframed($0.start)!, end: reframed($0.end)) }
        }
        var xp = icalcomponent_get_first_property(c, ICAL_EXDATE_PROPERTY)
        while let prop = xp {
            if let t = timeValue(prop, icalproperty_get_exdate(prop), "EXDATE", &context, &issues) {
                record.exdates.append(t)
            }
            xp = icalcomponent_get_next_property(c, ICAL_EXDATE_PROPERTY)
        }
        adoptSeriesFrame(&record, &issues)
        if let ridProp = icalcomponent_get_first_property(c, ICAL_RECURRENCEID_PROPERTY) {
            guard let rid = timeValue(ridProp, icalproperty_get_recurrenceid(ridProp), "RECURRENCE-ID", &context, &issues) else {
                issues.append("VEVENT has an unparseable RECURRENCE-ID; skipped")
                return nil
            }
            record.recurrenceID = rid
            if let range = icalproperty_get_first_parameter(ridProp, ICAL_RANGE_PARAMETER),
               icalparameter_get_range(range) == ICAL_RANGE_THISANDFUTURE {
                record.thisAndFuture = true
            }
        }

        // Descriptive fields.
        if let prop = icalcomponent_get_first_property(c, ICAL_STATUS_PROPERTY) {
            switch icalproperty_get_status(prop) {
            case ICAL_STATUS_CANCELLED: record.status = .cancelled
            case ICAL_STATUS_TENTATIVE: record.status = .tentative
            case ICAL_STATUS_CONFIRMED: record.status = .confirmed
            default: record.status = nil
            }
        }
        if let prop = icalcomponent_get_first_property(c, ICAL_SUMMARY_PROPERTY) {
            record.summary = LibICal.string(icalproperty_get_summary(prop))
        }
        if let prop = icalcomponent_get_first_property(c, ICAL_LOCATION_PROPERTY) {
            record.location = LibICal.string(icalproperty_get_location(prop))
        }
        (record.description, record.url) = EventText.descriptionAndURL(text)
        if let prop = icalcomponent_get_first_property(c, ICAL_SEQUENCE_PROPERTY) {
            record.sequence = Int(icalproperty_get_sequence(prop))
        }
        if let prop = icalcomponent_get_first_property(c, ICAL_LASTMODIFIED_PROPERTY) {
            record.modified = utcSeconds(icalproperty_get_lastmodified(prop))
        } else if let prop = icalcomponent_get_first_property(c, ICAL_DTSTAMP_PROPERTY) {
            record.modified = utcSeconds(icalproperty_get_dtstamp(prop))
        }
        record.alarms = displayAlarms(c, length: record.durationSeconds + Int64(record.durationDays) * 86_400)
        for message in badProperties {
            // libical drops a parameter it cannot read (`DTEND;TZIDAsia/Tehran:…`, its `=`
            // missing) and keeps the property: its value is used, without that parameter.
            if message.hasPrefix("Can't parse parameter name") {
                issues.append("unreadable parameter dropped, its property read without it: \(clean(message))")
            } else {
                issues.append("ignored invalid property: \(clean(message))")
            }
        }
        SpanCalculator.computeSpan(&record, zones: ZoneRegistry.shared, rules: rules)
        record.ridKey = record.recurrenceKey(zones: ZoneRegistry.shared)
        // Fingerprinted here, on a parser thread, so the writer thread only stores.
        record.contentHash = contentFingerprint(record.text, record.start.encoded)

        return record
    }

    // MARK: - Values

    /// Converts a libical time with the property's TZID into a `TimeValue`.
    static func timeValue(_ prop: OpaquePointer, _ t: icaltimetype, _ name: String,
                          _ context: inout ReaderContext, _ issues: inout [String]) -> TimeValue? {
        guard icaltime_is_null_time(t) == 0, icaltime_is_valid_time(t) != 0 else { return nil }
        let civil = t.civil
        guard civil.date.isValid else { return nil }
        if t.is_date != 0 { return .date(civil.date) }
        let tzid = icalproperty_get_first_parameter(prop, ICAL_TZID_PARAMETER).flatMap {
            LibICal.string(icalparameter_get_tzid($0))
        } ?? ""
        if icaltime_is_utc(t) != 0 {
            // `TZID=America/New_York:20211222T170000Z`: invalid (RFC 5545 3.3.5), and
            // written by Google, whose own note in such files says it shows the zone's
            // wall time; khal and x-wr-timezone read it so. Every time of the event
            // written this way is read the same way, so EXDATEs still match.
            if !tzid.isEmpty, let zone = context.zone(forTZID: tzid), zone !== Zone.utc {
                let warning = zonedUTCWarning(name, tzid)
                if !issues.contains(warning) { issues.append(warning) }
                return .zoned(civil, zoneKey: zone.key)
            }
            return .utc(civil.secondsAsIfUTC)
        }
        if !tzid.isEmpty {
            if let zone = context.zone(forTZID: tzid) {
                return zone === Zone.utc ? .utc(civil.secondsAsIfUTC) : .zoned(civil, zoneKey: zone.key)
            }
            // Floating, as libical, khal and Python's icalendar read it. Every block that
            // names it reports it, so none is skipped unparsed on the next import (see
            // `BlockDigest`); the file keeps one warning per TZID (`CalendarParser.finish`).
            issues.append(unknownZoneWarning(tzid))
        }
        if let zone = context.defaultZone {
            if zone.key.hasPrefix("vtz:") { context.usedZoneKeys.insert(zone.key) }
            return zone === Zone.utc ? .utc(civil.secondsAsIfUTC) : .zoned(civil, zoneKey: zone.key)
        }
        return .floating(civil)
    }

    /// The warning for a time that has a TZID and ends in `Z` (once per property name and
    /// TZID in an event).
    static func zonedUTCWarning(_ name: String, _ tzid: String) -> String {
        "\(name) has TZID=\(tzid) on a UTC time (ending in Z); read as the wall time in \(tzid), as Google means it"
    }

    /// The warning for a UTC UNTIL on an all-day series, read in `zone`.
    static func allDayUntilWarning(_ zone: String) -> String {
        "UTC UNTIL on an all-day series; the series ends on its date in \(zone), that date included"
    }

    /// The warning for a TZID nothing defines (once per TZID and file).
    static func unknownZoneWarning(_ tzid: String) -> String {
        "unknown time zone \"\(tzid)\"; its times are read as floating times"
    }

    /// Reads DTSTART and DTEND in one frame when their kinds differ.
    static func reconcile(_ start: TimeValue, _ end: TimeValue) -> (TimeValue, TimeValue) {
        func reframe(_ t: CivilDateTime, like other: TimeValue) -> TimeValue {
            switch other {
            case .utc: return .utc(t.secondsAsIfUTC)
            case .zoned(_, let key): return .zoned(t, zoneKey: key)
            case .floating, .date: return .floating(t)
            }
        }
        switch (start, end) {
        case (.date, .date): return (start, end)
        case (.date(let d), _): return (reframe(CivilDateTime(date: d), like: end), end)
        case (.floating(let t), .utc), (.floating(let t), .zoned): return (reframe(t, like: end), end)
        case (.utc, .floating(let t)), (.zoned, .floating(let t)): return (start, reframe(t, like: start))
        default: return (start, end)
        }
    }

    static func setDuration(_ record: inout EventRecord, start: TimeValue, end: TimeValue) {
        switch (start, end) {
        case (.date(let s), _):
            // DTEND is exclusive; DTEND equal to DTSTART is a zero-length all-day event.
            let days = end.wallClock.date.daysSinceEpoch - s.daysSinceEpoch
            record.durationDays = max(days, 0)
        case (.floating(let s), .floating(let e)):
            record.durationSeconds = max(0, e.secondsAsIfUTC - s.secondsAsIfUTC)
        case (_, .date(let e)):
            record.durationSeconds = max(0, CivilDateTime(date: e).secondsAsIfUTC - start.wallClock.secondsAsIfUTC)
        default:
            let zones = ZoneRegistry.shared
            let a = start.instant(zones: zones, floatingZone: .utc)
            let b = end.instant(zones: zones, floatingZone: .utc)
            record.durationSeconds = max(0, b - a)
        }
    }

    static func utcSeconds(_ t: icaltimetype) -> Int64? {
        guard icaltime_is_null_time(t) == 0 else { return nil }
        return t.civil.secondsAsIfUTC
    }

    /// A stable UID for a VEVENT that has none: a hash of its content without DTSTAMP
    /// (which exporters rewrite on every export).
    static func synthesizedUID(_ text: String) -> String {
        var hasher = SHA256()
        for line in text.removingCarriageReturns().replacingFolds().split(separator: "\n") {
            if line.uppercased().hasPrefix("DTSTAMP") { continue }
            hasher.update(String(line))
            hasher.update([10])
        }
        let hex = hasher.finalize().map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        return "synthesized-" + hex.prefix(32) + "@eventd"
    }

    static func clean(_ message: String) -> String {
        message.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).joined(separator: " ")
    }
}
