extension VEventReader {
    /// A template's placeholder where a UID belongs (`$uid`, `${uid}`, `{{uid}}`, `%UID%`):
    /// a file written to be filled in, whose events would all share one made-up identity.
    static func isPlaceholder(_ uid: String) -> Bool {
        let u = uid.trimmingSpaces()
        func isName(_ s: Substring) -> Bool { !s.isEmpty && s.allSatisfy { $0.isLetter || $0 == "_" || $0.isNumber } }
        if u.hasPrefix("${"), u.hasSuffix("}") { return isName(u.dropFirst(2).dropLast()) }
        if u.hasPrefix("{{"), u.hasSuffix("}}") { return isName(u.dropFirst(2).dropLast(2).drop(while: { $0 == " " }).prefix(while: { $0 != " " })) }
        if u.hasPrefix("%"), u.hasSuffix("%"), u.count > 2 { return isName(u.dropFirst().dropLast()) }
        if u.hasPrefix("$") { return isName(u.dropFirst()) }
        return false
    }

    /// The UID as written. libical drops the white space at the end of a value, but a UID
    /// is TEXT (RFC 5545 3.8.4.7, 3.3.11): every character is part of the identifier, and
    /// other readers keep it (`UID:only-dst@example.com ` is not `only-dst@example.com`).
    /// `parsed` is libical's value; the spaces and tabs it dropped are put back.
    static func exactUID(_ parsed: String, in text: String) -> String {
        var result = parsed
        text.utf8.withContiguousStorageIfAvailable { block in
            guard let raw = rawUIDValue(block) else { return }
            var kept = raw.count
            while kept > 0, raw[kept - 1] == 32 || raw[kept - 1] == 9 { kept -= 1 }
            guard kept < raw.count, String(decoding: raw[..<kept], as: UTF8.self) == parsed else { return }
            result = parsed + String(decoding: raw[kept...], as: UTF8.self)
        }
        return result
    }

    /// The unfolded bytes after the `:` of the block's first `UID` line, when they end in
    /// white space (nil otherwise, without copying anything: nearly every UID).
    static func rawUIDValue(_ block: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var i = 0
        while i + 3 < block.count {
            if i == 0 || block[i - 1] == 10 || block[i - 1] == 13,
               ParserFeed.upper(block[i]) == 85, ParserFeed.upper(block[i + 1]) == 73, ParserFeed.upper(block[i + 2]) == 68,
               block[i + 3] == 58 || block[i + 3] == 59 {
                var line = ParserFeed.UnfoldedLine(block, at: i + 3)
                var quoted = false
                while let byte = line.next(), quoted || byte != 58 {
                    if byte == 34 { quoted.toggle() }
                }
                let valueStart = line
                var trailing = 0
                while let byte = line.next() { trailing = byte == 32 || byte == 9 ? trailing + 1 : 0 }
                guard trailing > 0 else { return nil }
                line = valueStart
                var value: [UInt8] = []
                while let byte = line.next() { value.append(byte) }
                return value
            }
            i += 1
        }
        return nil
    }
}
