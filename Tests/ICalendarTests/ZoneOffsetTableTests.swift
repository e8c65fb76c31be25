import Testing
@testable import ICalendar

/// The fixed table of offsets by day that a zone fills as it is used.
@Suite struct ZoneOffsetTableTests {
    @Test func aDayIsRememberedUntilAnotherDayTakesItsSlot() {
        var table = ZoneOffsetTable()
        #expect(table.offset(onDay: 20_000) == nil)
        table.remember(3600, onDay: 20_000)
        table.remember(-18_000, onDay: -20_000)
        #expect(table.offset(onDay: 20_000) == 3600)
        #expect(table.offset(onDay: -20_000) == -18_000)
        // The day 4,096 later shares the slot: it replaces the first, never answers for it.
        #expect(table.offset(onDay: 20_000 + Int64(ZoneOffsetTable.slots)) == nil)
        table.remember(7200, onDay: 20_000 + Int64(ZoneOffsetTable.slots))
        #expect(table.offset(onDay: 20_000) == nil)
        #expect(table.offset(onDay: 20_000 + Int64(ZoneOffsetTable.slots)) == 7200)
    }

    @Test func daysBeyondThe32BitRangeAreNeverRemembered() {
        var table = ZoneOffsetTable()
        let far = Int64(Int32.max) + 1
        table.remember(3600, onDay: far)
        #expect(table.offset(onDay: far) == nil)
        table.remember(3600, onDay: Int64(Int32.min))
        #expect(table.offset(onDay: Int64(Int32.min)) == nil)
    }

    @Test func aZoneLoadedOnItsOwnThreadAnswersForEveryYearItCovers() throws {
        let zone = try #require(Zone.system("Australia/Sydney"))
        // 2020-01-15 (daylight time, +11:00) and 2036-07-15 (standard, +10:00): both
        // within the change table extended when the zone was loaded.
        #expect(zone.offset(atUTC: 1_579_046_400) == 39_600)
        #expect(zone.offset(atUTC: 2_099_779_200) == 36_000)
        #expect(Zone.system("Australia/Sydney") === zone)
    }
}
