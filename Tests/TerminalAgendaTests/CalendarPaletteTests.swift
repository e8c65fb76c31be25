import XCTest
import FeedProtocol
@testable import TerminalAgenda

final class CalendarPaletteTests: XCTestCase {
    func testColoursFollowNameOrderAndStayPut() {
        var palette = CalendarPalette(names: ["work", "home"])
        XCTAssertEqual(palette.color(for: "home"), CalendarPalette.colors[0])
        XCTAssertEqual(palette.color(for: "work"), CalendarPalette.colors[1])
        palette.learn(["zoo", "home"])
        XCTAssertEqual(palette.names, ["home", "work", "zoo"])
        XCTAssertEqual(palette.color(for: "zoo"), CalendarPalette.colors[2])
        XCTAssertEqual(CalendarPalette.RGB(66, 133, 244).xterm256, 16 + 36 * 1 + 6 * 2 + 5)
        XCTAssertEqual(CalendarPalette.RGB(229, 57, 53).basic, 1, "red")
    }

    func testHexColours() {
        XCTAssertEqual(CalendarPalette.RGB(hex: "#ff2968"), CalendarPalette.RGB(255, 41, 104))
        XCTAssertEqual(CalendarPalette.RGB(hex: "#1F77B4"), CalendarPalette.RGB(31, 119, 180))
        XCTAssertEqual(CalendarPalette.RGB(hex: "#f0a"), CalendarPalette.RGB(255, 0, 170))
        for bad in ["", "#", "ff0000", "#ff00", "#ff00000", "#gg0000", "#+f0000", "#-f0000", "turquoise", "#ｆｆ0000", " #ff0000"] {
            XCTAssertNil(CalendarPalette.RGB(hex: bad), bad)
        }
        let status = FeedStatus(fields: ["calendar_colors": ["work": "#FF0000", "home": "#0f0", "named": "turquoise", "odd": 7]])
        XCTAssertEqual(CalendarPalette.colors(from: status.calendarColors),
                       ["work": CalendarPalette.RGB(255, 0, 0), "home": CalendarPalette.RGB(0, 255, 0)])
        XCTAssertEqual(CalendarPalette.colors(from: nil), [:])
        XCTAssertEqual(CalendarPalette.colors(from: FeedStatus(fields: ["calendar_colors": "#ff0000"]).calendarColors), [:])
    }

    func testOwnColoursComeFirstThePaletteForTheRest() {
        var palette = CalendarPalette(names: ["home", "named", "work"])
        palette.own = CalendarPalette.colors(from: ["work": "#ff0000", "named": "turquoise"])
        XCTAssertEqual(palette.color(for: "work"), CalendarPalette.RGB(255, 0, 0))
        XCTAssertEqual(palette.color(for: "home"), CalendarPalette.colors[0], "no colour of its own: the palette's, by name")
        XCTAssertEqual(palette.color(for: "named"), CalendarPalette.colors[1], "a colour name is not a hex colour: the palette's")
        XCTAssertEqual(palette.color(for: "work").xterm256, 196, "xterm's red")
        palette.learn(["zoo"])
        XCTAssertEqual(palette.color(for: "zoo"), CalendarPalette.colors[3], "the palette's order still counts every name")
        palette.own = [:]
        XCTAssertEqual(palette.color(for: "work"), CalendarPalette.colors[2], "a colour taken back: the palette's again")
    }

    func testDepthFromEnvironmentAndTerminfo() {
        let xterm = ["TERM": "xterm-256color"]
        XCTAssertEqual(CalendarPalette.depth(environment: xterm, terminalColors: 256), .xterm256)
        XCTAssertEqual(CalendarPalette.depth(environment: ["TERM": "xterm-direct"], terminalColors: 1 << 24), .trueColor)
        XCTAssertEqual(CalendarPalette.depth(environment: ["TERM": "xterm"], terminalColors: 8), .basic)
        XCTAssertEqual(CalendarPalette.depth(environment: xterm.merging(["NO_COLOR": "1"]) { $1 }, terminalColors: 256), .none)
        XCTAssertEqual(CalendarPalette.depth(environment: xterm.merging(["NO_COLOR": ""]) { $1 }, terminalColors: 256), .xterm256,
                       "an empty NO_COLOR does not count (no-color.org)")
        XCTAssertEqual(CalendarPalette.depth(environment: ["TERM": "dumb"], terminalColors: 256), .none)
        XCTAssertEqual(CalendarPalette.depth(environment: ["TERM": "vt100"], terminalColors: 0), .none)
    }
}
