import Testing
@testable import ICalendar

/// docs/data-model.md, "Time rules": how each DATE / DATE-TIME form is read.
@Suite struct TimeRuleTests {
    let berlin = Zone.system("Europe/Berlin")!
    let newYork = Zone.system("America/New_York")!

    // MARK: - TZID

    @Test func tzidWithInFileVTimezoneUsesThatDefinition() throws {
        let text = ICS.calendar(ICS.fixedZone("Custom/Zone", offset: "+0300") + ICS.event([
            "DTSTART;TZID=Custom/Zone:20260615T120000",
            "DTEND;TZID=Custom/Zone:20260615T130000",
            "RRULE:FREQ=MONTHLY;COUNT=7",
        ]))
        let parsed = try ICS.parse(text)
        #expect(parsed.warnings.isEmpty, "\(parsed.warnings)")
        let event = try #require(parsed.events.first)
        guard case .zoned(let wall, let key) = event.start else {
            Issue.record("DTSTART should be zoned, got \(event.start)"); return
        }
        #expect(wall == civil(2026, 6, 15, 12))
        #expect(key.hasPrefix("vtz:"), "in-file zones are keyed by their definition: \(key)")
        #expect(parsed.timezones[key]?.tzid == "Custom/Zone")
        #expect(parsed.timezones[key]?.text.contains("TZOFFSETTO:+0300") == true)

        let occurrences = Expander.expand(parsed.series()[0].series, from: utcSeconds(2026, 1, 1), to: utcSeconds(2027, 6, 1),
                                          floatingZone: newYork, zones: ZoneRegistry.shared)
        #expect(occurrences.count == 7)
        // +03:00 all year: 12:00 local is 09:00Z in summer and in winter alike.
        let expected = (0..<7).map { i -> Int64 in
            let month = 6 + i
            return month > 12 ? utcSeconds(2027, month - 12, 15, 9) : utcSeconds(2026, month, 15, 9)
        }
        #expect(occurrences.map(\.start) == expected)
        #expect(occurrences.allSatisfy { $0.end - $0.start == 3600 })
        #expect(occurrences.allSatisfy { !$0.isFloating })
    }

