import Testing
@testable import Agenda
import CanonicalJSON
import TestSupport

/// Items hold their JSON compact (member names as one byte each) and give it out whole.
@Suite struct ItemJSONTests {
    @Test func namesAreKeptAsOneByteAndWrittenOutInFull() throws {
        let summary = #"Review ,"summary":"x" and "kind":"event"}"#
        let s = try ScratchStore(loading: [ICS.event("tricky@x", "DTSTART:20261129T150000Z", "DTEND:20261129T160000Z",
                                                     "SUMMARY:" + summary, "LOCATION:{\"id\":1}")])
        let item = try #require(try s.build(Fixture.view()).allItems.first)
        let full = item.json
        #expect(item.jsonCount == full.count)
        // Every name, and the values of all_day, the two continues, kind, recurrence_id
        // and status.
        let values = 3 * ("false".count - 1) + ("\"event\"".count - 1) + 2 * ("null".count - 1)
        #expect(item.compactJSON.count == full.count - ItemJSON.names.reduce(0) { $0 + $1.count - 1 } - values)
        #expect(ItemJSON.expand(item.compactJSON) == full)
        // The values stay where the id and summary ranges say, in the compact bytes.
        #expect(item.value["id"]?.stringValue == item.id)
        #expect(item.value["summary"]?.stringValue == summary)
        #expect(item.value["location"]?.stringValue == "{\"id\":1}")
        var appended: [UInt8] = [0x5b]
        item.appendJSON(to: &appended)
        #expect(appended == [0x5b] + full)
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
