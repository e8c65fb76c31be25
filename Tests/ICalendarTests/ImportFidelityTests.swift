import Testing
@testable import ICalendar

/// docs/data-model.md on the calendars people actually have: Windows display names keep
/// their zone's DST, an unknown TZID is floating, bare VEVENT files are read, NUL padding
/// in values is removed, and Outlook's UTC UNTIL on an all-day series keeps its last day.
@Suite struct ImportFidelityTests {
    static func start(_ tzid: String, value: String = "20201028T133000") throws -> (TimeValue, ParsedCalendar) {
        let parsed = try ICS.parse(ICS.calendar(ICS.event(["DTSTART;TZID=\(tzid):\(value)"])))
        return (try #require(parsed.events.first).start, parsed)
    }

    // MARK: - Windows display names

    @Test func everyDisplayNameResolvesToASystemZone() {
        #expect(WindowsDisplayNames.zoneIDs.count > 90)
        for (name, id) in WindowsDisplayNames.zoneIDs {
            let iana = WindowsZones.iana[id]
            #expect(iana.flatMap(Zone.system) != nil, "\(name): \(id) -> \(iana ?? "nothing")")
            #expect(WindowsDisplayNames.iana(forDisplayName: name) == iana, "\(name)")
        }
    }

    @Test func displayNamesKeepDaylightTime() throws {
        // OWA's Sydney meeting in October: 13:30 AEDT (+11:00), not a fixed +10:00.
        let (start, parsed) = try Self.start("\"(UTC+10:00) Canberra, Melbourne, Sydney\"")
        #expect(start == .zoned(civil(2020, 10, 28, 13, 30), zoneKey: "Australia/Sydney"))
        #expect(start.instant(zones: ZoneRegistry.shared, floatingZone: .utc) == utcSeconds(2020, 10, 28, 2, 30))
        #expect(parsed.warnings.isEmpty, "\(parsed.warnings)")
    }

    @Test func olderGMTSpellingsAndRenamedPlaces() throws {
        for (name, iana) in [("(GMT+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna", "Europe/Berlin"),
                             ("(GMT+10:00) Canberra, Melbourne, Sydney", "Australia/Sydney"),
                             ("(GMT) Greenwich Mean Time : Dublin, Edinburgh, Lisbon, London", "Europe/London"),
                             ("(GMT+02:00) Helsinki, Kiev, Riga, Sofia, Tallinn, Vilnius", WindowsZones.iana["FLE Standard Time"]!),
                             ("(GMT-05:00) Eastern Time (US & Canada)", "America/New_York"),
                             ("(UTC-03:30) Newfoundland", "America/St_Johns")] {
            let (start, _) = try Self.start(name, value: "20260701T090000")
            #expect(start == .zoned(civil(2026, 7, 1, 9), zoneKey: iana), "\(name)")
        }
        // No place in common with an entry of that offset: the stated offset, without DST.
        let (atlantis, _) = try Self.start("(GMT+01:00) Atlantis", value: "20260701T090000")
        #expect(atlantis == .zoned(civil(2026, 7, 1, 9), zoneKey: "UTC+01:00"))
    }

    // MARK: - Unknown TZID

    @Test func unknownTZIDIsFloatingWithOneWarning() throws {
        let text = ICS.calendar(ICS.event(["DTSTART;TZID=Mars Standard Time:20261201T100000",
                                           "DTEND;TZID=Mars Standard Time:20261201T110000"], uid: "a")
                                + ICS.event(["DTSTART;TZID=Mars Standard Time:20261202T100000"], uid: "b"))
        let parsed = try ICS.parse(text)
        #expect(parsed.events.map(\.start) == [.floating(civil(2026, 12, 1, 10)), .floating(civil(2026, 12, 2, 10))])
        #expect(parsed.events.first?.durationSeconds == 3600)
        #expect(parsed.warnings.map(\.message) == ["unknown time zone \"Mars Standard Time\"; its times are read as floating times"])
        #expect(parsed.warnings.first?.line == 4)
        // Read in the view's zone.
        let occurrences = try ICS.expandOnly(ICS.calendar(ICS.event(["DTSTART;TZID=Nowhere:20261201T100000"])),
                                             from: utcSeconds(2026, 11, 1), to: utcSeconds(2027, 1, 1),
                                             floating: try #require(Zone.system("Europe/Berlin")))
        #expect(occurrences.map(\.start) == [utcSeconds(2026, 12, 1, 9)])
    }

    // MARK: - Bare VEVENT files

    static let bare = ["BEGIN:VEVENT", "UID:bare@example.com", "DTSTAMP:20260101T000000Z",
                       "DTSTART:20261201T100000Z", "SUMMARY:Bare", "END:VEVENT"]

    @Test func bareEventsAreReadWithAWarning() throws {
        let second = Self.bare.map { $0.replacingOccurrences(of: "bare@", with: "second@") }
        let parsed = try CalendarParser.parse(ICS.bytes((Self.bare + second).map { $0 + "\r\n" }.joined()))
        #expect(parsed.events.map(\.uid) == ["bare@example.com", "second@example.com"])
        #expect(parsed.events.map(\.line) == [1, 7])
        #expect(parsed.warnings.map(\.message) == ["VEVENT with no VCALENDAR around it; read as if in one"])
        #expect(parsed.warnings.first?.line == 1)
    }

    @Test func aBareEventCutShortIsRejectedWhole() {
        for text in [Self.bare.dropLast().map { $0 + "\r\n" }.joined(),
                     (Self.bare + Self.bare.dropLast()).map { $0 + "\r\n" }.joined()] {
            #expect(throws: ICalendarSyntaxError.self) { try CalendarParser.parse(ICS.bytes(text)) }
        }
        // Other bare components are still not iCalendar files.
        let todo = "BEGIN:VTODO\r\nUID:t\r\nEND:VTODO\r\n"
        #expect(throws: ICalendarSyntaxError(line: 1, message: "not an iCalendar file: expected BEGIN:VCALENDAR, found BEGIN:VTODO")) {
            try CalendarParser.parse(ICS.bytes(todo))
        }
    }

    // MARK: - NUL padding

    @Test func nulPaddingInValuesIsRemoved() throws {
        // Before the line's ':' (in a parameter) a NUL is binary data.
        let inName = ICS.bytes(ICS.calendar(ICS.event(["DTSTART;TZID=Europe\u{0}/Stockholm:20261201T100000"])))
        #expect(throws: ICalendarSyntaxError.self) { try CalendarParser.parse(inName) }
        let bytes = ICS.bytes(ICS.calendar(["BEGIN:VTIMEZONE", "TZID:Europe/Stockholm\u{0}\u{0}\u{0}\u{0}", "BEGIN:STANDARD",
                                        "DTSTART:19700101T000000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0100", "END:STANDARD",
                                        "END:VTIMEZONE"]
                                       + ICS.event(["DTSTART;TZID=Europe/Stockholm:20261201T100000", "SUMMARY:Padded\u{0}\u{0}"])))
        let parsed = try CalendarParser.parse(bytes)
        let event = try #require(parsed.events.first)
        #expect(event.summary == "Padded")
        #expect(event.start == .zoned(civil(2026, 12, 1, 10), zoneKey: "Europe/Stockholm"))
        #expect(parsed.warnings.map(\.message) == ["NUL bytes inside a property value; removed"])
        #expect(parsed.warnings.first?.line == 5)
    }

    @Test func nulOutsideAValueIsStillBinary() {
        for bytes: [UInt8] in [[0, 0, 0, 0], Array("BEGIN:VCALENDAR\r\n\u{0}\r\nEND:VCALENDAR\r\n".utf8),
                               Array("B\u{0}E\u{0}G\u{0}I\u{0}N\u{0}:\u{0}V\u{0}".utf8)] {
            #expect(throws: ICalendarSyntaxError.self) { try CalendarParser.parse(bytes) }
        }
    }

    // MARK: - Outlook's all-day UNTIL

    static func allDay(_ header: [String] = []) -> String {
        ICS.calendar(ICS.event(["DTSTART;VALUE=DATE:20210101", "DTEND;VALUE=DATE:20210102",
                                "RRULE:FREQ=DAILY;UNTIL=20210701T220000Z"]), header: header)
    }

    static func lastDay(_ text: String, view: Zone) throws -> CivilDate? {
        try ICS.expandOnly(text, from: utcSeconds(2021, 6, 1), to: utcSeconds(2021, 8, 1), floating: view).last?.startDate
    }

    @Test func allDayUTCUntilEndsOnItsLocalDate() throws {
        let berlin = try #require(Zone.system("Europe/Berlin"))
        // 2021-07-01 22:00Z is midnight of 2 July in Berlin: 2 July is the last day, in
        // every view, for a file whose own zone is Berlin (X-WR-TIMEZONE or a VTIMEZONE).
        for view in [Zone.utc, berlin] {
            #expect(try Self.lastDay(Self.allDay(["X-WR-TIMEZONE:Europe/Berlin"]), view: view) == day(2021, 7, 2))
        }
        let zoned = ICS.calendar(ICS.fixedZone("W. Europe Standard Time", offset: "+0200") + ICS.event([
            "DTSTART;VALUE=DATE:20210101", "DTEND;VALUE=DATE:20210102", "RRULE:FREQ=DAILY;UNTIL=20210701T220000Z"]))
        #expect(try Self.lastDay(zoned, view: .utc) == day(2021, 7, 2))
        // A file with no zone of its own: the UTC date, 1 July, in a Berlin view too.
        #expect(try Self.lastDay(Self.allDay(), view: berlin) == day(2021, 7, 1))
        #expect(try Self.lastDay(Self.allDay(), view: .utc) == day(2021, 7, 1))
        let parsed = try ICS.parse(Self.allDay())
        #expect(parsed.warnings.map(\.message) == ["UTC UNTIL on an all-day series; the series ends on its date in UTC, that date included"])
    }

    /// A rule stored before the parser dated the UNTIL (still UTC in the database) is
    /// dated in UTC by the expander: the same last day in every view.
    @Test func aStoredUTCUntilIsDatedInUTCInEveryView() throws {
        var record = EventRecord(uid: "stored@x", start: .date(day(2021, 1, 1)), text: "", line: 1)
        record.durationDays = 1
        record.rrule = "FREQ=DAILY;UNTIL=20210701T220000Z"
        for view in [Zone.utc, try #require(Zone.system("Europe/Berlin"))] {
            let last = Expander.expand(Series(master: record), from: utcSeconds(2021, 6, 1), to: utcSeconds(2021, 8, 1),
                                       floatingZone: view, zones: ZoneRegistry.shared).last?.startDate
            #expect(last == day(2021, 7, 1), "\(view)")
        }
    }

    /// Apple ends an all-day series at 23:59:59Z of its last day; tine20's tests expect
    /// that day (18 September) to be the last, also in a view east of UTC.
    @Test func appleAllDayUntilIsItsUTCDate() throws {
        let text = ICS.calendar(ICS.event(["DTSTART;VALUE=DATE:20160912", "DTEND;VALUE=DATE:20160913",
                                           "RRULE:FREQ=DAILY;UNTIL=20160918T235959Z"]))
        let tokyo = try #require(Zone.system("Asia/Tokyo"))
        for view in [Zone.utc, tokyo, try #require(Zone.system("America/New_York"))] {
            let days = try ICS.expandOnly(text, from: utcSeconds(2016, 9, 1), to: utcSeconds(2016, 10, 1), floating: view)
            #expect(days.map(\.startDate) == (12...18).map { day(2016, 9, $0) }, "\(view)")
        }
        // Also in a file whose own zone is east of UTC, where 23:59:59Z is already the
        // next local date: Apple's value names the last day itself.
        let east = ICS.calendar(ICS.event(["DTSTART;VALUE=DATE:20160912", "DTEND;VALUE=DATE:20160913",
                                           "RRULE:FREQ=DAILY;UNTIL=20160918T235959Z"]), header: ["X-WR-TIMEZONE:Asia/Tokyo"])
        for view in [Zone.utc, tokyo] {
            let days = try ICS.expandOnly(east, from: utcSeconds(2016, 9, 1), to: utcSeconds(2016, 10, 1), floating: view)
            #expect(days.map(\.startDate) == (12...18).map { day(2016, 9, $0) }, "\(view)")
        }
    }

    /// Google wrote all-day holidays as `DTSTART;VALUE=DATE` with `DURATION:PT86400S`.
    @Test func aDateWithWholeDaysInSecondsStaysAllDay() throws {
        let parsed = try ICS.parse(ICS.calendar(ICS.event(["DTSTART;VALUE=DATE:20260425", "DURATION:PT86400S"])))
        let event = try #require(parsed.events.first)
        #expect(event.start == .date(day(2026, 4, 25)) && event.durationDays == 1 && event.durationSeconds == 0)
        let timed = try ICS.parse(ICS.calendar(ICS.event(["DTSTART;VALUE=DATE:20260425", "DURATION:PT2H"])))
        #expect(timed.events.first?.start == .floating(civil(2026, 4, 25)))
        #expect(timed.events.first?.durationSeconds == 7200)
    }

    // MARK: - A floating series with a UTC or zoned EXDATE

    static let exdated = ["DTSTART:19960401T010000", "DTEND:19960401T020000", "RRULE:FREQ=DAILY;COUNT=6"]

    @Test func aFloatingSeriesTakesTheFrameOfItsEXDATE() throws {
        let text = ICS.calendar(ICS.event(Self.exdated + ["EXDATE:19960402T010000Z,19960403T010000Z", "EXDATE:19960404T010000"]))
        let parsed = try ICS.parse(text)
        #expect(parsed.events.first?.start == .utc(utcSeconds(1996, 4, 1, 1)))
        #expect(parsed.warnings.map(\.message) == ["floating DTSTART with an EXDATE in UTC; the series is read in UTC"])
        // The excluded days stay excluded in a view in another zone (read floating, the
        // UTC EXDATEs would name no instance in Berlin); the floating EXDATE moves along.
        let berlin = try #require(Zone.system("Europe/Berlin"))
        let occurrences = try ICS.expandOnly(text, from: utcSeconds(1996, 3, 1), to: utcSeconds(1996, 5, 1), floating: berlin)
        #expect(occurrences.map { isoUTC($0.start) } == ["1996-04-01T01:00:00Z", "1996-04-05T01:00:00Z", "1996-04-06T01:00:00Z"])
        #expect(occurrences.allSatisfy { $0.end - $0.start == 3600 && !$0.isFloating })
    }

    @Test func aZonedEXDATEOrRDATEGivesItsZone() throws {
        let zoned = try ICS.parse(ICS.calendar(ICS.event(Self.exdated + ["EXDATE;TZID=Europe/Berlin:19960402T010000"])))
        #expect(zoned.events.first?.start == .zoned(civil(1996, 4, 1, 1), zoneKey: "Europe/Berlin"))
        #expect(zoned.warnings.map(\.message) == ["floating DTSTART with an EXDATE in Europe/Berlin; the series is read in Europe/Berlin"])
        let rdate = try ICS.parse(ICS.calendar(ICS.event(Self.exdated + ["RDATE:19960410T010000Z"])))
        #expect(rdate.events.first?.start == .utc(utcSeconds(1996, 4, 1, 1)))
        #expect(rdate.warnings.map(\.message) == ["floating DTSTART with an RDATE in UTC; the series is read in UTC"])
        // An unknown TZID is floating, so its series also takes the EXDATE's frame.
        let unknown = try ICS.parse(ICS.calendar(ICS.event(["DTSTART;TZID=LOLOLOL:20120403T100000", "RRULE:FREQ=MONTHLY;COUNT=6",
                                                           "EXDATE:20120603T080000Z"])))
        #expect(unknown.events.first?.start == .utc(utcSeconds(2012, 4, 3, 10)))
        #expect(unknown.warnings.map(\.message) == ["unknown time zone \"LOLOLOL\"; its times are read as floating times",
                                                    "floating DTSTART with an EXDATE in UTC; the series is read in UTC"])
        // Floating throughout, or zoned by X-WR-TIMEZONE: nothing to adopt, no warning.
        let floating = try ICS.parse(ICS.calendar(ICS.event(Self.exdated + ["EXDATE:19960402T010000"])))
        #expect(floating.events.first?.start == .floating(civil(1996, 4, 1, 1)) && floating.warnings.isEmpty)
        let google = try ICS.parse(ICS.calendar(ICS.event(Self.exdated + ["EXDATE:19960402T000000Z"]),
                                                header: ["X-WR-TIMEZONE:Europe/Berlin"]))
        #expect(google.events.first?.start == .zoned(civil(1996, 4, 1, 1), zoneKey: "Europe/Berlin") && google.warnings.isEmpty)
    }

    // MARK: - UIDs are read as written

    @Test func aUIDKeepsItsTrailingWhiteSpace() throws {
        let parsed = try ICS.parse(ICS.calendar(ICS.event(["DTSTART:20180403T090000Z"], uid: "only-dst@example.com ")
                                                + ICS.event(["DTSTART:20180404T090000Z"], uid: "tab@exam\r\n ple.com\t")
                                                + ICS.event(["DTSTART:20180405T090000Z"], uid: "plain@example.com")))
        #expect(parsed.events.map(\.uid) == ["only-dst@example.com ", "tab@example.com\t", "plain@example.com"])
        #expect(parsed.warnings.isEmpty, "\(parsed.warnings)")
    }

    // MARK: - Sub-daily series across a DST change (RFC 5545 3.8.5.3)

    /// A duration given by DTEND is the same exact duration for every instance: an hourly
    /// one-hour meeting in Berlin on 2007-10-28 (CEST ends at 01:00Z) lasts 3600 s each
    /// time, also the instance in the repeated hour, where adding an hour to the wall clock
    /// would make it last two.
    @Test func hourlyInstancesKeepTheirExactDurationAcrossDST() throws {
        let text = ICS.calendar(ICS.event(["DTSTART;TZID=Europe/Berlin:20071028T000000",
                                           "DTEND;TZID=Europe/Berlin:20071028T010000", "RRULE:FREQ=HOURLY;COUNT=4"]))
        let occurrences = try ICS.expandOnly(text, from: utcSeconds(2007, 10, 27), to: utcSeconds(2007, 10, 29))
        // Hand-computed: 00:00, 01:00 CEST; 02:00 (first, CEST = 00:00Z); 03:00 CET = 02:00Z.
        #expect(occurrences.map { isoUTC($0.start) } == ["2007-10-27T22:00:00Z", "2007-10-27T23:00:00Z",
                                                         "2007-10-28T00:00:00Z", "2007-10-28T02:00:00Z"])
        #expect(occurrences.map { $0.end - $0.start } == [3600, 3600, 3600, 3600])
        // ical.net's DailyInterval1 shape: a 24-hour event lasts 24 hours also on the day
        // of the change (07:00 CEST to 06:00 CET), not 25 as a wall-clock day would.
        let daily = ICS.calendar(ICS.event(["DTSTART;TZID=Europe/Berlin:20071026T070000",
                                            "DTEND;TZID=Europe/Berlin:20071027T070000", "RRULE:FREQ=DAILY;COUNT=3"]))
        let days = try ICS.expandOnly(daily, from: utcSeconds(2007, 10, 25), to: utcSeconds(2007, 10, 31))
        #expect(days.map { isoUTC($0.end) } == ["2007-10-27T05:00:00Z", "2007-10-28T05:00:00Z", "2007-10-29T06:00:00Z"])
    }

    /// RFC 5545 3.8.2.5: "a "VEVENT" calendar component can have [...] a DURATION with a
    /// value of zero"; 3.6.1: "The "DTSTART" property for a "VEVENT" specifies the inclusive
    /// start of the event." A zero DURATION on a date is an event of no length on its day,
    /// as DTEND equal to DTSTART is (recurring-ical-events reads it so too).
    @Test func aZeroDurationOnADateIsAnEventOfNoLength() throws {
        let text = ICS.calendar(ICS.event(["DTSTART;VALUE=DATE:20260105", "DURATION:PT0S", "RRULE:FREQ=DAILY;COUNT=2"]))
        let parsed = try ICS.parse(text)
        #expect(parsed.warnings.isEmpty, "\(parsed.warnings)")
        let event = try #require(parsed.events.first)
        #expect(event.isAllDay && event.durationDays == 0 && event.durationSeconds == 0)
        let days = try ICS.expandOnly(text, from: utcSeconds(2026, 1, 1), to: utcSeconds(2026, 2, 1))
        #expect(days.map(\.startDate) == [day(2026, 1, 5), day(2026, 1, 6)])
        #expect(days.allSatisfy { $0.endDate == $0.startDate && $0.end == $0.start })
    }

    /// RFC 5545 3.8.4.7: "The "UID" itself MUST be a globally unique identifier." Two events
    /// with an empty one (ical.net's Calendars/Serialization/Parameter2.ics) each get a UID
    /// made from their content: stable across imports, different between them.
    @Test func anEmptyUIDGetsAStableOneWithAWarning() throws {
        let text = ICS.calendar(ICS.event(["UID:", "DTSTART:20260901T090000Z", "SUMMARY:one"], uid: nil)
            + ICS.event(["UID:", "DTSTART:20260902T090000Z", "SUMMARY:two"], uid: nil))
        let first = try ICS.parse(text), again = try ICS.parse(text)
        #expect(first.events.count == 2)
        #expect(first.events.map(\.uid) == again.events.map(\.uid))
        #expect(Set(first.events.map(\.uid)).count == 2 && first.events.allSatisfy { $0.uid.hasPrefix("synthesized-") })
        #expect(first.warnings.filter { $0.message.hasPrefix("empty UID") }.count == 2, "\(first.warnings)")
    }

    /// Template files (a `$uid` where the UID belongs) are not calendars: each such event is
    /// skipped with a warning that says why, rather than stored under a made-up identity.
    @Test(arguments: ["$uid", "${uid}", "{{ uid }}", "%UID%"])
    func aTemplatesPlaceholderUIDIsSkippedWithItsReason(_ placeholder: String) throws {
        let parsed = try ICS.parse(ICS.calendar(ICS.event(["UID:\(placeholder)", "DTSTART:20260105T090000Z"], uid: nil)))
        #expect(parsed.events.isEmpty)
        #expect(parsed.skipped == 1)
        #expect(parsed.warnings.contains { $0.message.contains("template") && $0.message.contains(placeholder) }, "\(parsed.warnings)")
        // A braced GUID (Outlook's) is an identifier.
        #expect(!VEventReader.isPlaceholder("{e06d4078-6fe5-c84c-b886-9862069853a3}"))
    }
}
