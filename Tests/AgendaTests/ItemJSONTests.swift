import Testing
@testable import Agenda
import CanonicalJSON
import TestSupport

/// Items hold their JSON compact (member names as one byte each, a series' common
/// values once in a template) and give it out whole.
@Suite struct ItemJSONTests {
    @Test func anItemIsWrittenOutInFullFromItsBlock() throws {
        let summary = #"Review ,"summary":"x" and "kind":"event"}"#
        let s = try ScratchStore(loading: [ICS.event("tricky@x", "DTSTART:20261129T150000Z", "DTEND:20261129T160000Z",
                                                     "SUMMARY:" + summary, "LOCATION:{\"id\":1}")])
        let item = try #require(try s.build(Fixture.view()).allItems.first)
        let full = item.json
        #expect(item.jsonCount == full.count)
        // The JSON as written directly: canonical, its dates from the block's fields.
        #expect(try JSONValue.parse(full).canonicalBytes() == full)
        #expect(item.value["start"]?.stringValue == "2026-11-29T16:00:00+01:00")
        #expect(item.value["end"]?.stringValue == "2026-11-29T17:00:00+01:00")
        // The values stay where the id and summary ranges say, in the block's bytes
        // (the escaped summary as its own bytes).
        #expect(item.value["id"]?.stringValue == item.id)
        #expect(item.value["summary"]?.stringValue == summary)
        #expect(item.withSummaryBytes { Array($0) } == Array(summary.utf8))
        #expect(item.value["location"]?.stringValue == "{\"id\":1}")
        var appended: [UInt8] = [0x5b]
        item.appendJSON(to: &appended)
        #expect(appended == [0x5b] + full)
    }

    /// A recurring event's occurrences are one block with one template: each item
    /// written out from it is the JSON written for it alone.
    @Test func occurrencesOfASeriesShareOneTemplate() throws {
        let s = try ScratchStore(loading: [
            ICS.berlin("daily@x", "20261128T090000", "20261128T100000", summary: "Stand-up", "RRULE:FREQ=DAILY;COUNT=10",
                       "LOCATION:Room 4", "DESCRIPTION:Every day\\, briefly"),
            ICS.berlin("daily@x", "20261201T110000", "20261201T120000", summary: "Moved stand-up",
                       "RECURRENCE-ID;TZID=Europe/Berlin:20261201T090000"),
            ICS.allDay("trip@x", "20261129", "20261202", summary: "Trip"),
        ])
        let items = try s.build(Fixture.view(days: 14)).allItems
        let daily = items.filter { $0.value["uid"]?.stringValue == "daily@x" }
        #expect(daily.count == 10)
        #expect(Set(daily.map(\.identity)).count == 1)
        #expect(daily[0].block.header.templateCount == 2)
        let moved = try #require(daily.first { $0.value["summary"]?.stringValue == "Moved stand-up" })
        #expect(moved.value["start"]?.stringValue == "2026-12-01T11:00:00+01:00")
        #expect(moved.value["recurrence_id"]?.stringValue == "20261201T080000Z")
        let trip = items.filter { $0.value["uid"]?.stringValue == "trip@x" }
        #expect(trip.map { $0.value["start"]?.stringValue } == Array(repeating: "2026-11-29", count: 3))
        #expect(trip.map { $0.value["continues_to_next_day"] } == [.bool(true), .bool(true), .bool(false)])
        for item in items {
            #expect(try JSONValue.parse(item.json).canonicalBytes() == item.json)
            #expect(item.jsonCount == item.json.count)
        }
    }

