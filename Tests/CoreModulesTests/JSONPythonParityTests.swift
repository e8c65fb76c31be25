import CanonicalJSON
import Testing

// MARK: - JSONPythonParityTests

/// Compares the canonical serializer with Python's
/// `json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=True)`.
///
/// Values are handed to Python in a tagged, hex-encoded form that does not
/// depend on our serializer, so Python builds exactly the same value.
@Suite(
    "JSON parity with Python",
    .enabled(if: ExternalTool.python3 != nil, "python3 not installed")
)
struct JSONPythonParityTests {
    // MARK: - Tests

    @Test("tricky hand-picked values")
    func trickyValues() throws {
        let values: [JSONValue] = [
            "Zürich", "東京", "😀", "\u{0}\u{1f}\u{7f}", "\u{2028}", "quote \" backslash \\ slash /",
            "\u{8}\u{c}\n\r\t", "e\u{301}", "\u{feff}",
            ["é": 1, "z": 2, "Z": 3, "a": 4, "\u{10000}": 5, "\u{FFFF}": 6, "": 7, "\u{7f}": 8, "\u{e000}": 9],
            ["outer": ["inner": [1, ["k": "v", "K": [nil, true, false]], []], "empty": [:]]],
            [.int(-1), .int(-9_223_372_036_854_775_807), .int(.max), .int(.min), 0],
            [1.0, 1e16, 1e15, 1e-5, 1e-4, 0.1, -0.0, .double(.leastNonzeroMagnitude), 1.7976931348623157e308, 1e22, 1.5e-7, 123.456],
            [9999999999999998.0, 0.00009999, 0.000099999, 2e-5, 1e100, 4.35, 0.000123],
            nil, true, false, 0, [], [:],
        ]
        try compareWithPython(values)
    }

    @Test("random nested values")
    func randomValues() throws {
        var generator = JSONValueGenerator(seed: 7)
        try compareWithPython((0..<400).map { _ in generator.value(depth: 4) })
    }

    @Test("random doubles")
    func randomDoubles() throws {
        var generator = JSONValueGenerator(seed: 99)
        try compareWithPython((0..<3000).map { _ in .double(generator.double()) })
    }

    // MARK: - Helpers

    /// Serializes each value here and in Python and expects identical text;
    /// also expects our parser to read Python's text back to the same value.
    private func compareWithPython(_ values: [JSONValue]) throws {
        let input = values.map(Self.tagged).joined(separator: "\n") + "\n"
        let output = try ExternalTool.run(ExternalTool.python3!, ["-c", Self.script], input: Array(input.utf8))
        try #require(output.status == 0, "python3 failed: \(output.stderr)")

        let lines = output.stdout.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast()
        try #require(lines.count == values.count)
        for (value, expected) in zip(values, lines) {
            let expectedText = String(decoding: expected, as: UTF8.self)
            #expect(value.canonicalString() == expectedText)
            #expect(try JSONValue.parse(expected) == value, "reparse of \(expectedText)")
        }
    }

    /// Decodes the tagged form and prints `json.dumps` with canonical settings.
    private static let script = """
        import json, struct, sys
        def dec(t):
            k = t[0]
            if k == "n": return None
            if k == "b": return t[1]
            if k == "i": return int(t[1])
            if k == "d": return struct.unpack(">d", bytes.fromhex(t[1]))[0]
            if k == "s": return bytes.fromhex(t[1]).decode("utf-8")
            if k == "a": return [dec(x) for x in t[1]]
            if k == "o": return {bytes.fromhex(a).decode("utf-8"): dec(b) for a, b in t[1]}
            raise ValueError(k)
        for line in sys.stdin:
            sys.stdout.write(json.dumps(dec(json.loads(line)), sort_keys=True,
                                        separators=(",", ":"), ensure_ascii=True) + "\\n")
        """

    /// An ASCII-only tagged encoding that is trivially correct by construction.
    private static func tagged(_ value: JSONValue) -> String {
        switch value {
        case .null: return #"["n"]"#
        case .bool(let flag): return #"["b",\#(flag)]"#
        case .int(let number): return #"["i","\#(number)"]"#
        case .double(let number): return #"["d","\#(hex(number.bitPattern))"]"#
        case .string(let text): return #"["s","\#(hex(text))"]"#
        case .array(let elements): return #"["a",[\#(elements.map(tagged).joined(separator: ","))]]"#
        case .object(let members):
            let pairs = members.map { #"["\#(hex($0.key))",\#(tagged($0.value))]"# }
            return #"["o",[\#(pairs.joined(separator: ","))]]"#
        }
    }

    private static func hex(_ text: String) -> String {
        text.utf8.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
    }

    private static func hex(_ bits: UInt64) -> String {
        let digits = String(bits, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
