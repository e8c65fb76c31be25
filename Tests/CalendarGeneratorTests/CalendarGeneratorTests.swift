import CalendarGenerator
import Foundation
import Testing
import TestSupport

// MARK: - Parsing helpers

/// One unfolded content line, split into name, parameters and value (the generator never
/// quotes parameter values, so a simple split is enough).
private struct Property {
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
private struct Event {
    var properties: [Property]

    func first(_ name: String) -> Property? { properties.first { $0.name == name } }
    func all(_ name: String) -> [Property] { properties.filter { $0.name == name } }
    var uid: String { first("UID")!.value }
    var isOverride: Bool { first("RECURRENCE-ID") != nil }
}

/// Splits bytes into physical lines at CRLF; returns nil if any CR or LF is bare.
private func physicalLines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>]? {
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
private func logicalLines(_ bytes: [UInt8]) -> [String] {
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
private func events(_ bytes: [UInt8]) -> [Event] {
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
private func minutes(_ value: String) -> Int {
    let digits = Array(value.utf8).filter { $0 >= 48 && $0 <= 57 }.map { Int($0) - 48 }
    func number(_ range: Range<Int>) -> Int { range.reduce(0) { $0 * 10 + digits[$1] } }
    let day = GeneratorDate(year: number(0..<4), month: number(4..<6), day: number(6..<8))
        .daysSinceEpoch
    return day * 1_440 + (digits.count >= 12 ? number(8..<10) * 60 + number(10..<12) : 0)
}

/// Minutes of a DURATION value such as `PT1H30M` or `P2D`.
private func durationMinutes(_ value: String) -> Int {
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

private func bytes(events: Int, seed: UInt64 = 42) -> [UInt8] {
    var bytes: [UInt8] = []
    CalendarGenerator(.init(events: events, seed: seed)).write(into: &bytes)
    return bytes
}

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

// MARK: - Interoperability

private enum Python {
    /// Whether `python3` with the `icalendar` package can be run.
    static let hasICalendar: Bool = (try? run(["-c", "import icalendar, dateutil"]).status) == 0

    /// `python3 ARGS` (through TestSupport's process runner); `output` is its standard
    /// output followed by its standard error.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let r = try ChildProcess.runBlocking("/usr/bin/env", ["python3"] + arguments, timeout: 600)
        return (r.status, r.stdout + r.stderr)
    }

    /// Parses the file with icalendar, checks every VEVENT, compares the VTIMEZONEs with
    /// the system's tzdata, and expands rules with dateutil to check EXDATEs and
    /// RECURRENCE-IDs.
    static let checker = #"""
    import sys, datetime
    from zoneinfo import ZoneInfo
    from icalendar import Calendar
    from dateutil.rrule import rrulestr
    path, expected = sys.argv[1], int(sys.argv[2])
    cal = Calendar.from_ical(open(path, "rb").read())
    problems = []
    def naive(value):
        if isinstance(value, datetime.datetime): return value
        return datetime.datetime.combine(value, datetime.time())
    for vtz in cal.walk("VTIMEZONE"):
        name = str(vtz["TZID"]); tz = vtz.to_tz(); ref = ZoneInfo(name)
        day = datetime.datetime(2025, 1, 1, 12)
        while day.year < 2029:
            if day.replace(tzinfo=tz).utcoffset() != day.replace(tzinfo=ref).utcoffset():
                problems.append(f"{name} offset differs on {day}")
            day += datetime.timedelta(days=1)
    events = list(cal.walk("VEVENT"))
    if len(events) != expected: problems.append(f"{len(events)} VEVENTs, expected {expected}")
    masters, instances = {}, 0
    for ev in events:
        for key in ("UID", "DTSTAMP", "DTSTART", "SUMMARY"):
            if key not in ev: problems.append(f"{ev.get('UID')}: no {key}")
        if getattr(ev, "errors", None): problems.append(f"{ev['UID']}: {ev.errors}")
        start = ev.decoded("DTSTART")
        if "DTEND" in ev:
            end = ev.decoded("DTEND")
            aware = isinstance(start, datetime.datetime) and start.tzinfo is not None
            if not ((end > start) if aware else (naive(end) > naive(start))):
                problems.append(f"{ev['UID']}: DTEND not after DTSTART")
        if "RECURRENCE-ID" not in ev: masters[str(ev["UID"])] = ev
    for ev in events:
        values = [ev.decoded("RECURRENCE-ID")] if "RECURRENCE-ID" in ev else []
        exdates = ev.get("EXDATE", [])
        for group in (exdates if isinstance(exdates, list) else [exdates]):
            values += [d.dt for d in group.dts]
        if not values: continue
        master = masters[str(ev["UID"])]
        rule = rrulestr(master["RRULE"].to_ical().decode(), dtstart=naive(master.decoded("DTSTART")))
        for value in values:
            instances += 1
            if naive(value) not in rule: problems.append(f"{ev['UID']}: {value} is not an instance")
    if instances == 0: problems.append("no EXDATE or RECURRENCE-ID checked")
    for problem in problems[:20]: print(problem)
    print(f"checked {len(events)} events, {instances} instances, {len(problems)} problems")
    sys.exit(1 if problems else 0)
    """#
}

@Suite struct CalendarGeneratorInteroperabilityTests {

    @Test(.enabled(if: Python.hasICalendar,
                   "python3 with the icalendar package is not available (pip install icalendar)"))
    func pythonICalendarParsesTheOutput() throws {
        let generator = CalendarGenerator(.init(events: 2_000, seed: 7))
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("calendar-generator-\(UUID().uuidString).ics")
        defer { try? FileManager.default.removeItem(at: url) }
        var output: [UInt8] = []
        generator.write(into: &output)
        try Data(output).write(to: url)
        let result = try Python.run(["-c", Python.checker, url.path,
                                     String(generator.generatedComponentCount)])
        #expect(result.status == 0, "\(result.output)")
    }
}
