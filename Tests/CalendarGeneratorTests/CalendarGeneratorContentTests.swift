import CalendarGenerator
import Foundation
import Testing
import TestSupport

// MARK: - Content

/// The shape of a master as read back from the text.
private enum Shape: Hashable {
    case zoned, utc, floating, allDay, multiDay, zeroDuration, crossZone, offHours
}

private func shape(of event: Event) -> Shape {
    let start = event.first("DTSTART")!
    let end = event.first("DTEND")
    let duration = event.first("DURATION").map { durationMinutes($0.value) }
    let startMinutes = minutes(start.value)
    if start.parameters["VALUE"] == "DATE" {
        let length = end.map { minutes($0.value) - startMinutes } ?? duration ?? 1_440
        return length == 1_440 ? .allDay : .multiDay
    }
    guard end != nil || duration != nil else { return .zeroDuration }
    if let end, end.parameters["TZID"] != start.parameters["TZID"] { return .crossZone }
    let endMinutes = end.map { minutes($0.value) } ?? startMinutes + duration!
    if (endMinutes - 1) / 1_440 > startMinutes / 1_440 { return .multiDay }
    let minuteOfDay = startMinutes % 1_440
    let business = (7 * 60...20 * 60).contains(minuteOfDay) && minuteOfDay % 15 == 0
    if start.value.hasSuffix("Z") { return .utc }
    if start.parameters["TZID"] == nil { return .floating }
    return business ? .zoned : .offHours
}

@Suite struct CalendarGeneratorContentTests {

