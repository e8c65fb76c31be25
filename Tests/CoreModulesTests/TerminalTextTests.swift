import Testing
@testable import Diagnostics
import TestSupport

/// `TerminalText`: every rule of its stand-ins (docs/data-model.md).
@Suite struct TerminalTextTests {
    @Test func cleanTextIsReturnedAsItIs() {
        for text in ["", "Standup", "Zürich, Kraków, 東京", "emoji 🎉 and ‏RLM‎ marks", "a ~ ^ [ ] \\ b", "\u{A0}\u{FEFF}"] {
            #expect(text.terminalSafe == text)
            #expect(!TerminalText.needsWork(text))
        }
    }

    @Test func lineBreaksAndTabsBecomeSpaces() {
        #expect("a\tb\nc\rd\u{0B}e\u{0C}f\u{85}g\u{2028}h\u{2029}i".terminalSafe == "a b c d e f g h i")
    }

    @Test func otherC0ControlsAndDELUseCaretNotation() {
        #expect("\u{1B}[31m".terminalSafe == "^[[31m")
        #expect("\u{00}\u{01}\u{07}\u{08}\u{1F}\u{7F}".terminalSafe == "^@^A^G^H^_^?")
        #expect("\u{1B}]0;title\u{07}".terminalSafe == "^[]0;title^G")
    }

    @Test func c1ControlsAndBidiOverridesBecomeReplacementCharacters() {
        for scalar in [0x80, 0x9B, 0x9D, 0x9F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069] {
            let text = "a" + String(Unicode.Scalar(UInt32(scalar))!) + "b"
            #expect(text.terminalSafe == "a\u{FFFD}b", "U+\(String(scalar, radix: 16))")
        }
    }

    /// Neighbours of the replaced ranges stay: U+00A0, U+2027, U+202F, U+2065, U+206A.
    @Test func neighboursOfTheRangesAreKept() {
        let text = "\u{A0}\u{2027}\u{202F}\u{2065}\u{206A}\u{00C2}\u{00E2}"
        #expect(text.terminalSafe == text)
    }

    static func isReplaced(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (0x7F...0x9F).contains(v) || (0x2028...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }

    /// Property: the output never holds a replaced character, and clean input is kept.
    @Test func noControlSurvivesRandomText() {
        var rng = SeededRandom(seed: 15)
        let alphabet: [UInt32] = [0x00, 0x07, 0x09, 0x0A, 0x1B, 0x41, 0x5B, 0x7F, 0x80, 0x85, 0x9B, 0xA0, 0xE9, 0x2028, 0x202E, 0x2066, 0x2069, 0x1F389]
        for _ in 0..<2000 {
            let text = String(String.UnicodeScalarView((0..<Int.random(in: 0...20, using: &rng)).map { _ in
                Unicode.Scalar(alphabet[Int.random(in: 0..<alphabet.count, using: &rng)])!
            }))
            let safe = text.terminalSafe
            #expect(!safe.unicodeScalars.contains(where: Self.isReplaced), "\(text.debugDescription)")
            // Every replacement changes the text, so the fast scan must agree exactly.
            #expect(TerminalText.needsWork(text) == (safe != text), "\(text.debugDescription)")
        }
    }
}
