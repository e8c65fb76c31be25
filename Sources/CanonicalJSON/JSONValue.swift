// MARK: - JSONValue

/// A JSON document held in memory.
///
/// Integers that fit in `Int64` are kept exactly as ``int(_:)``; every other
/// number is a ``double(_:)``. Note that `.int(1)` and `.double(1)` are
/// different values (they also serialize differently: `1` vs `1.0`).
///
/// Objects are Swift dictionaries, so two keys that Swift considers equal
/// (canonically equivalent strings such as `"é"` and `"e\u{301}"`) cannot both
/// be present; when parsing, the last one wins.
///
/// Serialize with ``canonicalBytes()`` / ``canonicalString()``, parse with
/// ``parse(_:maxDepth:)``.
public enum JSONValue: Equatable, Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer that fits in 64 bits.
    case int(Int64)
    /// Any other number. Non-finite values cannot be represented in JSON and
    /// serialize as `null`.
    case double(Double)
    /// A string.
    case string(String)
    /// An ordered list of values.
    case array([JSONValue])
    /// A map from keys to values; key order is not significant.
    case object([String: JSONValue])
}

// MARK: - Accessors

extension JSONValue {
    /// The member named `key` if this is an object that has it, else `nil`.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The element at `index` if this is an array and `index` is in range,
    /// else `nil`.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The payload of a ``string(_:)``, else `nil`.
    public var stringValue: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    /// The payload of an ``int(_:)``, else `nil` (doubles are not converted).
    public var intValue: Int64? {
        guard case .int(let value) = self else { return nil }
        return value
    }

    /// The numeric value of an ``int(_:)`` or ``double(_:)``, else `nil`.
    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    /// The payload of a ``bool(_:)``, else `nil`.
    public var boolValue: Bool? {
        guard case .bool(let value) = self else { return nil }
        return value
    }

    /// The elements of an ``array(_:)``, else `nil`.
    public var arrayValue: [JSONValue]? {
        guard case .array(let value) = self else { return nil }
        return value
    }

    /// The members of an ``object(_:)``, else `nil`.
    public var objectValue: [String: JSONValue]? {
        guard case .object(let value) = self else { return nil }
        return value
    }

    /// Whether this is ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

// MARK: - Literals

// Each literal makes the case of its kind, so tests and messages can write JSON inline.
extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    /// Creates ``null``.
    public init(nilLiteral: ()) { self = .null }
    /// Creates a ``bool(_:)``.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// Creates an ``int(_:)``.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// Creates a ``double(_:)``.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// Creates a ``string(_:)``.
    public init(stringLiteral value: String) { self = .string(value) }
    /// Creates an ``array(_:)``.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }

    /// Creates an ``object(_:)``; for repeated keys the last value wins.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

// MARK: - Description

extension JSONValue: CustomStringConvertible {
    /// The canonical serialization (see ``canonicalString()``).
    public var description: String {
        canonicalString()
    }
}

// MARK: - JSONError

/// A JSON parse failure: what went wrong and where.
public struct JSONError: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// A human-readable explanation, e.g. `"unterminated string"`.
    public var message: String

    /// The zero-based byte offset in the input at which the problem was
    /// detected.
    public var offset: Int

    /// Creates an error with `message` at byte `offset`.
    public init(message: String, offset: Int) { (self.message, self.offset) = (message, offset) }

    /// `"<message> at byte <offset>"`.
    public var description: String {
        "\(message) at byte \(offset)"
    }
}

// MARK: - Canonical serialization

extension JSONValue {
    /// The canonical UTF-8 (in fact pure ASCII) serialization of this value.
    ///
    /// The output is byte-for-byte what Python produces with
    /// `json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)`:
    ///
    /// - no whitespace;
    /// - object keys sorted by Unicode scalar value (Python's `str` order,
    ///   which differs from UTF-16 order and from Swift's `String` `<`);
    /// - strings escaped as described in ``JSONWriter/escape(_:into:)``;
    /// - integers in decimal; doubles as Python's `repr(float)` (`1.0`,
    ///   `1e+16`, `1e-05`, `-0.0`).
    ///
    /// - Important: JSON has no NaN or infinity. Unlike Python (which would
    ///   emit the non-standard `NaN` / `Infinity`), non-finite doubles are
    ///   serialized as `null`.
    public func canonicalBytes() -> [UInt8] {
        var writer = JSONWriter()
        writer.value(self)
        return writer.bytes
    }

    /// The canonical serialization as a `String`; see ``canonicalBytes()``.
    public func canonicalString() -> String {
        String(decoding: canonicalBytes(), as: UTF8.self)
    }
}
