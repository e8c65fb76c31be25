// MARK: - JSONParser

/// A strict RFC 8259 JSON parser.
///
/// - Exactly one value, optionally surrounded by whitespace (space, tab,
///   LF, CR); anything after it is an error.
/// - A leading UTF-8 byte order mark is an error.
/// - Strings must be valid UTF-8 without raw control characters (< 0x20);
///   only the RFC escapes are accepted, and `\u` escapes must not encode
///   unpaired surrogates.
/// - Numbers follow the RFC grammar (no leading zeros, `+`, `.5`, `NaN`, …).
///   Integers without fraction or exponent that fit in `Int64` become
///   ``JSONValue/int(_:)``; all others become ``JSONValue/double(_:)``.
///   Numbers too large for a finite `Double` (e.g. `1e400`) are rejected.
/// - Arrays and objects may nest at most ``maxDepth`` levels. Parsing is
///   iterative, so even huge nesting cannot overflow the stack.
/// - For duplicate object keys the last occurrence wins.
///
/// The parser never traps on malformed input; every failure is reported as a
/// ``JSONError``.
public struct JSONParser: Sendable {
    /// The maximum number of nested arrays/objects (a top-level `[]` is depth 1).
    public var maxDepth: Int

    /// Creates a parser that allows `maxDepth` levels of nesting.
    public init(maxDepth: Int = 64) {
        self.maxDepth = maxDepth
    }

    /// Parses a complete JSON text.
    public func parse(_ bytes: some Collection<UInt8>) throws(JSONError) -> JSONValue {
        let depth = maxDepth
        if let result = bytes.withContiguousStorageIfAvailable({ buffer in
            JSONParser.parse(buffer, maxDepth: depth)
        }) {
            return try result.get()
        }
        let copy = Array(bytes)
        return try copy.withUnsafeBufferPointer { JSONParser.parse($0, maxDepth: depth) }.get()
    }

    /// Parses the UTF-8 encoding of `string`.
    public func parse(_ string: String) throws(JSONError) -> JSONValue {
        try parse(string.utf8)
    }

    private static func parse(
        _ buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int
    ) -> Result<JSONValue, JSONError> {
        var scanner = Scanner(input: buffer, maxDepth: maxDepth)
        do throws(JSONError) {
            return .success(try scanner.parseDocument())
        } catch {
            return .failure(error)
        }
    }
}

// MARK: - JSONValue entry points

extension JSONValue {
    /// Parses a complete JSON text; see ``JSONParser`` for the exact rules.
    public static func parse(_ bytes: some Collection<UInt8>, maxDepth: Int = 64) throws(JSONError) -> JSONValue {
        try JSONParser(maxDepth: maxDepth).parse(bytes)
    }

    /// Parses the UTF-8 encoding of `string`; see ``JSONParser``.
    public static func parse(_ string: String, maxDepth: Int = 64) throws(JSONError) -> JSONValue {
        try JSONParser(maxDepth: maxDepth).parse(string.utf8)
    }
}

// MARK: - Scanner

extension JSONParser {
    /// The parsing state over one contiguous input buffer.
    struct Scanner {
        let input: UnsafeBufferPointer<UInt8>
        let maxDepth: Int
        var index = 0

        init(input: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
            self.input = input
            self.maxDepth = maxDepth
        }

        // MARK: Document

        mutating func parseDocument() throws(JSONError) -> JSONValue {
            if input.count >= 3, input[0] == 0xef, input[1] == 0xbb, input[2] == 0xbf {
                throw JSONError(message: "byte order mark is not allowed", offset: 0)
            }
            skipWhitespace()
            let value = try parseValue()
            skipWhitespace()
            guard index == input.count else {
                throw error("unexpected data after the JSON value")
            }
            return value
        }

        // MARK: Values