    @Test func mixMatchesTheDocumentedShares() throws {
        let all = events(bytes(events: 10_000))
        let masters = all.filter { !$0.isOverride }
        var counts: [Shape: Int] = [:]
        for event in masters {
            counts[shape(of: event), default: 0] += 1
        }
        func percent(_ count: Int) -> Double { Double(count) / Double(masters.count) * 100 }
        let expected: [Shape: Double] = [.zoned: 55, .utc: 10, .floating: 5, .allDay: 15,
                                         .multiDay: 3, .zeroDuration: 4, .crossZone: 3,
                                         .offHours: 5]
        for (shape, share) in expected {
            let actual = percent(counts[shape, default: 0])
            #expect(abs(actual - share) <= (share >= 10 ? 1.5 : 1.0), "\(shape): \(actual) %")
        }

        let recurring = masters.filter { $0.first("RRULE") != nil }
        #expect(abs(percent(recurring.count) - 15) <= 1.5)
        let rules = recurring.map { $0.first("RRULE")!.value }
        for part in ["FREQ=DAILY", "FREQ=WEEKLY", "BYDAY=", "BYMONTHDAY=", "FREQ=YEARLY",
                     "INTERVAL=2", "COUNT=", "UNTIL="] {
            #expect(rules.contains { $0.contains(part) }, "no rule with \(part)")
        }
        #expect(rules.contains { $0.range(of: "FREQ=MONTHLY;BYDAY=-?[1-4][A-Z]{2}",
                                           options: .regularExpression) != nil })
        for event in recurring {
            // RFC 5545 §3.3.10: UNTIL matches DTSTART's value type.
            let start = event.first("DTSTART")!
            let rule = event.first("RRULE")!.value
            guard let range = rule.range(of: "UNTIL=[0-9TZ]+", options: .regularExpression)
            else { continue }
            let until = rule[range].dropFirst(6)
            if start.parameters["VALUE"] == "DATE" {
                #expect(until.count == 8)
            } else if start.parameters["TZID"] != nil || start.value.hasSuffix("Z") {
                #expect(until.count == 16 && until.hasSuffix("Z"))
            } else {
                #expect(until.count == 15 && !until.hasSuffix("Z"))
            }
        }
        let limited = rules.filter { $0.contains("COUNT=") || $0.contains("UNTIL=") }.count
        let openShare: Double = Double(rules.count - limited) / Double(rules.count)
        #expect(abs(openShare - 0.10) < 0.04)

        let withOverrides = Set(all.filter(\.isOverride).map(\.uid))
        let overrideShare: Double = Double(withOverrides.count) / Double(recurring.count)
        #expect(abs(overrideShare - 0.2) < 0.05)
        let tentative = masters.filter { $0.first("STATUS")?.value == "TENTATIVE" }.count
        #expect(abs(percent(tentative) - 3) < 1)
        let durations = masters.filter { $0.first("DURATION") != nil }.count
        #expect(percent(durations) > 5 && percent(durations) < 20)
        #expect(masters.contains { $0.first("DTSTART")?.parameters["VALUE"] == "DATE"
                                   && $0.first("DTEND") == nil && $0.first("DURATION") == nil })
        #expect(percent(masters.filter { $0.first("SEQUENCE") != nil }.count) > 10)
        #expect(percent(masters.filter { $0.first("LOCATION") != nil }.count) > 20)
        #expect(percent(masters.filter { $0.first("DESCRIPTION") != nil }.count) > 20)
    }

    @Test func textValuesAreEscapedAndInternational() {
        let all = events(bytes(events: 3_000))
        let summaries = all.map { $0.first("SUMMARY")!.value }
        for word in ["Café", "Zürich", "東京", "\\,", "\\;", "\\\\"] {
            #expect(summaries.contains { $0.contains(word) }, "no summary with \(word)")
        }
        #expect(all.contains { $0.first("DESCRIPTION")?.value.contains("\\n") == true })
        for event in all {
            for property in event.properties where ["SUMMARY", "LOCATION", "DESCRIPTION"]
                .contains(property.name) {
                // Every backslash starts an escape; no raw ";" or "," remain.
                var escaped = false
                for character in property.value {
                    if escaped {
                        #expect("\\;,nN".contains(character))
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else {
                        #expect(character != ";" && character != ",")
                    }
                }
                #expect(!escaped)
            }
        }
    }

    @Test func exceptionsAndOverridesNameRealInstances() throws {
        let all = events(bytes(events: 10_000))
        let masters = Dictionary(uniqueKeysWithValues: all.filter { !$0.isOverride }.map { ($0.uid, $0) })
        var checked = 0
        var cancelled = 0
        for event in all {
            let values = event.isOverride
                ? [event.first("RECURRENCE-ID")!]
                : event.all("EXDATE")
            guard !values.isEmpty else { continue }
            let master = try #require(masters[event.uid])
            let start = master.first("DTSTART")!
            let rule = master.first("RRULE")!.value
            #expect(!rule.contains("BYDAY") && !rule.contains("MONTHLY") && !rule.contains("YEARLY"))
            let interval = rule.range(of: "INTERVAL=2") != nil ? 2 : 1
            let step = (rule.contains("FREQ=WEEKLY") ? 7 : 1) * interval * 1_440
            let count = rule.range(of: "COUNT=[0-9]+", options: .regularExpression)
                .map { Int(rule[$0].dropFirst(6))! }
            let until = rule.range(of: "UNTIL=[0-9TZ]+", options: .regularExpression)
                .map { String(rule[$0].dropFirst(6)) }
            for property in values {
                #expect(property.parameters == start.parameters)
                for value in property.value.split(separator: ",").map(String.init) {
                    #expect(value.count == start.value.count && value.hasSuffix("Z") == start.value.hasSuffix("Z"))
                    let offset = minutes(value) - minutes(start.value)
                    #expect(offset > 0 && offset % step == 0)
                    if let count { #expect(offset / step < count) }
                    if let until { #expect(minutes(value) <= minutes(until)) }
                    checked += 1
                }
            }
            if event.isOverride {
                #expect(event.first("SUMMARY")!.value != master.first("SUMMARY")!.value)
                if event.first("STATUS")?.value == "CANCELLED" { cancelled += 1 }
            }
        }
        #expect(checked > 500)
        #expect(cancelled > 0)
    }

    @Test(arguments: [(GeneratorDate(year: 2025, month: 1, day: 1), 1_095),
                      (GeneratorDate(year: 2030, month: 6, day: 15), 10)])
    func startsSpreadOverTheSpan(firstDate: GeneratorDate, spanDays: Int) {
        var output: [UInt8] = []
        let generator = CalendarGenerator(.init(events: 6_000, firstDate: firstDate, spanDays: spanDays))
        generator.write(into: &output)
        let first = firstDate.daysSinceEpoch
        var buckets = [Int](repeating: 0, count: 3)
        for event in events(output) where !event.isOverride {
            let day = minutes(event.first("DTSTART")!.value) / 1_440
            #expect(day >= first && day < first + spanDays)
            buckets[min(2, (day - first) * 3 / spanDays)] += 1
        }
        if spanDays > 300 {
            for bucket in buckets {
                #expect(abs(Double(bucket) / 6_000 - 1.0 / 3) < 0.03)
            }
        }
    }
}

