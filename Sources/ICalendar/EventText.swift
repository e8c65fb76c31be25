/// The `DESCRIPTION` and `URL` of a VEVENT, read from its own text.
///
/// libical is not given these lines (`ParserFeed`: they are much of an import's bytes),
/// so they are read here, from the block's bytes: the first of each directly inside the
/// VEVENT (a VALARM's `DESCRIPTION` is not the event's), unfolded; the description
/// unescaped as a TEXT value, the URL trimmed. The same reading serves an import and
/// the schema migration that fills rows imported before (from their stored text).
public enum EventText {
    /// The description and URL of the VEVENT `text`; nil for what it lacks or leaves empty.
    public static func descriptionAndURL(_ text: String) -> (description: String?, url: String?) {
        var text = text
        return text.withUTF8 { read($0) }
    }

    static func read(_ block: UnsafeBufferPointer<UInt8>) -> (description: String?, url: String?) {
        var description: [UInt8]?, url: [UInt8]?
        // Which value the current logical line feeds: 1 description, 2 URL, 0 neither.
        var target = 0
        ParserFeed.forEachLine(block) { start, end, depth in
            var stop = end
            if stop > start, block[stop - 1] == 10 { stop -= 1 }
            if stop > start, block[stop - 1] == 13 { stop -= 1 }
            let first = block[start]
            if first == 32 || first == 9 {
                // A continuation: its first space or tab is the fold's.
                if target == 1 { description!.append(contentsOf: block[(start + 1)..<max(start + 1, stop)]) }
                if target == 2 { url!.append(contentsOf: block[(start + 1)..<max(start + 1, stop)]) }
                return true
            }
            target = 0
            guard depth == 1 else { return true }
            if description == nil, let at = valueStart(block, start, stop, "DESCRIPTION") {
                description = Array(block[at..<stop]); target = 1
            } else if url == nil, let at = valueStart(block, start, stop, "URL") {
                url = Array(block[at..<stop]); target = 2
            }
            return true
        }
        let d = description.map { unescaped($0) }.flatMap { $0.isEmpty ? nil : $0 }
        let u = url.map { String(decoding: $0, as: UTF8.self).trimmingSpaces() }.flatMap { $0.isEmpty ? nil : $0 }
        return (d, u)
    }

    /// Where the value of a `name` line from `start` begins (after the first `:` outside
    /// quoted parameter values); nil when the line is another property's.
    private static func valueStart(_ block: UnsafeBufferPointer<UInt8>, _ start: Int, _ stop: Int, _ name: StaticString) -> Int? {
        let count = name.utf8CodeUnitCount
        guard stop - start > count else { return nil }
        let p = name.utf8Start
        for k in 0..<count where ParserFeed.upper(block[start + k]) != p[k] { return nil }
        let next = block[start + count]
        guard next == UInt8(ascii: ":") || next == UInt8(ascii: ";") else { return nil }
        var quoted = false
        for i in (start + count)..<stop {
            if block[i] == UInt8(ascii: "\"") { quoted.toggle() }
            if !quoted, block[i] == UInt8(ascii: ":") { return i + 1 }
        }
        return nil
    }

    /// A TEXT value unescaped (RFC 5545 3.3.11): `\n` and `\N` a line break, `\,` `\;`
    /// `\\` the character; another backslash is kept.
    static func unescaped(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\\"), i + 1 < bytes.count {
                let n = bytes[i + 1]
                switch n {
                case UInt8(ascii: "n"), UInt8(ascii: "N"): out.append(10); i += 2; continue
                case UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\\"): out.append(n); i += 2; continue
                default: break
                }
            }
            out.append(b)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
