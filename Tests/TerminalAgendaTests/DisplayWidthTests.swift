import Testing
@testable import TerminalAgenda

@Suite struct DisplayWidthTests {
    @Test func columnsAsWcwidthCountsThem() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("会議") == 4)
        #expect(DisplayWidth.of("한국어") == 6)
        #expect(DisplayWidth.of("😀") == 2)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("ｆｕｌｌ") == 8)
        #expect(DisplayWidth.of("a\u{200B}b") == 2)
        #expect(DisplayWidth.of("→●▰") == 3)
    }

    @Test func truncationNeverSplitsOrOverflows() {
        #expect(DisplayWidth.truncate("会議室の予約", to: 7).text == "会議室…")
        #expect(DisplayWidth.truncate("会議室の予約", to: 6).text == "会議…")
        #expect(DisplayWidth.truncate("e\u{301}e\u{301}e\u{301}", to: 2).text == "e\u{301}…")
        #expect(DisplayWidth.fit("😀😀😀", to: 4) == "😀… ")
        let samples = ["plain text", "会議 with 😀 team", "Ünïcödé", "🇩🇪 flag", "x\u{301}\u{302}y", "ｆｕｌｌ ｗｉｄｔｈ"]
        for text in samples {
            for columns in 0...24 {
                let fitted = DisplayWidth.fit(text, to: columns)
                #expect(DisplayWidth.of(fitted) == columns, "\(text) in \(columns)")
                // What is kept is a prefix of the text, cut between characters.
                let kept = fitted.replacingOccurrences(of: "…", with: "").trimmingCharacters(in: .whitespaces)
                #expect(text.hasPrefix(kept), "\(text) in \(columns): \(fitted)")
            }
        }
    }
}
