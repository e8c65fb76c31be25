import CalendarGenerator
import Foundation
import Testing
import TestSupport

// MARK: - Parsing helpers

/// One unfolded content line, split into name, parameters and value (the generator never
/// quotes parameter values, so a simple split is enough).
struct Property {
    var name: String
    var parameters: [String: String]
    var value: String

    init(_ line: String) {
        let colon = line.firstIndex(of: ":")!
        let head = line[..<colon].split(separator: ";").map(String.init)
        name = head[0]
        parameters = [:]
        for parameter in head.dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1).map(String.init)
            parameters[parts[0]] = parts[1]
        }
        value = String(line[line.index(after: colon)...])
    }
}

/// A VEVENT as a list of properties.
struct Event {
    var properties: [Property]

    func first(_ name: String) -> Property? { properties.first { $0.name == name } }
    func all(_ name: String) -> [Property] { properties.filter { $0.name == name } }
    var uid: String { first("UID")!.value }
    var isOverride: Bool { first("RECURRENCE-ID") != nil }
}

/// Splits bytes into physical lines at CRLF; returns nil if any CR or LF is bare.
func physicalLines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>]? {
    var lines: [ArraySlice<UInt8>] = []
    var start = 0
    var index = 0
    while index < bytes.count {
        switch bytes[index] {
        case 13:
            guard index + 1 < bytes.count, bytes[index + 1] == 10 else { return nil }
            lines.append(bytes[start..<index])
            index += 2
            start = index
        case 10:
            return nil
        default:
            index += 1
        }
    }
    return start == bytes.count ? lines : nil
}

/// Unfolds the text into logical content lines.
func logicalLines(_ bytes: [UInt8]) -> [String] {
    var result: [String] = []
    for line in physicalLines(bytes)! {
        let text = String(decoding: line, as: UTF8.self)
        if text.hasPrefix(" ") {
            result[result.count - 1] += text.dropFirst()
        } else {
            result.append(text)
        }
    }
    return result
}

/// All VEVENTs of a calendar, in order.
func events(_ bytes: [UInt8]) -> [Event] {
    var result: [Event] = []
    var current: [Property]?
    for line in logicalLines(bytes) {
        if line == "BEGIN:VEVENT" {
            current = []
        } else if line == "END:VEVENT" {
            result.append(Event(properties: current!))
            current = nil
        } else if current != nil {
            current!.append(Property(line))
        }
    }
    return result
}

/// Minutes since 1970 of `YYYYMMDD` or `YYYYMMDDTHHMMSS[Z]` (in the value's own time base).
func minutes(_ value: String) -> Int {
    let digits = Array(value.utf8).filter { $0 >= 48 && $0 <= 57 }.map { Int($0) - 48 }
    func number(_ range: Range<Int>) -> Int { range.reduce(0) { $0 * 10 + digits[$1] } }
    let day = GeneratorDate(year: number(0..<4), month: number(4..<6), day: number(6..<8))
        .daysSinceEpoch
    return day * 1_440 + (digits.count >= 12 ? number(8..<10) * 60 + number(10..<12) : 0)
}

/// Minutes of a DURATION value such as `PT1H30M` or `P2D`.
func durationMinutes(_ value: String) -> Int {
    var total = 0
    var number = 0
    for character in value {
        if let digit = character.wholeNumberValue {
            number = number * 10 + digit
            continue
        }
        switch character {
        case "D": total += number * 1_440
        case "H": total += number * 60
        case "M": total += number
        default: break
        }
        number = 0
    }
    return total
}

func bytes(events: Int, seed: UInt64 = 42) -> [UInt8] {
    var bytes: [UInt8] = []
    CalendarGenerator(.init(events: events, seed: seed)).write(into: &bytes)
    return bytes
}