    /// An occurrence keeps as bytes only its id's 16 bytes: its continuation flags, and a
    /// `recurrence_id` that is its start, are written from its slot; anything else (a
    /// moved instance's `recurrence_id`, a placeholder's id) stays as it was written.
    @Test func ownValuesAreWrittenFromTheSlotWhereTheyGiveTheSameBytes() throws {
        let s = try ScratchStore(loading: [
            ICS.berlin("daily@x", "20261128T090000", "20261128T100000", summary: "Stand-up", "RRULE:FREQ=DAILY;COUNT=10"),
            ICS.berlin("daily@x", "20261201T110000", "20261201T120000", summary: "Moved stand-up",
                       "RECURRENCE-ID;TZID=Europe/Berlin:20261201T090000"),
            ICS.allDay("weekly@x", "20261129", "20261201", summary: "Off", "RRULE:FREQ=WEEKLY;COUNT=2"),
        ])
        let snapshot = try s.build(Fixture.view(days: 14, emptyDays: .placeholder))
        let items = snapshot.allItems
        func slot(_ item: AgendaItem) -> AgendaItem.Slot { item.block.slot(item.index) }
        #expect(MemoryLayout<AgendaItem.Slot>.stride == 48)
        for item in items {
            let value = item.value
            #expect(try JSONValue.parse(item.json).canonicalBytes() == item.json)
            #expect(item.withIDBytes { String(decoding: $0, as: UTF8.self) } == value["id"]?.stringValue)
            let kept = value["kind"]?.stringValue == "event"
            #expect((slot(item).flags & ItemJSON.Dates.rawID != 0) == kept)
            guard kept else { continue }
            let moved = value["summary"]?.stringValue == "Moved stand-up"
            // The id's bytes alone, or with the moved instance's "20261201T080000Z".
            #expect(slot(item).ownCount == (moved ? 16 + 18 : 16))
        }
        let weekly = items.filter { $0.value["uid"]?.stringValue == "weekly@x" }
        #expect(weekly.map { $0.value["recurrence_id"]?.stringValue } == ["20261129", "20261129", "20261206", "20261206"])
        #expect(weekly.map { $0.value["continues_from_previous_day"] } == [.bool(false), .bool(true), .bool(false), .bool(true)])
        #expect(items.contains { $0.value["kind"]?.stringValue == "placeholder" })

        let hex = Array(#""00ff10a9b8c7d6e5f4031221304f5e6d""#.utf8)
        let raw = try #require(ItemJSON.rawHex(hex[...]))
        let written = [UInt8](unsafeUninitializedCapacity: 34) { $1 = ItemJSON.writeHex(raw, to: $0.baseAddress!) }
        #expect(written == hex)
        #expect(ItemJSON.rawHex(Array(#""00FF10a9b8c7d6e5f4031221304f5e6d""#.utf8)[...]) == nil)
        #expect(ItemJSON.rawHex(Array(#""00ff""#.utf8)[...]) == nil)
        let timed = ItemJSON.Dates(start: 1_795_942_800, end: 0, startField: 3600, endField: 0, allDay: false)
        let allDay = ItemJSON.Dates(start: 0, end: 0, startField: 20_000, endField: 0, allDay: true)
        #expect(timed.writesRecurrenceID(Array(#""20261129T090000Z""#.utf8)[...]))
        #expect(allDay.writesRecurrenceID(Array(#""20241004""#.utf8)[...]))
        #expect(!allDay.writesRecurrenceID(Array("null".utf8)[...]))
    }

    @Test func datesAreWrittenFromTheirFieldsOnlyWhereTheyGiveTheSameBytes() {
        func written(_ dates: ItemJSON.Dates, end: Bool = false) -> String {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
                String(decoding: buffer[..<dates.write(end: end, to: buffer.baseAddress!)], as: UTF8.self)
            }
        }
        #expect(written(.init(start: 0, end: 0, startField: 0, endField: 20_000, allDay: true)) == #""1970-01-01""#)
        #expect(written(.init(start: 0, end: 0, startField: 0, endField: 20_000, allDay: true), end: true) == #""2024-10-04""#)
        #expect(written(.init(start: -1, end: 0, startField: 3600, endField: 0, allDay: false)) == #""1970-01-01T00:59:59+01:00""#)
        #expect(written(.init(start: 0, end: 0, startField: -34_200, endField: 0, allDay: false)) == #""1969-12-31T14:30:00-09:30""#)
        // A year past 9999: not written from the fields (the item keeps the string).
        #expect(written(.init(start: 0, end: 0, startField: 3_000_000, endField: 0, allDay: true)) == "")
        let dates = ItemJSON.Dates(start: 0, end: 0, startField: 0, endField: 0, allDay: false)
        #expect(dates.writes(Array(#""1970-01-01T00:00:00+00:00""#.utf8)[...], end: false))
        #expect(!dates.writes(Array(#""1970-01-01T00:00:00Z""#.utf8)[...], end: false))
    }

    @Test func rangesMoveWithTheNamesBeforeThem() {
        let text = #"{"calendar":"c","id":"abc","summary":"Hi","x":1}"#
        let json = Array(text.utf8)
        func range(of value: String) -> Range<Int> {
            let r = text.range(of: "\"\(value)\"")!
            let start = text.utf8.distance(from: text.startIndex, to: r.lowerBound) + 1
            return start..<(start + value.utf8.count)
        }
        let id = range(of: "abc"), summary = range(of: "Hi")
        #expect(String(decoding: json[id], as: UTF8.self) == "abc")
        #expect(String(decoding: json[summary], as: UTF8.self) == "Hi")
        let compact = ItemJSON.compact(json, ranges: [id, summary, 0..<0])
        #expect(String(decoding: compact.bytes[compact.ranges[0]], as: UTF8.self) == "abc")
        #expect(String(decoding: compact.bytes[compact.ranges[1]], as: UTF8.self) == "Hi")
        #expect(compact.ranges[2] == 0..<0)
        #expect(compact.fullCount == json.count)
        #expect(ItemJSON.expand(compact.bytes) == json)
        // A name not in the list, or one that is not a member's, stays as it is.
        #expect(compact.bytes.contains(UInt8(ascii: "x")))
        // A value is kept as a byte only when it is the whole value of a known name.
        let partial = Array(#"{"kind":"eventful","all_day":falsey,"id":null}"#.utf8)
        let kept = ItemJSON.compact(partial, ranges: [])
        #expect(kept.bytes.count == partial.count - (#""kind":"#.count - 1) - (#""all_day":"#.count - 1)
            - (#""id":"#.count - 1) - ("null".count - 1))
        #expect(ItemJSON.expand(kept.bytes) == partial)
    }

    @Test func jsonWithoutKnownNamesIsItsOwnCompactForm() {
        let json = Array(#"{"other":"\"id\":","list":[1,2],"x":false}"#.utf8)
        let compact = ItemJSON.compact(json, ranges: [])
        #expect(compact.bytes == json)
        #expect(ItemJSON.expand(json) == json)
    }
}
