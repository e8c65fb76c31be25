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
