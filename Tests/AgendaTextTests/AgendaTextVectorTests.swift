import Foundation
import Testing
import AgendaText
import CanonicalJSON
import FeedProtocol
import ICalendar
import TestSupport

/// The shared cases (Tests/Vectors/agenda-text.json), which the dashboard's tests read
/// too (DashboardVectorTests): the Swift side of the agenda's rules.
@Suite struct AgendaTextVectorTests {
    static let vectors: JSONValue = {
        let url = Products.repositoryRoot.appendingPathComponent("Tests/Vectors/agenda-text.json")
        return (try? JSONValue.parse(Array(Data(contentsOf: url)))) ?? .null
    }()

    static func cases(_ key: String) -> [JSONValue] { vectors[key]?.arrayValue ?? [] }
    static func date(_ value: JSONValue?) -> CivilDate { CivilDate(iso: value?.stringValue ?? "") ?? CivilDate(year: 1, month: 1, day: 1) }

    @Test func everyGroupHasCases() {
        for key in ["times", "headers", "now", "sections", "colors"] { #expect(Self.cases(key).count >= 5, "\(key)") }
    }

    @Test(arguments: cases("times")) func time(_ vector: JSONValue) {
        let time = ItemTime(FeedItem(vector["item"] ?? .null))
        #expect(time.text == vector["text"]?.stringValue, "\(vector["why"] ?? .null)")
        #expect(time.column == vector["column"]?.stringValue, "\(vector["why"] ?? .null)")
        #expect(time.mark == vector["mark"]?.stringValue, "\(vector["why"] ?? .null)")
    }

    @Test(arguments: cases("headers")) func header(_ vector: JSONValue) {
        let text = AgendaWords.dayHeader(Self.date(vector["date"]), label: vector["label"]?.stringValue, today: Self.date(vector["today"]))
        #expect(text == vector["text"]?.stringValue)
    }

    @Test(arguments: cases("now")) func now(_ vector: JSONValue) throws {
        let now = try #require(AgendaWords.instant(vector["now"]?.stringValue ?? ""))
        let items = (vector["items"]?.arrayValue ?? []).map(FeedItem.init)
        #expect(items.map { NowRule.phase($0, now: now).rawValue } == vector["phases"]?.arrayValue?.compactMap(\.stringValue),
                "\(vector["why"] ?? .null)")
        #expect(NowRule.lineIndex(items, now: now) == vector["line"]?.intValue.map(Int.init), "\(vector["why"] ?? .null)")
    }

    @Test(arguments: cases("sections")) func section(_ vector: JSONValue) {
        let kind = SectionKind(date: Self.date(vector["date"]), label: vector["label"]?.stringValue,
                               items: (vector["items"]?.arrayValue ?? []).map(FeedItem.init), today: Self.date(vector["today"]))
        #expect(kind.rawValue == vector["kind"]?.stringValue, "\(vector)")
    }

    @Test(arguments: cases("colors")) func color(_ vector: JSONValue) throws {
        let name = try #require(vector["name"]?.stringValue)
        let own = vector["own"]?.stringValue.flatMap(CalendarColors.RGB.init(hex:))
        let color = CalendarColors.color(for: name, own: own)
        #expect(color.description == vector["color"]?.stringValue)
        let inks = CalendarColors.inks(color)
        #expect(inks.light.description == vector["light"]?.stringValue)
        #expect(inks.dark.description == vector["dark"]?.stringValue)
    }
}
