import Testing
import CalendarGenerator
@testable import ICalendar

/// Large files are parsed by two threads, and checked for repairs while they are scanned
/// as they stand; the result (or the error) must be exactly the serial one, in file order.
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

    /// The parse of `bytes` in one mode, as comparable text: every event, the warnings,
    /// or the error.
    static func outcome(_ bytes: [UInt8], parallel: Bool) -> String {
        var events: [EventRecord] = []
        do {
            let result = try CalendarParser.parse(bytes, batchSize: 256, parallel: parallel) { part in
                if case .events(let batch) = part { events.append(contentsOf: batch) }
            }
            return "\(events.count) events \(events.map { "\($0.uid)|\($0.start)|\($0.text.hashValue)" }.hashValue) "
                + "warnings \(result.warnings) skipped \(result.skipped)"
        } catch {
            return "error line \(error.line): \(error.message)"
        }
    }

    @Test(arguments: ["clean", "LF line ends", "Windows-1252 byte", "blank lines before BEGIN", "truncated", "broken fold", "NUL byte", "NUL in a value"])
    func repairsCheckedWhileScanningGiveTheSerialResult(damage: String) throws {
        var bytes: [UInt8] = []
        CalendarGenerator(.init(events: 5_000, seed: 11)).write(into: &bytes)
        #expect(bytes.count >= CalendarParser.concurrentRepairBytes)
        let text = String(decoding: bytes, as: UTF8.self)
        let middle = text.range(of: "SUMMARY:", range: text.index(text.startIndex, offsetBy: text.count / 2)..<text.endIndex)!
        switch damage {
        case "LF line ends": bytes = Array(text.replacingOccurrences(of: "\r\n", with: "\n").utf8)
        case "Windows-1252 byte":
            bytes = Array(text[..<middle.upperBound].utf8) + [0xE9] + Array(text[middle.upperBound...].utf8)
        case "blank lines before BEGIN": bytes = Array("\r\n  \r\n".utf8) + bytes
        case "truncated": bytes = Array(bytes.dropLast(40))
        case "broken fold":
            bytes = Array((text[..<middle.upperBound] + "cut\r\nshort" + text[middle.upperBound...]).utf8)
        case "NUL byte": bytes = Array(text[..<middle.lowerBound].utf8) + [0] + Array(text[middle.lowerBound...].utf8)
        case "NUL in a value": bytes = Array(text[..<middle.upperBound].utf8) + [0] + Array(text[middle.upperBound...].utf8)
        default: break
        }
        let serial = Self.outcome(bytes, parallel: false)
        #expect(Self.outcome(bytes, parallel: true) == serial)
        // Each damage does what it says: repaired with a warning, or rejected.
        switch damage {
        case "clean": #expect(serial.contains("warnings []"))
        case "truncated", "NUL byte": #expect(serial.hasPrefix("error"))
        default: #expect(serial.contains("events") && !serial.contains("warnings []"), "\(serial.prefix(300))")
        }
    }
}
