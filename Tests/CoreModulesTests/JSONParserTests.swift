import CanonicalJSON
import Testing

// MARK: - JSONParserTests

@Suite("JSON parser")
struct JSONParserTests {
    // MARK: - Accepted input

    @Test("scalars and containers")
    func accepts() throws {
        #expect(try JSONValue.parse("null") == .null)
        #expect(try JSONValue.parse(" \t\r\ntrue \n") == true)
        #expect(try JSONValue.parse("false") == false)
        #expect(try JSONValue.parse("0") == 0)
        #expect(try JSONValue.parse("-0") == 0)
        #expect(try JSONValue.parse("-12") == -12)
        #expect(try JSONValue.parse("9223372036854775807") == .int(.max))
        #expect(try JSONValue.parse("-9223372036854775808") == .int(.min))
        #expect(try JSONValue.parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try JSONValue.parse("-9223372036854775809") == .double(-9_223_372_036_854_775_808))
        #expect(try JSONValue.parse("1.0") == .double(1))
        #expect(try JSONValue.parse("1e2") == .double(100))
        #expect(try JSONValue.parse("-1.5E-2") == .double(-0.015))
        #expect(try JSONValue.parse("1e-400") == .double(0))
        #expect(try JSONValue.parse(#""""#) == "")
        #expect(try JSONValue.parse("[]") == [])
        #expect(try JSONValue.parse("{}") == [:])
        #expect(try JSONValue.parse(#" [ 1 , { "a" : [ ] , "b" : null } ] "#) == [1, ["a": [], "b": nil]])
    }

    @Test("string escapes and UTF-8")
    func strings() throws {
        #expect(try JSONValue.parse(#""\"\\\/\b\f\n\r\t""#) == "\"\\/\u{8}\u{c}\n\r\t")
        #expect(try JSONValue.parse(#""\u00e9\u00C9\u6771""#) == "éÉ東")
        #expect(try JSONValue.parse(#""\ud83d\ude00""#) == "😀")
        #expect(try JSONValue.parse(#""a\u0000b""#) == "a\u{0}b")
        #expect(try JSONValue.parse("\"Zürich 😀 \u{7f}\"") == "Zürich 😀 \u{7f}")
        #expect(try JSONValue.parse("\"\u{10ffff}\"") == "\u{10ffff}")
    }

    @Test("duplicate keys: last wins")
    func duplicateKeys() throws {
        #expect(try JSONValue.parse(#"{"a":1,"b":2,"a":3}"#) == ["a": 3, "b": 2])
    }

    @Test("accepts any Collection<UInt8>")
    func collections() throws {
        let bytes = Array(#"{"k":[1,2]}"#.utf8)
        #expect(try JSONValue.parse(bytes[...]) == ["k": [1, 2]])
        #expect(try JSONValue.parse(bytes.lazy.map { $0 }) == ["k": [1, 2]])
        #expect(try JSONParser(maxDepth: 2).parse(bytes) == ["k": [1, 2]])
    }

    // MARK: - Rejected input

    @Test("rejects malformed input", arguments: [
        "", " ", "nul", "nulll", "True", "[1,]", "[,1]", "{\"a\":1,}", "{\"a\" 1}", "{1:2}", "{\"a\"}",
        "[1 2]", "[", "]", "{", "}", "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"", "\"\\\"",
        "01", "-01", "+1", ".5", "1.", "1.e5", "1e", "1e+", "-", "- 1", "NaN", "Infinity", "-Infinity",
        "0x10", "1e400", "-1e400", "[1]x", "{} {}", "1 2", "'a'", "\"\u{1}\"", "\"tab\there\"", "\"line\nbreak\"",
        "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"\\ud800x\"", "\"\\ude00\\ud83d\"", "[\"a\":1]",
        "\u{feff}{}", "/* c */ 1", "[1]\u{0}",
    ])
    func rejects(input: String) {
        #expect(throws: JSONError.self) { try JSONValue.parse(input) }
    }

    @Test("rejects invalid UTF-8", arguments: [
        [0x22, 0x80, 0x22], [0x22, 0xc0, 0xaf, 0x22], [0x22, 0xc3, 0x22], [0x22, 0xe0, 0x80, 0xaf, 0x22],
        [0x22, 0xed, 0xa0, 0x80, 0x22], [0x22, 0xf4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xf5, 0x80, 0x80, 0x80, 0x22],
        [0x22, 0xff, 0x22], [0x22, 0xe6, 0x9d], [0xef, 0xbb, 0xbf, 0x31], [0x5b, 0xff, 0x5d],
    ] as [[UInt8]])
    func rejectsInvalidUTF8(input: [UInt8]) {
        #expect(throws: JSONError.self) { try JSONValue.parse(input) }
    }

    @Test("errors carry a message and byte offset")
    func errorOffsets() {
        #expect(throws: JSONError(message: "unexpected data after the JSON value", offset: 4)) {
            try JSONValue.parse("[1] x")
        }
        #expect(throws: JSONError(message: "byte order mark is not allowed", offset: 0)) {
            try JSONValue.parse("\u{feff}1")
        }
        #expect(throws: JSONError(message: "control character in string", offset: 3)) {
            try JSONValue.parse("\"ab\u{1}\"")
        }
        #expect(throws: JSONError(message: "unpaired high surrogate in \\u escape", offset: 2)) {
            try JSONValue.parse(#""a\ud800""#)
        }
        do {
            _ = try JSONValue.parse("{\"a\":tru}")
            Issue.record("expected an error")
        } catch {
            #expect(error.offset == 5)
            #expect(error.description == "invalid literal at byte 5")
        }
    }

    // MARK: - Depth

    @Test("nesting is limited by maxDepth")
    func depthLimit() throws {
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(try JSONValue.parse(ok).arrayValue != nil)
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONError.self) { try JSONValue.parse(tooDeep) }
        #expect(try JSONValue.parse(tooDeep, maxDepth: 65).arrayValue != nil)
        #expect(throws: JSONError.self) { try JSONValue.parse(#"{"a":{"b":1}}"#, maxDepth: 1) }
        #expect(try JSONValue.parse("1", maxDepth: 0) == 1)
        #expect(throws: JSONError.self) { try JSONValue.parse("[]", maxDepth: 0) }
    }

    @Test("a million open brackets do not overflow the stack")
    func millionBrackets() {
        let brackets = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        #expect(throws: JSONError.self) { try JSONValue.parse(brackets) }
        #expect(throws: JSONError.self) { try JSONValue.parse(brackets, maxDepth: .max) }

        let objects = Array(String(repeating: #"{"a":"#, count: 200_000).utf8)
        #expect(throws: JSONError.self) { try JSONValue.parse(objects, maxDepth: .max) }
    }

    @Test("deep but balanced nesting parses iteratively when allowed")
    func deepBalanced() throws {
        let depth = 100_000
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        var value = try JSONValue.parse(text, maxDepth: depth)
        var levels = 1
        while case .array(let elements) = value, let first = elements.first {
            value = first
            levels += 1
        }
        #expect(levels == depth)
    }

    // MARK: - Round trips

    @Test("canonical output re-parses to the same value")
    func roundTrip() throws {
        var generator = JSONValueGenerator(seed: 1234)
        for _ in 0..<2000 {
            let value = generator.value(depth: 5)
            let bytes = value.canonicalBytes()
            let parsed = try JSONValue.parse(bytes)
            #expect(parsed == value)
            #expect(parsed.canonicalBytes() == bytes)
        }
    }
}
