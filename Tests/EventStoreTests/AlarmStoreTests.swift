import Foundation
import Testing
@testable import EventStore
import TestSupport

/// `event.alarms` (schema 4) and `EventStore.alarms(uids:)`: stored at import, changed by
/// a re-import, the master's winning over an override's.
@Suite struct AlarmStoreTests {
    static func alarm(_ trigger: String) -> [String] {
        ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:R", "TRIGGER:\(trigger)", "END:VALARM"]
    }

    @Test func alarmsAreStoredAtImportAndFollowReimports() throws {
        let s = try ScratchStore()
        let master = StoreICS.event("series", extra: ["RRULE:FREQ=DAILY;COUNT=5"] + Self.alarm("-PT10M") + Self.alarm("-PT1H"))
        let override = ["UID:series", "DTSTAMP:20260101T000000Z", "RECURRENCE-ID:20260602T090000Z",
                        "DTSTART:20260602T110000Z", "DTEND:20260602T120000Z", "SUMMARY:moved"] + Self.alarm("-PT5M")
        let plain = StoreICS.event("plain", day: 3)
        try s.run(StoreICS.input("a.ics", StoreICS.calendar([master, override, plain])))
        #expect(try s.store.alarms(uids: ["series", "plain", "unknown"]) == ["series": [600, 3600]])

        let changed = StoreICS.event("series", extra: ["RRULE:FREQ=DAILY;COUNT=5"] + Self.alarm("-PT15M"))
        let plainWithAlarm = StoreICS.event("plain", day: 3, extra: Self.alarm("-P1D"))
        try s.run(StoreICS.input("a.ics", StoreICS.calendar([changed, plainWithAlarm])))
        #expect(try s.store.alarms(uids: ["series", "plain"]) == ["series": [900], "plain": [86_400]])
    }

    @Test func manyUIDsAreAskedInChunks() throws {
        let s = try ScratchStore()
        let events = (0..<1_200).map { StoreICS.event("e\($0)", day: $0 % 28 + 1, extra: Self.alarm("-PT\($0 % 50 + 1)M")) }
        try s.run(StoreICS.input("many.ics", StoreICS.calendar(events)))
        let alarms = try s.store.alarms(uids: (0..<1_200).map { "e\($0)" })
        #expect(alarms.count == 1_200)
        #expect(alarms["e1199"] == [Int64(1199 % 50 + 1) * 60])
    }
}
