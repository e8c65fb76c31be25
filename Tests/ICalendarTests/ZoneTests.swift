import Testing
@testable import ICalendar

/// DST edges: RFC 5545 reads a nonexistent local time with the offset before the gap,
/// and an ambiguous one as its first occurrence.
@Suite struct ZoneTests {
    func utc(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ mi: Int = 0) -> Int64 {
        CivilDateTime(date: CivilDate(year: y, month: m, day: d), hour: h, minute: mi).secondsAsIfUTC
    }
    func local(_ y: Int, _ m: Int, _ d: Int, _ h: Int, _ mi: Int = 0) -> CivilDateTime {
        CivilDateTime(date: CivilDate(year: y, month: m, day: d), hour: h, minute: mi)
    }

    @Test func berlinOrdinaryTimes() throws {
        let berlin = try #require(Zone.system("Europe/Berlin"))
        #expect(berlin.instant(forLocal: local(2026, 7, 1, 9)) == utc(2026, 7, 1, 7))
        #expect(berlin.instant(forLocal: local(2026, 12, 1, 9)) == utc(2026, 12, 1, 8))
        #expect(berlin.instant(forLocal: local(2040, 7, 1, 9)) == utc(2040, 7, 1, 7))
    }

    @Test func berlinGapUsesOffsetBeforeGap() throws {
        let berlin = try #require(Zone.system("Europe/Berlin"))
        // 2026-03-29 02:30 does not exist; read with +01:00 -> 01:30Z (= 03:30 CEST).
        #expect(berlin.instant(forLocal: local(2026, 3, 29, 2, 30)) == utc(2026, 3, 29, 1, 30))
    }

    @Test func berlinOverlapIsFirstOccurrence() throws {
        let berlin = try #require(Zone.system("Europe/Berlin"))
        // 2026-10-25 02:30 happens twice; the first is CEST (+02:00) -> 00:30Z.
        #expect(berlin.instant(forLocal: local(2026, 10, 25, 2, 30)) == utc(2026, 10, 25, 0, 30))
    }

    @Test func newYorkGapAndOverlap() throws {
        let ny = try #require(Zone.system("America/New_York"))
        // 2026-03-08 02:30 is in the gap: -05:00 -> 07:30Z.
        #expect(ny.instant(forLocal: local(2026, 3, 8, 2, 30)) == utc(2026, 3, 8, 7, 30))
        // 2026-11-01 01:30 is ambiguous: first is EDT (-04:00) -> 05:30Z.
        #expect(ny.instant(forLocal: local(2026, 11, 1, 1, 30)) == utc(2026, 11, 1, 5, 30))
    }

    @Test func seoulHasNoDST() throws {
        let seoul = try #require(Zone.system("Asia/Seoul"))
        #expect(seoul.offset(atUTC: utc(2026, 1, 1, 0)) == 9 * 3600)
        #expect(seoul.offset(atUTC: utc(2026, 7, 1, 0)) == 9 * 3600)
    }

    @Test func sydneySouthernDST() throws {
        let sydney = try #require(Zone.system("Australia/Sydney"))
        #expect(sydney.offset(atUTC: utc(2026, 1, 15, 0)) == 11 * 3600) // summer, AEDT
        #expect(sydney.offset(atUTC: utc(2026, 7, 15, 0)) == 10 * 3600) // winter, AEST
        // 2026-10-04 02:30 is in the gap (clocks go 02:00 -> 03:00): +10:00 -> 16:30Z the day before.
        #expect(sydney.instant(forLocal: local(2026, 10, 4, 2, 30)) == utc(2026, 10, 3, 16, 30))
        // 2026-04-05 02:30 is ambiguous: first is AEDT (+11:00) -> 15:30Z the day before.
        #expect(sydney.instant(forLocal: local(2026, 4, 5, 2, 30)) == utc(2026, 4, 4, 15, 30))
    }

    @Test func unknownAndPrefixedNames() {
        #expect(Zone.system("Mars/Olympus_Mons") == nil)
        #expect(Zone.system("../../etc/passwd") == nil)
        #expect(Zone.system("/freeassociation.sourceforge.net/Europe/Berlin")?.identifier == "Europe/Berlin")
        #expect(Zone.system("/mozilla.org/20050126_1/America/New_York")?.identifier == "America/New_York")
        // Plain and prefixed names of a zone share one object, whichever is asked first
        // (the plain name's fast path reads the cache the prefixed ones fill).
        let prefixed = Zone.system("/mozilla.org/20050126_1/Asia/Kolkata")
        #expect(prefixed != nil && prefixed === Zone.system("Asia/Kolkata"))
        #expect(Zone.system("Asia/Kolkata") === Zone.system("/freeassociation.sourceforge.net/Asia/Kolkata"))
        #expect(Zone.system("Etc/UTC") === Zone.utc)
        #expect(Zone.system("Mars/Olympus_Mons") == nil, "a name that failed once fails again")
    }

    @Test func localRoundTrip() throws {
        let ny = try #require(Zone.system("America/New_York"))
        let t = utc(2026, 11, 29, 15)
        #expect(ny.local(atUTC: t) == local(2026, 11, 29, 10))
    }

    /// `instant(forLocal:)` by its definition from `offset(atUTC:)`: one offset when it
    /// holds a day either side, otherwise the RFC 5545 gap and overlap rules.
    static func reference(_ zone: Zone, _ local: CivilDateTime) -> Int64 {
        let l = local.secondsAsIfUTC
        let before = zone.offset(atUTC: l - 86_400), after = zone.offset(atUTC: l + 86_400)
        let beforeValid = zone.offset(atUTC: l - Int64(before)) == before
        let afterValid = before != after && zone.offset(atUTC: l - Int64(after)) == after
        switch (beforeValid, afterValid) {
        case (true, true): return min(l - Int64(before), l - Int64(after))
        case (false, true): return l - Int64(after)
        default: return l - Int64(before)
        }
    }

    /// Every local time of two years, 53 minutes apart, gives the definition's instant,
    /// whether its offsets come from the memo of UTC days (the second pass) or libical.
    @Test(arguments: ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata"])
    func memoisedInstantsFollowTheDefinition(name: String) throws {
        let zone = try #require(Zone.system(name))
        let start = utc(2026, 1, 1, 0)
        for pass in 0..<2 {
            var t = start
            while t < start + 2 * 366 * 86_400 {
                let local = CivilDateTime(secondsAsIfUTC: t)
                let got = zone.instant(forLocal: local)
                let want = Self.reference(zone, local)
                if got != want { Issue.record("\(name) \(local) pass \(pass): \(got) != \(want)"); return }
                t += 53 * 60
            }
        }
    }
}
