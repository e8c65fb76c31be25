import Testing
@testable import ICalendar

/// The basic forms written digit by digit (`CivilDate+Basic`) against the padded
/// concatenation they replaced, for every field width, in range and out of it.
@Suite struct CivilDateBasicTests {
    static func padded(_ value: Int, _ width: Int) -> String {
        let s = String(value)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    static func reference(_ t: CivilDateTime) -> String {
        padded(t.date.year, 4) + padded(t.date.month, 2) + padded(t.date.day, 2) + "T"
            + padded(t.hour, 2) + padded(t.minute, 2) + padded(t.second, 2)
    }

    @Test func matchesThePaddedFormForRandomFields() {
        var rng = SystemRandomNumberGenerator()
        let years = [0, 1, 9, 10, 99, 100, 999, 1000, 1970, 2026, 9999, 10000, 12345, -1, -2026]
        let small = [0, 1, 9, 10, 59, 60, 99, 100, 123, -1, -10]
        for _ in 0..<5000 {
            let date = CivilDate(year: Bool.random(using: &rng) ? years.randomElement(using: &rng)! : Int.random(in: -20000...20000, using: &rng),
                                 month: small.randomElement(using: &rng)!, day: small.randomElement(using: &rng)!)
            let time = CivilDateTime(date: date, hour: small.randomElement(using: &rng)!,
                                     minute: small.randomElement(using: &rng)!, second: small.randomElement(using: &rng)!)
            let dateForm = Self.padded(date.year, 4) + Self.padded(date.month, 2) + Self.padded(date.day, 2)
            #expect(date.basic == dateForm)
            #expect(time.basic == Self.reference(time))
            #expect(TimeValue.floating(time).encoded == Self.reference(time))
            #expect(TimeValue.zoned(time, zoneKey: "Europe/Berlin").encoded == Self.reference(time) + "@Europe/Berlin")
        }
    }

    @Test func encodesEveryKindOfTime() {
        let t = CivilDateTime(date: CivilDate(year: 2026, month: 11, day: 29), hour: 9, minute: 5, second: 7)
        #expect(TimeValue.date(t.date).encoded == "20261129")
        #expect(TimeValue.floating(t).encoded == "20261129T090507")
        #expect(TimeValue.utc(t.secondsAsIfUTC).encoded == "20261129T090507Z")
        #expect(TimeValue.zoned(t, zoneKey: "vtz:0123456789abcdef01234567").encoded == "20261129T090507@vtz:0123456789abcdef01234567")
        #expect(TimeValue.zoned(t, zoneKey: "").encoded == "20261129T090507@")
        #expect(TimeValue.utc(CivilDateTime(date: CivilDate(year: 1, month: 1, day: 1)).secondsAsIfUTC).encoded == "00010101T000000Z")
        for text in ["20261129", "20261129T090507", "20261129T090507Z", "20261129T090507@Europe/Berlin"] {
            #expect(TimeValue(encoded: text)?.encoded == text)
        }
    }
}