    /// An IANA name the system knows uses the system's rules, not the file's VTIMEZONE of
    /// that name (docs/data-model.md: embedded definitions are often stale).
    @Test func systemZoneWinsOverAnInFileDefinitionOfTheSameName() throws {
        let text = ICS.calendar(ICS.fixedZone("Europe/Berlin", offset: "+0300") + ICS.event([
            "DTSTART;TZID=Europe/Berlin:20260615T120000",
            "DTEND;TZID=Europe/Berlin:20260615T130000",
        ]))
        let parsed = try ICS.parse(text)
        #expect(parsed.events.first?.start == .zoned(civil(2026, 6, 15, 12), zoneKey: "Europe/Berlin"))
        #expect(parsed.timezones.isEmpty, "the unused definition is not stored: \(parsed.timezones.keys)")
        let occurrences = try ICS.expandOnly(text, from: utcSeconds(2026, 6, 1), to: utcSeconds(2026, 7, 1))
        try #require(occurrences.count == 1)
        #expect(isoUTC(occurrences[0].start) == isoUTC(utcSeconds(2026, 6, 15, 10)),
                "the system's CEST, not the file's +03:00 definition")
        #expect(occurrences[0].end - occurrences[0].start == 3600)
    }

    @Test func tzidWithoutVTimezoneUsesSystemZone() throws {
        let text = ICS.calendar(ICS.event([
            "DTSTART;TZID=America/New_York:20260615T090000",
            "DTEND;TZID=America/New_York:20260615T100000",
        ]))
        let parsed = try ICS.parse(text)
        #expect(parsed.warnings.isEmpty, "\(parsed.warnings)")
        #expect(parsed.timezones.isEmpty)
        #expect(parsed.events.first?.start == .zoned(civil(2026, 6, 15, 9), zoneKey: "America/New_York"))
        let occurrences = try ICS.expandOnly(text, from: utcSeconds(2026, 6, 1), to: utcSeconds(2026, 7, 1), floating: berlin)
        try #require(occurrences.count == 1)
        #expect(occurrences[0].start == utcSeconds(2026, 6, 15, 13)) // EDT, -04:00
        #expect(occurrences[0].end == utcSeconds(2026, 6, 15, 14))
    }

    @Test func unknownTzidIsFloatingWithAWarningNamingTheZone() throws {
        let text = ICS.calendar(ICS.event([
            "DTSTART;TZID=Mars/Olympus_Mons:20260615T090000",
            "DTEND;TZID=Mars/Olympus_Mons:20260615T100000",
        ]))
        let parsed = try ICS.parse(text)
        let event = try #require(parsed.events.first)
        #expect(event.start == .floating(civil(2026, 6, 15, 9)))
        #expect(event.durationSeconds == 3600)
        #expect(parsed.warnings.count == 1, "\(parsed.warnings)")
        #expect(parsed.warnings.contains { $0.message.contains("Mars/Olympus_Mons") }, "\(parsed.warnings)")
        // Warnings name the line of the component's BEGIN.
        #expect(parsed.warnings.allSatisfy { $0.line == 4 }, "\(parsed.warnings)")
        // Read in the view's zone: 09:00 CEST.
        let occurrences = try ICS.expandOnly(text, from: utcSeconds(2026, 6, 1), to: utcSeconds(2026, 7, 1), floating: berlin)
        #expect(occurrences.map(\.start) == [utcSeconds(2026, 6, 15, 7)])
    }

    @Test func utcTimesIgnoreTheFloatingZone() throws {
        let text = ICS.calendar(ICS.event(["DTSTART:20260615T090000Z", "DTEND:20260615T093000Z"]))
        #expect(try ICS.parse(text).events.first?.start == .utc(utcSeconds(2026, 6, 15, 9)))
        for zone in [berlin, newYork, Zone.utc] {
            let occurrences = try ICS.expandOnly(text, from: utcSeconds(2026, 6, 1), to: utcSeconds(2026, 7, 1), floating: zone)
            #expect(occurrences.map(\.start) == [utcSeconds(2026, 6, 15, 9)], "floating zone \(zone)")
            #expect(occurrences.map(\.end) == [utcSeconds(2026, 6, 15, 9, 30)])
            #expect(occurrences.allSatisfy { !$0.isFloating })
        }
    }

    @Test func floatingTimesAreReadInTheViewZone() throws {
        let text = ICS.calendar(ICS.event(["DTSTART:20260615T090000", "DTEND:20260615T100000", "RRULE:FREQ=DAILY;COUNT=2"]))
        #expect(try ICS.parse(text).events.first?.start == .floating(civil(2026, 6, 15, 9)))
        let inBerlin = try ICS.expandOnly(text, from: utcSeconds(2026, 6, 1), to: utcSeconds(2026, 7, 1), floating: berlin)
        let inNewYork = try ICS.expandOnly(text, from: utcSeconds(2026, 6, 1), to: utcSeconds(2026, 7, 1), floating: newYork)
        #expect(inBerlin.map(\.start) == [utcSeconds(2026, 6, 15, 7), utcSeconds(2026, 6, 16, 7)])
        #expect(inNewYork.map(\.start) == [utcSeconds(2026, 6, 15, 13), utcSeconds(2026, 6, 16, 13)])
        #expect(inBerlin.allSatisfy { $0.isFloating && $0.end - $0.start == 3600 })
        #expect(inNewYork.allSatisfy { $0.isFloating && $0.end - $0.start == 3600 })
        // The recurrence ID stays the wall-clock time, whatever the view.
        #expect(inBerlin.first?.recurrenceID == .floating(civil(2026, 6, 15, 9)))
    }

    // MARK: - DATE

    @Test func allDayDtendIsExclusive() throws {
        let text = ICS.calendar(ICS.event(["DTSTART;VALUE=DATE:20260615", "DTEND;VALUE=DATE:20260617"]))
        let event = try #require(try ICS.parse(text).events.first)
        #expect(event.isAllDay)
        #expect(event.durationDays == 2)
        #expect(event.durationSeconds == 0)
        let occurrences = try ICS.expandOnly(text, from: utcSeconds(2026, 6, 1), to: utcSeconds(2026, 7, 1), floating: berlin)
        try #require(occurrences.count == 1)
        let o = occurrences[0]
        #expect(o.isAllDay)
        #expect(o.startDate == day(2026, 6, 15))
        #expect(o.endDate == day(2026, 6, 17), "DTEND is exclusive: the event covers the 15th and 16th")
        #expect(o.start == utcSeconds(2026, 6, 14, 22)) // Berlin midnight
        #expect(o.end == utcSeconds(2026, 6, 16, 22))
        // Not in a window that starts at the exclusive end.
        let after = try ICS.expandOnly(text, from: utcSeconds(2026, 6, 16, 22), to: utcSeconds(2026, 6, 18), floating: berlin)
        #expect(after.isEmpty)
    }

    @Test func allDayWithoutDtendLastsOneDay() throws {
        let text = ICS.calendar(ICS.event(["DTSTART;VALUE=DATE:20261225"]))
        let event = try #require(try ICS.parse(text).events.first)
        #expect(event.durationDays == 1)
        let occurrences = try ICS.expandOnly(text, from: utcSeconds(2026, 12, 1), to: utcSeconds(2027, 1, 1), floating: newYork)
        try #require(occurrences.count == 1)
        #expect(occurrences[0].startDate == day(2026, 12, 25))
        #expect(occurrences[0].endDate == day(2026, 12, 26))
        #expect(occurrences[0].end - occurrences[0].start == 86_400)
    }

    @Test func timedWithoutDtendOrDurationHasZeroDuration() throws {
        let text = ICS.calendar(ICS.event(["DTSTART;TZID=Europe/Berlin:20260615T090000"]))
        let event = try #require(try ICS.parse(text).events.first)
        #expect(event.durationDays == 0)
        #expect(event.durationSeconds == 0)
        let occurrences = try ICS.expandOnly(text, from: utcSeconds(2026, 6, 1), to: utcSeconds(2026, 7, 1))
        #expect(occurrences.map(\.start) == [utcSeconds(2026, 6, 15, 7)])
        #expect(occurrences.map(\.end) == [utcSeconds(2026, 6, 15, 7)])
        // A zero-length occurrence belongs to the window holding its start: [from, to).
        #expect(try ICS.expandOnly(text, from: utcSeconds(2026, 6, 15, 7), to: utcSeconds(2026, 6, 15, 8)).count == 1)
        #expect(try ICS.expandOnly(text, from: utcSeconds(2026, 6, 15, 6), to: utcSeconds(2026, 6, 15, 7)).isEmpty)
    }

    // MARK: - DURATION

    @Test func exactDuration() throws {
        let text = ICS.calendar(ICS.event(["DTSTART;TZID=Europe/Berlin:20260615T090000", "DURATION:PT45M"]))
        let event = try #require(try ICS.parse(text).events.first)
        #expect(event.durationSeconds == 45 * 60)
        #expect(event.durationDays == 0)
        let occurrences = try ICS.expandOnly(text, from: utcSeconds(2026, 6, 1), to: utcSeconds(2026, 7, 1))
        #expect(occurrences.map(\.start) == [utcSeconds(2026, 6, 15, 7)])
        #expect(occurrences.map(\.end) == [utcSeconds(2026, 6, 15, 7, 45)])
    }

    @Test func nominalDayDurationAcrossSpringForward() throws {
        // 09:00 CET + P1D is 09:00 CEST the next day: 23 hours of real time.
        let text = ICS.calendar(ICS.event(["DTSTART;TZID=Europe/Berlin:20260328T090000", "DURATION:P1D"]))
        let event = try #require(try ICS.parse(text).events.first)
        #expect(event.durationDays == 1)
        #expect(event.durationSeconds == 0)
        let occurrences = try ICS.expandOnly(text, from: utcSeconds(2026, 3, 1), to: utcSeconds(2026, 4, 1))
        try #require(occurrences.count == 1)
        #expect(occurrences[0].start == utcSeconds(2026, 3, 28, 8))
        #expect(isoUTC(occurrences[0].end) == isoUTC(utcSeconds(2026, 3, 29, 7)))
        #expect(berlin.local(atUTC: occurrences[0].end) == civil(2026, 3, 29, 9))
    }

    @Test func nominalDayDurationAcrossFallBack() throws {
        let text = ICS.calendar(ICS.event(["DTSTART;TZID=Europe/Berlin:20261024T090000", "DURATION:P1DT1H"]))
        let occurrences = try ICS.expandOnly(text, from: utcSeconds(2026, 10, 1), to: utcSeconds(2026, 11, 1))
        try #require(occurrences.count == 1)
        #expect(occurrences[0].start == utcSeconds(2026, 10, 24, 7))
        // 10:00 CET on the 25th: 26 hours later.
        #expect(isoUTC(occurrences[0].end) == isoUTC(utcSeconds(2026, 10, 25, 9)))
    }

    @Test func exactHoursDurationAcrossSpringForwardIsNotNominal() throws {
        let text = ICS.calendar(ICS.event(["DTSTART;TZID=Europe/Berlin:20260328T090000", "DURATION:PT24H"]))
        let occurrences = try ICS.expandOnly(text, from: utcSeconds(2026, 3, 1), to: utcSeconds(2026, 4, 1))
        try #require(occurrences.count == 1)
        #expect(occurrences[0].end - occurrences[0].start == 86_400)
        #expect(berlin.local(atUTC: occurrences[0].end) == civil(2026, 3, 29, 10))
    }

    // MARK: - X-WR-TIMEZONE

    @Test func xwrTimezoneAppliesToFloatingTimes() throws {
        let text = ICS.calendar(ICS.event(["DTSTART:20260615T090000", "DTEND:20260615T100000"]),
                                header: ["X-WR-TIMEZONE:America/New_York"])
        let parsed = try ICS.parse(text)
        #expect(parsed.defaultTimeZone == "America/New_York")
        #expect(parsed.events.first?.start == .zoned(civil(2026, 6, 15, 9), zoneKey: "America/New_York"))
        // Whatever the view's zone, it is 09:00 New York time.
        for zone in [berlin, Zone.utc] {
            let occurrences = try ICS.expandOnly(text, from: utcSeconds(2026, 6, 1), to: utcSeconds(2026, 7, 1), floating: zone)
            #expect(occurrences.map(\.start) == [utcSeconds(2026, 6, 15, 13)])
            #expect(occurrences.allSatisfy { !$0.isFloating })
        }
    }

    @Test func xwrTimezoneDoesNotMoveUTCTimes() throws {
        let text = ICS.calendar(ICS.event(["DTSTART:20260615T090000Z", "DTEND:20260615T100000Z", "RRULE:FREQ=WEEKLY;COUNT=30"]),
                                header: ["X-WR-TIMEZONE:Europe/Berlin"])
        let parsed = try ICS.parse(text)
        #expect(parsed.events.first?.start == .utc(utcSeconds(2026, 6, 15, 9)))
        let occurrences = try ICS.expandOnly(text, from: utcSeconds(2026, 1, 1), to: utcSeconds(2027, 6, 1), floating: newYork)
        #expect(occurrences.count == 30)
        // A UTC weekly series stays at 09:00Z across Berlin's October change.
        #expect(occurrences.allSatisfy { CivilDateTime(secondsAsIfUTC: $0.start).hour == 9 })
    }

    @Test func xwrTimezoneDoesNotTouchTzidOrDates() throws {
        let text = ICS.calendar(
            ICS.event(["DTSTART;TZID=Asia/Seoul:20260615T090000"], uid: "a@x")
                + ICS.event(["DTSTART;VALUE=DATE:20260616"], uid: "b@x"),
            header: ["X-WR-TIMEZONE:America/New_York"])
        let parsed = try ICS.parse(text)
        #expect(parsed.events.map(\.start) == [.zoned(civil(2026, 6, 15, 9), zoneKey: "Asia/Seoul"), .date(day(2026, 6, 16))])
    }

    @Test func unknownXwrTimezoneWarnsAndLeavesFloating() throws {
        let text = ICS.calendar(ICS.event(["DTSTART:20260615T090000"]), header: ["X-WR-TIMEZONE:Nowhere/Special"])
        let parsed = try ICS.parse(text)
        #expect(parsed.events.first?.start == .floating(civil(2026, 6, 15, 9)))
        #expect(parsed.warnings.contains { $0.message.contains("Nowhere/Special") })
    }
}
