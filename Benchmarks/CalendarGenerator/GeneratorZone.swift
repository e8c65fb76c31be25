// MARK: - GeneratorZone

/// The time zones the generator uses for `DTSTART;TZID=…` values, with their VTIMEZONE
/// definitions.
///
/// The definitions carry the zones' current rules (as in the IANA database, 2025), each
/// observance starting in the year the rule took effect:
/// - Europe/Berlin: CEST from the last Sunday of March 02:00 (EU rule since 1981), CET from
///   the last Sunday of October 03:00 (since 1996).
/// - America/New_York: EDT from the second Sunday of March 02:00, EST from the first Sunday
///   of November 02:00 (US rule since 2007).
/// - Australia/Sydney (southern hemisphere): AEDT from the first Sunday of October 02:00,
///   AEST from the first Sunday of April 03:00 (NSW rule since 2008).
/// - Asia/Seoul: KST, UTC+9 all year since the last DST period ended on 1988-10-09 03:00.
enum GeneratorZone: Int, CaseIterable, Sendable {
    case berlin
    case newYork
    case sydney
    case seoul

    // MARK: - Identity

    /// The IANA identifier, used as TZID.
    var identifier: StaticString {
        switch self {
        case .berlin: return "Europe/Berlin"
        case .newYork: return "America/New_York"
        case .sydney: return "Australia/Sydney"
        case .seoul: return "Asia/Seoul"
        }
    }

    /// The offset from UTC outside daylight saving time, in minutes.
    var standardOffsetMinutes: Int {
        switch self {
        case .berlin: return 60
        case .newYork: return -300
        case .sydney: return 600
        case .seoul: return 540
        }
    }

    /// A zone for a timed event: Berlin 40 %, New York 30 %, Sydney 15 %, Seoul 15 %.
    static func random(using rng: inout SplitMix64) -> GeneratorZone {
        let roll = rng.next(below: 20)
        switch roll {
        case 0..<8: return .berlin
        case 8..<14: return .newYork
        case 14..<17: return .sydney
        default: return .seoul
        }
    }

    // MARK: - VTIMEZONE

    /// The content lines of this zone's VTIMEZONE component (without CRLF).
    var definitionLines: [StaticString] {
        switch self {
        case .berlin:
            return [
                "BEGIN:VTIMEZONE",
                "TZID:Europe/Berlin",
                "X-LIC-LOCATION:Europe/Berlin",
                "BEGIN:DAYLIGHT",
                "TZOFFSETFROM:+0100",
                "TZOFFSETTO:+0200",
                "TZNAME:CEST",
                "DTSTART:19810329T020000",
                "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
                "END:DAYLIGHT",
                "BEGIN:STANDARD",
                "TZOFFSETFROM:+0200",
                "TZOFFSETTO:+0100",
                "TZNAME:CET",
                "DTSTART:19961027T030000",
                "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
                "END:STANDARD",
                "END:VTIMEZONE",
            ]
        case .newYork:
            return [
                "BEGIN:VTIMEZONE",
                "TZID:America/New_York",
                "X-LIC-LOCATION:America/New_York",
                "BEGIN:DAYLIGHT",
                "TZOFFSETFROM:-0500",
                "TZOFFSETTO:-0400",
                "TZNAME:EDT",
                "DTSTART:20070311T020000",
                "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU",
                "END:DAYLIGHT",
                "BEGIN:STANDARD",
                "TZOFFSETFROM:-0400",
                "TZOFFSETTO:-0500",
                "TZNAME:EST",
                "DTSTART:20071104T020000",
                "RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU",
                "END:STANDARD",
                "END:VTIMEZONE",
            ]
        case .sydney:
            return [
                "BEGIN:VTIMEZONE",
                "TZID:Australia/Sydney",
                "X-LIC-LOCATION:Australia/Sydney",
                "BEGIN:STANDARD",
                "TZOFFSETFROM:+1100",
                "TZOFFSETTO:+1000",
                "TZNAME:AEST",
                "DTSTART:20080406T030000",
                "RRULE:FREQ=YEARLY;BYMONTH=4;BYDAY=1SU",
                "END:STANDARD",
                "BEGIN:DAYLIGHT",
                "TZOFFSETFROM:+1000",
                "TZOFFSETTO:+1100",
                "TZNAME:AEDT",
                "DTSTART:20081005T020000",
                "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=1SU",
                "END:DAYLIGHT",
                "END:VTIMEZONE",
            ]
        case .seoul:
            return [
                "BEGIN:VTIMEZONE",
                "TZID:Asia/Seoul",
                "X-LIC-LOCATION:Asia/Seoul",
                "BEGIN:STANDARD",
                "TZOFFSETFROM:+1000",
                "TZOFFSETTO:+0900",
                "TZNAME:KST",
                "DTSTART:19881009T030000",
                "END:STANDARD",
                "END:VTIMEZONE",
            ]
        }
    }

    /// Writes this zone's VTIMEZONE component.
    func writeDefinition(to writer: inout ContentLineWriter) {
        for line in definitionLines {
            writer.line(line)
        }
    }
}
