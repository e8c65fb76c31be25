import XCTest
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
