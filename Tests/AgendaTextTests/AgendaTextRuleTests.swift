import Testing
@testable import AgendaText
import CanonicalJSON
import FeedProtocol
import ICalendar

/// The rules of AgendaText the shared vectors do not reach: words, lines, progress,
/// the palette's properties.
@Suite struct AgendaTextRuleTests {
    static func item(_ fields: [String: JSONValue]) -> FeedItem {
        FeedItem(.object(["id": "x", "kind": "event", "calendar": "work"].merging(fields) { $1 }))
    }

    @Test func rulesInWords() {
        let cases: [(String, String)] = [
            ("FREQ=DAILY", "every day"),
            ("FREQ=DAILY;INTERVAL=2;COUNT=10", "every second day, 10 times"),
            ("FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20270301T000000Z", "every week on Tuesday and Thursday, until 1 March 2027"),
            ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "every weekday"),
            ("FREQ=MONTHLY;BYDAY=-1FR", "every month on the last Friday"),
            ("FREQ=MONTHLY;BYDAY=TU;BYSETPOS=2", "every month on the second Tuesday"),
            ("FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=1,15", "every third month on the 1st and 15th"),
            ("FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=1", "every month on the last day, once"),
            ("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=22", "every year on the 22nd in March"),
            ("FREQ=YEARLY;INTERVAL=7;UNTIL=20400101", "every 7th year, until 1 January 2040"),
            ("FREQ=HOURLY;BYHOUR=9,17;WKST=SU", "every hour (BYHOUR=9,17)"),
            ("FREQ=FORTNIGHTLY", "repeats: FREQ=FORTNIGHTLY"),
        ]
        for (rule, words) in cases { #expect(AgendaWords.recurrence(rule) == words, "\(rule)") }
        #expect(AgendaWords.recurrence("FREQ=WEEKLY", extraDates: true) == "every week, and on other dates")
        #expect(["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]
                == [1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].map(AgendaWords.ordinal))
    }

    @Test func shortDatesAndClocks() {
        #expect(AgendaWords.shortDate(CivilDate(year: 2026, month: 12, day: 7)) == "Mon 7 Dec")
        #expect(AgendaWords.clock("2026-12-07T09:05:00+01:00") == "09:05")
        #expect(AgendaWords.clock("2026-12-07") == nil)
        #expect(AgendaWords.clock("2026-12-07Tab:cd") == nil)
        #expect(AgendaWords.clock(0, Zone.utc) == "00:00")
    }

    @Test func countdownsRoundUpToTheMinute() {
        #expect(AgendaWords.minutes(0) == 0)
        #expect(AgendaWords.minutes(1) == 1)
        #expect(AgendaWords.minutes(60) == 1)
        #expect(AgendaWords.minutes(61) == 2)
        #expect(AgendaWords.phrase(25 * 60) == "25 min")
        #expect(AgendaWords.phrase(3600) == "1 h")
        #expect(AgendaWords.phrase(2 * 3600 + 5 * 60) == "2 h 5 min")
    }

    @Test func instantsReadOffsetsAndFractions() {
        #expect(AgendaWords.instant("1970-01-01T01:00:00+01:00") == 0)
        #expect(AgendaWords.instant("1970-01-01T00:00:10.250Z") == 10)
        #expect(AgendaWords.instant("1969-12-31T19:00:00-05:00") == 0)
        #expect(AgendaWords.instant("1970-01-01T00:00:00") == nil)
        #expect(AgendaWords.instant("1970-01-01") == nil)
    }

    @Test func unreadableTimesSaySo() {
        let time = ItemTime(Self.item(["start": "soon", "end": "later"]))
        #expect(time.text == "??:??–??:??")
        #expect(time.shape == .range)
    }

    /// Status bars and reminders hold instants: the same forms from them.
    @Test func timesFromInstantsTakeTheSameForms() {
        let day: Range<Int64> = 86_400..<172_800
        #expect(ItemTime(start: 90_000, end: 93_600, zone: .utc).text == "01:00–02:00")
        #expect(ItemTime(start: 90_000, end: 90_000, zone: .utc).text == "01:00")
        #expect(ItemTime(start: 80_000, end: 90_000, zone: .utc, day: day).text == "…–01:00")
        #expect(ItemTime(start: 170_000, end: 180_000, zone: .utc, day: day).text == "23:13–…")
        let through = ItemTime(start: 0, end: 200_000, zone: .utc, day: day)
        #expect(through.text == "…")
        #expect(through.mark == "↔")
    }

    @Test func aLineHasItsPiecesInOrder() {
        let line = AgendaLine(Self.item(["summary": "Standup\u{1B}[2J", "location": "Room 4", "status": "TENTATIVE",
                                         "start": "2026-12-07T09:00:00Z", "end": "2026-12-07T09:15:00Z"]))
        #expect(line.plain == "  09:00–09:15 ● Standup^[[2J (tentative)  Room 4")
        #expect(!line.isBanner)
        #expect(line.change(on: "Mon 7 Dec") == "09:00–09:15 Standup^[[2J (Mon 7 Dec)")
    }

    @Test func continuingLinesEndInTheirMark() {
        let line = AgendaLine(Self.item(["start": "2026-12-06T22:00:00Z", "end": "2026-12-07T07:05:00Z",
                                         "continues_from_previous_day": true, "location": ""]))
        #expect(line.summary == "(no title)")
        #expect(line.location == nil)
        #expect(line.plain == "  …    –07:05 ● (no title)  ←")
        #expect(line.isBanner)
        #expect(line.change(on: "Mon 7 Dec") == "…–07:05 (no title) ← (Mon 7 Dec)")
    }

    @Test func progressIsThePartPassed() {
        let meeting = Self.item(["start": "1970-01-01T00:00:00Z", "end": "1970-01-01T01:00:00Z"])
        #expect(NowRule.progress(meeting, now: 900) == 0.25)
        #expect(NowRule.progress(meeting, now: 3600) == nil)
        #expect(NowRule.progress(Self.item(["all_day": true, "start": "1970-01-01", "end": "1970-01-02"]), now: 10) == nil)
        #expect(NowRule.phase(FeedItem(.object(["id": "p", "kind": "placeholder"])), now: 0) == .timeless)
    }

    @Test func aCalendarsColourDependsOnItsNameAlone() {
        let before = ["home", "work", "birthdays"].map { CalendarColors.color(for: $0) }
        // Another calendar, sorting first, recolours none (an index by name order would).
        _ = CalendarColors.color(for: "aaa")
        #expect(["home", "work", "birthdays"].map { CalendarColors.color(for: $0) } == before)
        #expect(CalendarColors.color(for: "work", own: .init(1, 2, 3)) == .init(1, 2, 3))
        // The palette is used, not one colour for all.
        let used = Set((0..<100).map { CalendarColors.index(for: "calendar \($0)") })
        #expect(used.count == CalendarColors.palette.count)
    }

    @Test func everyInkHasFourAndAHalfToOneOnItsGround() {
        for color in CalendarColors.palette + [.init(255, 255, 0), .init(0, 0, 0), .init(255, 255, 255)] {
            let inks = CalendarColors.inks(color)
            for (ink, ground) in [(inks.light, CalendarColors.grounds[0]), (inks.dark, CalendarColors.grounds[1])] {
                #expect(min(ink.contrast(with: ground.card), ink.contrast(with: ground.banner)) >= 4.5, "\(color) as \(ink)")
            }
        }
    }

    @Test func hexColoursAndTheTerminalsNearest() {
        #expect(CalendarColors.RGB(hex: "#0a0") == .init(0, 170, 0))
        #expect(CalendarColors.RGB(hex: "#4E79A7")?.description == "#4e79a7")
        #expect(CalendarColors.RGB(hex: "red") == nil)
        #expect(CalendarColors.RGB(hex: "#12345") == nil)
        #expect(CalendarColors.RGB(255, 0, 0).xterm256 == 196)
        #expect(CalendarColors.RGB(255, 0, 0).basic == 1)
        #expect(CalendarColors.RGB(128, 128, 128).basic == 7)
    }

    @Test func sectionKindsCoverEveryRange() {
        let today = CivilDate(year: 2026, month: 11, day: 29)
        #expect(SectionKind.range(date: today, label: nil, today: today) == .week)
        #expect(SectionKind(date: today, label: "today", items: [], today: today) == .today)
        #expect(SectionKind.allCases.count == 6)
    }
}