        /// At a `[` or `{` opening a container `depth` levels deep: checks the depth,
        /// steps past it and the white space after it, and consumes `closing` when the
        /// container is empty (then returns true).
        @inline(__always)
        mutating func openContainer(depth: Int, closing: UInt8) throws(JSONError) -> Bool {
            guard depth < maxDepth else { throw error("nesting deeper than \(maxDepth) levels") }
            index += 1
            skipWhitespace()
            guard index < input.count, input[index] == closing else { return false }
            index += 1
            return true
        }

        /// Parses one value (whitespace already skipped), iteratively: open
        /// containers live on explicit stacks rather than the call stack.
        mutating func parseValue() throws(JSONError) -> JSONValue {
            var isObjectStack: [Bool] = []
            var arrays: [[JSONValue]] = []
            var objects: [[String: JSONValue]] = []
            var keys: [String] = []

            while true {
                var value: JSONValue
                guard index < input.count else { throw error("unexpected end of input") }
                switch input[index] {
                case UInt8(ascii: "["):
                    if try openContainer(depth: isObjectStack.count, closing: UInt8(ascii: "]")) {
                        value = .array([])
                    } else {
                        isObjectStack.append(false)
                        arrays.append([])
                        continue
                    }
                case UInt8(ascii: "{"):
                    if try openContainer(depth: isObjectStack.count, closing: UInt8(ascii: "}")) {
                        value = .object([:])
                    } else {
                        keys.append(try parseKey())
                        isObjectStack.append(true)
                        objects.append([:])
                        continue
                    }
                case UInt8(ascii: "\""):
                    value = .string(try parseString())
                case UInt8(ascii: "t"):
                    try expectLiteral("true")
                    value = .bool(true)
                case UInt8(ascii: "f"):
                    try expectLiteral("false")
                    value = .bool(false)
                case UInt8(ascii: "n"):
                    try expectLiteral("null")
                    value = .null
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    value = try parseNumber()
                default:
                    throw error("unexpected character")
                }

                // Store the value in its container; close finished containers.
                while true {
                    guard let isObject = isObjectStack.last else { return value }
                    skipWhitespace()
                    guard index < input.count else { throw error("unexpected end of input") }
                    let byte = input[index]
                    if isObject {
                        objects[objects.count - 1][keys.removeLast()] = value
                        if byte == UInt8(ascii: ",") {
                            index += 1
                            skipWhitespace()
                            keys.append(try parseKey())
                            break
                        }
                        guard byte == UInt8(ascii: "}") else { throw error("expected ',' or '}' in object") }
                        index += 1
                        isObjectStack.removeLast()
                        value = .object(objects.removeLast())
                    } else {
                        arrays[arrays.count - 1].append(value)
                        if byte == UInt8(ascii: ",") {
                            index += 1
                            skipWhitespace()
                            break
                        }
                        guard byte == UInt8(ascii: "]") else { throw error("expected ',' or ']' in array") }
                        index += 1
                        isObjectStack.removeLast()
                        value = .array(arrays.removeLast())
                    }
                }
            }
        }

        /// Parses `"key"` `:` and the whitespace after the colon.
        private mutating func parseKey() throws(JSONError) -> String {
            guard index < input.count else { throw error("unexpected end of input") }
            guard input[index] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard index < input.count else { throw error("unexpected end of input") }
            guard input[index] == UInt8(ascii: ":") else { throw error("expected ':' after object key") }
            index += 1
            skipWhitespace()
            return key
        }

        /// Consumes `literal` (`true`, `false` or `null`).
        private mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
            let count = literal.utf8CodeUnitCount
            let matches = literal.withUTF8Buffer { expected in
                guard input.count - index >= count else { return false }
                for offset in 0..<count where input[index + offset] != expected[offset] {
                    return false
                }
                return true
            }
            guard matches else { throw error("invalid literal") }
            index += count
        }

        // MARK: Helpers

        mutating func skipWhitespace() {
            while index < input.count {
                switch input[index] {
                case 0x20, 0x0a, 0x0d, 0x09: index += 1
                default: return
                }
            }
        }

        /// An error at the current position.
        func error(_ message: String) -> JSONError {
            JSONError(message: message, offset: index)
        }
    }
}
