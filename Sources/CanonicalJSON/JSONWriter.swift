// MARK: - JSONWriter

/// A fast, low-level streaming writer of compact canonical JSON.
///
/// The output matches Python's
/// `json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)`
/// byte for byte, provided that object keys are written in sorted order
/// (by Unicode scalar value, which is the same as UTF-8 byte order). The
/// writer does not sort keys itself — ``value(_:)`` does, for embedded
/// ``JSONValue`` objects.
///
/// Commas and colons are inserted automatically:
///
/// ```swift
/// var writer = JSONWriter()
/// writer.beginObject()
/// writer.key("id");   writer.int(7)
/// writer.key("tags"); writer.beginArray(); writer.string("a"); writer.endArray()
/// writer.endObject()
/// writer.string  // {"id":7,"tags":["a"]}
/// ```
///
/// The writer does not validate structure (e.g. a missing `key` inside an
/// object); it is meant to be driven by code, not by untrusted input.
public struct JSONWriter: Sendable {
    // MARK: - State

    /// The bytes written so far (UTF-8, in fact pure ASCII).
    public private(set) var bytes: [UInt8]

    /// Whether the next value or key must be preceded by a comma.
    private var needsComma = false

    // MARK: - Initialization

    /// Creates a writer with an empty buffer.
    public init() {
        bytes = []
    }

    /// Creates a writer with an empty buffer that has room for at least
    /// `capacity` bytes.
    public init(reservingCapacity capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Creates a writer that appends to existing `bytes`.
    ///
    /// The existing content is treated as opaque; the first thing written is
    /// not preceded by a comma.
    public init(appendingTo bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The output decoded as a `String`.
    public var string: String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Returns the output and leaves the writer empty and ready for a new
    /// top-level value.
    public mutating func takeBytes() -> [UInt8] {
        needsComma = false
        let result = bytes
        bytes = []
        return result
    }

    // MARK: - Structure

    /// Writes `{`.
    public mutating func beginObject() { open(UInt8(ascii: "{")) }

    /// Writes `}`.
    public mutating func endObject() { close(UInt8(ascii: "}")) }

    /// Writes `[`.
    public mutating func beginArray() { open(UInt8(ascii: "[")) }

    /// Writes `]`.
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Opens a container: its first member needs no comma.
    @inline(__always)
    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        needsComma = false
    }

    /// Closes a container: it is a value, so what follows needs a comma.
    @inline(__always)
    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        needsComma = true
    }

    /// Writes an object key followed by `:`.
    ///
    /// Keys of one object must be passed in ascending Unicode-scalar order
    /// (the order of their UTF-8 bytes) for the output to be canonical.
    public mutating func key(_ key: String) {
        separate()
        JSONWriter.escape(key, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    // MARK: - Scalars

    /// Writes a string, escaped as with `ensure_ascii=True`.
    public mutating func string(_ value: String) {
        scalar { JSONWriter.escape(value, into: &$0) }
    }

    /// Writes an integer in decimal.
    public mutating func int(_ value: Int64) {
        scalar { JSONWriter.appendDecimal(value, into: &$0) }
    }

    /// Writes an integer in decimal.
    public mutating func int(_ value: Int) {
        int(Int64(value))
    }

    /// Writes a double as Python's `repr(float)` does (`1.0`, `1e+16`,
    /// `1e-05`, …). NaN and infinities have no JSON form and are written as
    /// `null`.
    public mutating func double(_ value: Double) {
        scalar { JSONWriter.appendDouble(value, into: &$0) }
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        scalar { $0.append(contentsOf: value ? [0x74, 0x72, 0x75, 0x65] : [0x66, 0x61, 0x6c, 0x73, 0x65]) } // true, false
    }

    /// Writes `null`.
    public mutating func null() {
        scalar { $0.append(contentsOf: [0x6e, 0x75, 0x6c, 0x6c]) } // null
    }

    /// Writes already-serialised JSON (one complete value) as the next value.
    public mutating func raw(_ json: [UInt8]) {
        scalar { $0.append(contentsOf: json) }
    }

    /// Writes one value that is not a container: a comma first when needed, then
    /// `write`'s bytes.
    @inline(__always)
    private mutating func scalar(_ write: (inout [UInt8]) -> Void) {
        separate()
        write(&bytes)
        needsComma = true
    }

    // MARK: - Values

    /// Writes `value` canonically: object members sorted by key (Unicode
    /// scalar order), doubles as Python `repr`, non-finite doubles as `null`.
    public mutating func value(_ value: JSONValue) {
        switch value {
        case .null:
            null()
        case .bool(let flag):
            bool(flag)
        case .int(let number):
            int(number)
        case .double(let number):
            double(number)
        case .string(let text):
            string(text)
        case .array(let elements):
            beginArray()
            for element in elements {
                self.value(element)
            }
            endArray()
        case .object(let members):
            beginObject()
            for (name, member) in JSONWriter.sortedMembers(members) {
                key(name)
                self.value(member)
            }
            endObject()
        }
    }

    /// The members of an object in canonical key order: ascending by Unicode
    /// scalar values, i.e. by UTF-8 bytes (as Python sorts `str`).
    internal static func sortedMembers(
        _ members: [String: JSONValue]
    ) -> [(key: String, value: JSONValue)] {
        members.sorted { lhs, rhs in
            lhs.key.utf8.lexicographicallyPrecedes(rhs.key.utf8)
        }
    }

    // MARK: - Helpers

    /// Appends a comma if the previous token calls for one.
    @inline(__always)
    private mutating func separate() {
        if needsComma {
            bytes.append(UInt8(ascii: ","))
        }
    }
}
