import CalendarGenerator
import Foundation
import Testing
import TestSupport

// MARK: - Building blocks

@Suite struct CalendarGeneratorBuildingBlockTests {

    @Test func splitMix64MatchesReferenceOutput() {
        var rng = SplitMix64(seed: 1_234_567)
        #expect(rng.next() == 6_457_827_717_110_365_317)
        #expect(rng.next() == 3_203_168_211_198_807_973)
        #expect(rng.next() == 9_817_491_932_198_370_423)
    }

    @Test func boundedValuesStayInRange() {
        var rng = SplitMix64(seed: 7)
        var seen = Set<Int>()
        for _ in 0..<10_000 {
            let value = rng.next(below: 10)
            #expect((0..<10).contains(value))
            seen.insert(value)
            #expect((3...5).contains(rng.next(in: 3...5)))
        }
        #expect(seen.count == 10)
    }

    @Test func civilDateArithmetic() {
        #expect(GeneratorDate(year: 1970, month: 1, day: 1).daysSinceEpoch == 0)
        #expect(GeneratorDate(year: 1970, month: 1, day: 1).weekday == 4) // Thursday
        #expect(GeneratorDate(year: 1969, month: 12, day: 31).daysSinceEpoch == -1)
        #expect(GeneratorDate(year: 2025, month: 1, day: 1).daysSinceEpoch == 20_089)
        #expect(GeneratorDate(year: 2025, month: 1, day: 1).weekday == 3) // Wednesday
        #expect(GeneratorDate(year: 2024, month: 2, day: 28).adding(days: 1)
                == GeneratorDate(year: 2024, month: 2, day: 29))
        #expect(GeneratorDate(year: 2100, month: 2, day: 28).adding(days: 1)
                == GeneratorDate(year: 2100, month: 3, day: 1))
        #expect(GeneratorDate(year: 2025, month: 3, day: 9).description == "2025-03-09")
        for day in stride(from: -800_000, through: 800_000, by: 997) {
            let date = GeneratorDate(daysSinceEpoch: day)
            #expect(date.daysSinceEpoch == day)
            #expect(date.adding(days: 1).weekday == (date.weekday + 1) % 7)
        }
    }
}

// MARK: - Output format

@Suite struct CalendarGeneratorFormatTests {

    @Test func equalConfigurationsGiveIdenticalBytes() {
        let first = bytes(events: 3_000)
        #expect(first == bytes(events: 3_000))
        #expect(first != bytes(events: 3_000, seed: 43))
        let generator = CalendarGenerator(.init(events: 500))
        var written: [UInt8] = []
        generator.write(into: &written)
        #expect(Array(generator.generate().utf8) == written)
    }

