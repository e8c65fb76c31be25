/// Text from calendars made safe to print on a terminal (docs/data-model.md).
///
/// Whoever writes a calendar (a published link, an invitation) chooses its summaries,
/// locations and names; printed raw, an `ESC [` sequence recolours the reader's
/// terminal and an OSC sequence retitles it or worse. Every human-readable output
/// passes calendar text through `sanitized(_:)`; JSON and NDJSON stay exact (their
/// encoder escapes control characters already).
///
/// - Tab, line feed, carriage return, vertical tab, form feed, NEL (U+0085) and the
///   line and paragraph separators (U+2028, U+2029) become a space: one item, one line.
/// - Every other C0 control and DEL is shown in caret notation, as `cat -v` shows it:
///   ESC as `^[`, NUL as `^@`, DEL as `^?`.
/// - C1 controls (U+0080–U+009F) and the bidirectional embeddings, overrides and
///   isolates (U+202A–U+202E, U+2066–U+2069), which reorder what follows them on the
///   line, become U+FFFD (`�`).
public enum TerminalText {
    /// `text` with every control and bidirectional override replaced (see the type).
    public static func sanitized(_ text: String) -> String {
        guard needsWork(text) else { return text }
        var out = String.UnicodeScalarView()
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09...0x0D, 0x85, 0x2028, 0x2029:
                out.append(" ")
            case 0x00...0x1F:
                out.append("^")
                out.append(Unicode.Scalar(UInt8(scalar.value + 0x40)))
            case 0x7F:
                out.append("^")
                out.append("?")
            case 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069:
                out.append("\u{FFFD}")
            default:
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Whether `text` holds anything `sanitized` replaces: a scan of its UTF-8 bytes
    /// for the lead bytes of those characters, so clean text (nearly all of it) is
    /// returned as it is.
    static func needsWork(_ text: String) -> Bool {
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case 0x00...0x1F, 0x7F:
                return true
            case 0xC2:
                // U+0080–U+009F: C2 80 … C2 9F.
                if let next = iterator.next(), next >= 0x80, next <= 0x9F { return true }
            case 0xE2:
                // U+2028–U+202E: E2 80 A8 … E2 80 AE; U+2066–U+2069: E2 81 A6 … E2 81 A9.
                guard let second = iterator.next(), let third = iterator.next() else { return false }
                if second == 0x80, third >= 0xA8, third <= 0xAE { return true }
                if second == 0x81, third >= 0xA6, third <= 0xA9 { return true }
            default:
                continue
            }
        }
        return false
    }
}

extension String {
    /// This text made safe to print on a terminal (`TerminalText.sanitized`).
    public var terminalSafe: String { TerminalText.sanitized(self) }
}
