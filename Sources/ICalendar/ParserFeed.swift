/// The lines of a VEVENT block that libical is given to parse: all of them but the
/// properties eventd never reads and whose parse cannot fail.
///
/// libical's parse of each block was most of an import's CPU, and much of
/// that went to reading long text eventd does not use: in the bench's generated file,
/// `DESCRIPTION` lines are a fifth of the bytes (3% of the lines), and real exports carry
/// more (meeting invitations, `X-` properties of every vendor). What libical is not given
/// cannot change the record: the stored text is the block's own bytes (and its digest
/// and fingerprint are taken from them), and eventd reads none of these properties.
///
/// Nor can it change the warnings: a line is left out only when libical could not have
/// reported it. Such a line is directly inside the VEVENT (not in a VALARM) and named in
/// `unreadNames` or with an `X-` name other than `X-LIC-…` (libical reports those as
/// errors). For these properties libical accepts any value (libical's
/// `icalvalue_new_from_string_with_error`): TEXT, CAL-ADDRESS and URI values are
/// copied, an unknown TRANSP or CLASS becomes an `X` value, PRIORITY is read by `atoi`,
/// an `X-` value is text; an empty one it reports as "No value for…", which
/// `VEventReader` ignores, as it ignores lower-case `x-` names ("Parse error in property
/// name"). So is `CREATED`, and `DTSTAMP` where a `LAST-MODIFIED` is read instead, with
/// a plain UTC value (`isUnreadTimestamp`). Its parameters, if any, must be well formed
/// as `ParameterList` reads them;
/// libical accepts any name and value there but for `VALUE` (a value type the property
/// may not have). `ParserFeedTests` compares the records and warnings of whole files,
/// and of random lines, read with and without the filter.
enum ParserFeed {
    /// Appends the lines of `block` that libical should parse to `out`, with their
    /// folded continuations and line ends.
    @Sendable static func append(_ block: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var skipping = false
        var lastModified: Bool?
        forEachLine(block) { start, end, depth in
            let first = block[start]
            // A continuation belongs to the line it continues.
            if first != 32 && first != 9 {
                skipping = depth == 1
                    && (isUnread(block, from: start) || isUnreadTimestamp(block, from: start, end: end, lastModified: &lastModified))
            }
            if !skipping { out.append(contentsOf: UnsafeBufferPointer(rebasing: block[start..<end])) }
            return true
        }
    }

    /// Calls `body` with each physical line of `block` (its start, and its end just after
    /// its LF) and the depth of components it is in before it: 1 for the VEVENT's own
    /// lines, its BEGIN and END at 0 and 1. Stops when `body` returns false.
    static func forEachLine(_ block: UnsafeBufferPointer<UInt8>, _ body: (_ start: Int, _ end: Int, _ depth: Int) -> Bool) {
        var depth = 0
        var start = 0
        while start < block.count {
            let end = (ByteSearch.firstIndex(of: 10, in: block, from: start, to: block.count) ?? block.count - 1) + 1
            guard body(start, end, depth) else { return }
            if hasPrefix(block, start, end, "BEGIN:") {
                depth += 1
            } else if hasPrefix(block, start, end, "END:") {
                depth -= 1
            }
            start = end
        }
    }

    /// Appends every line of `block` to `out` (what libical was given before the filter).
    @Sendable static func appendAll(_ block: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(contentsOf: block)
    }

    /// Whether the content line starting at `from` is one libical need not see. Its name
    /// is read from the bytes as they are (a name split by a fold keeps its line), its
    /// parameters across folds.
    static func isUnread(_ block: UnsafeBufferPointer<UInt8>, from: Int) -> Bool {
        var i = from
        while i < block.count, CalendarScanner.isNameByte(block[i]) { i += 1 }
        guard i > from, i < block.count, block[i] == UInt8(ascii: ":") || block[i] == UInt8(ascii: ";"),
              isUnreadName(block, from, i) else { return false }
        guard block[i] == UInt8(ascii: ";") else { return true }
        var line = UnfoldedLine(block, at: i + 1)
        return ParameterList.isHarmless(&line, attachValue: i - from == 6 && hasPrefix(block, from, i, "ATTACH"))
    }

    /// Whether `block[from..<to]` names a property eventd does not read and libical
    /// accepts with any value.
    static func isUnreadName(_ block: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Bool {
        let length = to - from
        if length > 2, upper(block[from]) == UInt8(ascii: "X"), block[from + 1] == UInt8(ascii: "-") {
            return !(length >= 6 && hasPrefix(block, from, to, "X-LIC-"))
        }
        for name in unreadNames where name.utf8CodeUnitCount == length {
            if hasPrefix(block, from, to, name) { return true }
        }
        return false
    }

    /// Whether the line is `CREATED`, or `DTSTAMP` in a block with a `LAST-MODIFIED`
    /// (`VEventReader` reads DTSTAMP only without one), with a plain UTC DATE-TIME
    /// (`isPlainUTC`), which libical reads without complaint whatever its digits.
    /// `lastModified` remembers whether the block has a LAST-MODIFIED libical keeps.
    static func isUnreadTimestamp(_ block: UnsafeBufferPointer<UInt8>, from: Int, end: Int,
                                  lastModified: inout Bool?) -> Bool {
        if hasPrefix(block, from, end, "CREATED:") { return isPlainUTC(block, at: from + 8, end: end) }
        guard hasPrefix(block, from, end, "DTSTAMP:"), isPlainUTC(block, at: from + 8, end: end) else { return false }
        if lastModified == nil { lastModified = hasPlainLastModified(block) }
        return lastModified!
    }

    /// Whether the VEVENT itself (not a component in it) has a `LAST-MODIFIED` with a
    /// plain UTC DATE-TIME: libical keeps that property, so DTSTAMP goes unread.
    static func hasPlainLastModified(_ block: UnsafeBufferPointer<UInt8>) -> Bool {
        var found = false
        forEachLine(block) { start, end, depth in
            found = depth == 1 && hasPrefix(block, start, end, "LAST-MODIFIED:") && isPlainUTC(block, at: start + 14, end: end)
            return !found
        }
        return found
    }

    /// Whether the value at `at`, up to the line's end at `end` (just after its LF), is
    /// exactly `YYYYMMDDTHHMMSSZ` with no fold after it.
    static func isPlainUTC(_ block: UnsafeBufferPointer<UInt8>, at: Int, end: Int) -> Bool {
        var valueEnd = end
        if valueEnd > at, block[valueEnd - 1] == 10 { valueEnd -= 1 }
        if valueEnd > at, block[valueEnd - 1] == 13 { valueEnd -= 1 }
        guard valueEnd - at == 16, block[at + 8] == UInt8(ascii: "T"), block[at + 15] == UInt8(ascii: "Z"),
              end >= block.count || (block[end] != 32 && block[end] != 9) else { return false }
        for k in at..<(at + 15) where k != at + 8 {
            guard block[k] >= 0x30, block[k] <= 0x39 else { return false }
        }
        return true
    }

    /// The standard properties eventd does not read whose values libical cannot reject
    /// (ASCII capitals).
    static let unreadNames: [StaticString] = [
        "DESCRIPTION", "COMMENT", "CATEGORIES", "CONTACT", "RESOURCES", "ATTENDEE", "ORGANIZER", "URL", "ATTACH",
        "TRANSP", "CLASS", "PRIORITY",
    ]

    @inline(__always)
    static func upper(_ b: UInt8) -> UInt8 {
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
