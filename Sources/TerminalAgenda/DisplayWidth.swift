/// Terminal columns of text, with `wcwidth` semantics: what a terminal (and curses)
/// advances the cursor by for each code point, summed over a string.
///
/// The sum over scalars, not a guess per grapheme, is on purpose: curses places the
/// cursor by `wcwidth` of each scalar, so a row measured any other way would end where
/// the screen does not think it ends, and the line would wrap.
public enum DisplayWidth {
    /// Columns of one scalar: 0 for combining marks, format and control characters,
    /// 2 for East Asian wide and full-width characters and emoji presentation, else 1.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x7F { return v >= 0x20 ? 1 : 0 }
        if v < 0xA0 { return 0 }
        if v == 0x00AD { return 1 }
        if (0x1160...0x11FF).contains(v) || v == 0x200B { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control:
            return 0
        default:
            break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        return isWide(v) ? 2 : 1
    }

    /// Columns of `text`.
    public static func of(_ text: some StringProtocol) -> Int {
        var total = 0
        for scalar in text.unicodeScalars { total += of(scalar) }
        return total
    }

    /// Columns of one grapheme cluster.
    static func of(_ character: Character) -> Int {
        var total = 0
        for scalar in character.unicodeScalars { total += of(scalar) }
        return total
    }

    /// The longest prefix of `text` that fits in `columns`, cut between grapheme
    /// clusters (never inside one), with `…` in place of what did not fit; and its width.
    public static func truncate(_ text: String, to columns: Int) -> (text: String, width: Int) {
        guard columns > 0 else { return ("", 0) }
        let full = of(text)
        if full <= columns { return (text, full) }
        var out = ""
        var width = 0
        // One column is kept for the ellipsis.
        for character in text {
            let w = of(character)
            if width + w > columns - 1 { break }
            out.append(character)
            width += w
        }
        return (out + "…", width + 1)
    }

    /// `text` cut to `columns` as `truncate` does, then padded with spaces to exactly
    /// `columns` (a wide character that would straddle the edge leaves a space instead).
    public static func fit(_ text: String, to columns: Int) -> String {
        let (cut, width) = truncate(text, to: columns)
        return cut + String(repeating: " ", count: max(0, columns - width))
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges outside emoji presentation, as
    /// glibc's `wcwidth` counts them (Unicode 15).
    static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
        0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
        0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
        0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F200...0x1F251, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    static func isWide(_ v: UInt32) -> Bool {
        guard v >= 0x1100 else { return false }
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let range = wideRanges[mid]
            if v < range.lowerBound { high = mid - 1 } else if v > range.upperBound { low = mid + 1 } else { return true }
        }
        return false
    }
}
