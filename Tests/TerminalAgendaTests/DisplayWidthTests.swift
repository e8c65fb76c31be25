import XCTest
@testable import TerminalAgenda

final class DisplayWidthTests: XCTestCase {
    func testColumnsAsWcwidthCountsThem() {
        XCTAssertEqual(DisplayWidth.of("abc"), 3)
        XCTAssertEqual(DisplayWidth.of("会議"), 4)
        XCTAssertEqual(DisplayWidth.of("한국어"), 6)
        XCTAssertEqual(DisplayWidth.of("😀"), 2)
        XCTAssertEqual(DisplayWidth.of("e\u{301}"), 1)
        XCTAssertEqual(DisplayWidth.of("ｆｕｌｌ"), 8)
        XCTAssertEqual(DisplayWidth.of("a\u{200B}b"), 2)
        XCTAssertEqual(DisplayWidth.of("→●▰"), 3)
    }

    func testTruncationNeverSplitsOrOverflows() {
        XCTAssertEqual(DisplayWidth.truncate("会議室の予約", to: 7).text, "会議室…")
        XCTAssertEqual(DisplayWidth.truncate("会議室の予約", to: 6).text, "会議…")
        XCTAssertEqual(DisplayWidth.truncate("e\u{301}e\u{301}e\u{301}", to: 2).text, "e\u{301}…")
        XCTAssertEqual(DisplayWidth.fit("😀😀😀", to: 4), "😀… ")
        let samples = ["plain text", "会議 with 😀 team", "Ünïcödé", "🇩🇪 flag", "x\u{301}\u{302}y", "ｆｕｌｌ ｗｉｄｔｈ"]
        for text in samples {
            for columns in 0...24 {
                let fitted = DisplayWidth.fit(text, to: columns)
                XCTAssertEqual(DisplayWidth.of(fitted), columns, "\(text) in \(columns)")
                // What is kept is a prefix of the text, cut between characters.
                let kept = fitted.replacingOccurrences(of: "…", with: "").trimmingCharacters(in: .whitespaces)
                XCTAssertTrue(text.hasPrefix(kept), "\(text) in \(columns): \(fitted)")
            }
        }
    }
}
