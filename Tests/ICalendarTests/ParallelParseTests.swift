import Testing
import CalendarGenerator
@testable import ICalendar

/// Large files are parsed by two threads; the result must be exactly the serial one,
/// in file order.
@Suite struct ParallelParseTests {
    @Test func twoThreadsGiveTheSerialResult() throws {
        var bytes: [UInt8] = []
        CalendarGenerator(.init(events: 12_000, seed: 7)).write(into: &bytes)
        func parse(parallel: Bool) throws -> ParsedCalendar {
            var events: [EventRecord] = []
            var result = try CalendarParser.parse(bytes, batchSize: 256, parallel: parallel) { part in
                if case .events(let batch) = part { events.append(contentsOf: batch) }
            }
            result.events = events
            return result
        }
        let serial = try parse(parallel: false)
        let parallel = try parse(parallel: true)
        #expect(serial.events.count > CalendarParser.parallelThreshold)
        #expect(parallel.events.count == serial.events.count)
        #expect(parallel.events == serial.events)
        #expect(parallel.warnings == serial.warnings)
        #expect(parallel.skipped == serial.skipped)
        #expect(Set(parallel.timezones.keys) == Set(serial.timezones.keys))
    }
}
