/// The lines of a VEVENT block that libical is given to parse: all of them but the
/// properties eventd never reads and whose parse cannot fail.
///
/// Issue 12: libical's parse of each block was most of an import's CPU, and much of
/// that went to reading long text eventd does not use: in the bench's generated file,
/// `DESCRIPTION` lines are a fifth of the bytes (3% of the lines), and real exports carry
/// more (meeting invitations, `X-` properties of every vendor). What libical is not given
/// cannot change the record: the stored text is the block's own bytes (and its digest
/// and fingerprint are taken from them), and eventd reads none of these properties.
///
/// Nor can it change the warnings: a line is left out only when libical could not have
/// reported it. Such a line is directly inside the VEVENT (not in a VALARM), is made of
/// letters, digits and hyphens followed at once by `:` (no parameters, which libical
/// could find malformed), and is named in `unreadNames` or is an `X-` name other than
/// `X-LIC-…` (libical reports those as errors). For these properties libical accepts
/// any value (libical's `icalvalue_new_from_string_with_error`): TEXT, CAL-ADDRESS and
/// URI values are copied, an unknown TRANSP or CLASS becomes an `X` value, PRIORITY is
/// read by `atoi`, an `X-` value is text; an empty one it reports as "No value for…",
/// which `VEventReader` ignores, as it ignores lower-case `x-` names ("Parse error in
/// property name"). `ParserFeedTests` compares the records and warnings of whole files
/// read with and without the filter.
enum ParserFeed {
    /// Appends the lines of `block` that libical should parse to `out`, with their
    /// folded continuations and line ends.
    @Sendable static func append(_ block: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var depth = 0
        var skipping = false
        var start = 0
        while start < block.count {
            let end = (ByteSearch.firstIndex(of: 10, in: block, from: start, to: block.count) ?? block.count - 1) + 1
            let first = block[start]
            if first == 32 || first == 9 {
                // A continuation belongs to the line it continues.
                if !skipping { out.append(contentsOf: UnsafeBufferPointer(rebasing: block[start..<end])) }
                start = end
                continue
            }
            skipping = depth == 1 && isUnread(block, from: start, to: end)
            if !skipping {
                if hasPrefix(block, start, end, "BEGIN:") {
                    depth += 1
                } else if hasPrefix(block, start, end, "END:") {
                    depth -= 1
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: block[start..<end]))
            }
            start = end
        }
    }

    /// Appends every line of `block` to `out` (what libical was given before the filter).
    @Sendable static func appendAll(_ block: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(contentsOf: block)
    }

    /// Whether the content line starting at `from` is one libical need not see.
    static func isUnread(_ block: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Bool {
        var i = from
        while i < to, isNameByte(block[i]) { i += 1 }
        guard i > from, i < to, block[i] == UInt8(ascii: ":") else { return false }
        let length = i - from
        if length > 2, upper(block[from]) == UInt8(ascii: "X"), block[from + 1] == UInt8(ascii: "-") {
            return !(length >= 6 && hasPrefix(block, from, i, "X-LIC-"))
        }
        for name in unreadNames where name.utf8CodeUnitCount == length {
            if hasPrefix(block, from, i, name) { return true }
        }
        return false
    }

    /// The standard properties eventd does not read whose values libical cannot reject
    /// (ASCII capitals).
    static let unreadNames: [StaticString] = [
        "DESCRIPTION", "COMMENT", "CATEGORIES", "CONTACT", "RESOURCES", "ATTENDEE", "ORGANIZER", "URL", "ATTACH",
        "TRANSP", "CLASS", "PRIORITY",
    ]

    @inline(__always)
    private static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D
    }

    @inline(__always)
    private static func upper(_ b: UInt8) -> UInt8 {
        b >= 0x61 && b <= 0x7A ? b - 32 : b
    }

    /// Whether `block[from..<to]` starts with `prefix` (ASCII capitals), in any case.
    private static func hasPrefix(_ block: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard to - from >= count else { return false }
        let p = prefix.utf8Start
        for k in 0..<count where upper(block[from + k]) != p[k] { return false }
        return true
    }
}