    /// A golden value: update it only when the output is meant to change.
    @Test func outputIsStableAcrossPlatforms() {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 // FNV-1a 64
        for byte in bytes(events: 2_000, seed: 2_025) {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        #expect(hash == 4_416_029_432_752_486_450)
    }

    @Test func writeAppendsToExistingBytes() {
        var buffer = Array("prefix".utf8)
        CalendarGenerator(.init(events: 10)).write(into: &buffer)
        #expect(buffer.starts(with: Array("prefixBEGIN:VCALENDAR\r\n".utf8)))
        #expect(Array(buffer.dropFirst(6)) == bytes(events: 10))
    }

    @Test func componentCountsMatchTheDocumentation() {
        let generator = CalendarGenerator(.init(events: 5_000))
        var output: [UInt8] = []
        let statistics = generator.write(into: &output)
        let lines = logicalLines(output)
        #expect(lines.filter { $0 == "BEGIN:VEVENT" }.count == generator.generatedComponentCount)
        #expect(statistics == generator.statistics)
        #expect(statistics.events == 5_000)
        #expect(statistics.overrides > 0)
        let all = events(output)
        let masters = all.filter { !$0.isOverride }
        #expect(masters.count == 5_000)
        #expect(all.count - masters.count == statistics.overrides)
        #expect(Set(masters.map(\.uid)).count == 5_000)
        #expect(masters.first?.uid == "gen-1@eventd.test")
        var exceptionDates = 0
        for event in all {
            for property in event.all("EXDATE") {
                exceptionDates += property.value.split(separator: ",").count
            }
        }
        #expect(exceptionDates == statistics.exceptionDates)
    }

    @Test func linesAreCRLFTerminatedFoldedAndValidUTF8() throws {
        let output = bytes(events: 10_000)
        let lines = try #require(physicalLines(output))
        var foldedBeforeCharacterBoundary = 0
        var nonASCIIContinuations = 0
        for (index, line) in lines.enumerated() {
            #expect(line.count <= 75)
            #expect(String(validating: line, as: UTF8.self) != nil, "line \(index) splits a character")
            if index + 1 < lines.count, lines[index + 1].first == 32 {
                if line.count < 75 { foldedBeforeCharacterBoundary += 1 }
                if lines[index + 1].dropFirst().first.map({ $0 >= 0x80 }) == true {
                    nonASCIIContinuations += 1
                }
            }
        }
        #expect(foldedBeforeCharacterBoundary > 0)
        #expect(nonASCIIContinuations > 0)
        #expect(lines.first.map(Array.init) == Array("BEGIN:VCALENDAR".utf8))
        #expect(lines.last.map(Array.init) == Array("END:VCALENDAR".utf8))
    }

    @Test func beginAndEndAreBalanced() {
        var stack: [String] = []
        var components: [String: Int] = [:]
        for line in logicalLines(bytes(events: 5_000)) {
            if line.hasPrefix("BEGIN:") {
                stack.append(String(line.dropFirst(6)))
                components[String(line.dropFirst(6)), default: 0] += 1
            } else if line.hasPrefix("END:") {
                #expect(stack.popLast() == String(line.dropFirst(4)))
            }
        }
        #expect(stack.isEmpty)
        #expect(components["VCALENDAR"] == 1)
        #expect(components["VTIMEZONE"] == 4)
        #expect(components["STANDARD"] == 4)
        #expect(components["DAYLIGHT"] == 3)
    }

    @Test func headerAndTimeZones() {
        let lines = logicalLines(bytes(events: 100))
        #expect(lines[1] == "VERSION:2.0")
        #expect(lines.contains { $0.hasPrefix("PRODID:") })
        let text = lines.joined(separator: "\n")
        for identifier in CalendarGenerator.timeZoneIdentifiers {
            #expect(text.contains("TZID:\(identifier)\n"))
        }
        #expect(text.contains("TZNAME:CEST\nDTSTART:19810329T020000\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU"))
        #expect(text.contains("TZNAME:CET\nDTSTART:19961027T030000\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU"))
        #expect(text.contains("TZNAME:EDT\nDTSTART:20070311T020000\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU"))
        #expect(text.contains("TZNAME:EST\nDTSTART:20071104T020000\nRRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU"))
        #expect(text.contains("TZOFFSETTO:+1000\nTZNAME:AEST\nDTSTART:20080406T030000\nRRULE:FREQ=YEARLY;BYMONTH=4;BYDAY=1SU"))
        #expect(text.contains("TZOFFSETTO:+1100\nTZNAME:AEDT\nDTSTART:20081005T020000\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=1SU"))
        #expect(text.contains("TZID:Asia/Seoul\nX-LIC-LOCATION:Asia/Seoul\nBEGIN:STANDARD\nTZOFFSETFROM:+1000\nTZOFFSETTO:+0900\nTZNAME:KST\nDTSTART:19881009T030000\nEND:STANDARD\nEND:VTIMEZONE"))
    }

    @Test func emptyCalendarIsValid() {
        let generator = CalendarGenerator(.init(events: 0))
        #expect(generator.generatedComponentCount == 0)
        let lines = logicalLines(bytes(events: 0))
        #expect(lines.first == "BEGIN:VCALENDAR")
        #expect(lines.last == "END:VCALENDAR")
        #expect(!lines.contains("BEGIN:VEVENT"))
    }
}

