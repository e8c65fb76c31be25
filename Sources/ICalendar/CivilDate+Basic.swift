/// The iCalendar basic forms (`YYYYMMDD`, `YYYYMMDDTHHMMSS`), written digit by digit
/// into one string.
///
/// Built from six padded `String`s and their concatenations, `TimeValue.encoded`
/// cost about 5,000 instructions per event in an import's writer (callgrind), more than
/// binding the whole row. Fields outside their usual widths (a year past 9999, a
/// negative or three-digit field in a date read but not valid) keep the padded form.
extension CivilDate {
    /// Whether every field fits its fixed width.
    var fitsBasicWidths: Bool {
        (0...9999).contains(year) && (0...99).contains(month) && (0...99).contains(day)
    }

    /// Writes `YYYYMMDD` at `p` (8 bytes); the fields must fit (`fitsBasicWidths`).
    @inline(__always)
    func writeBasic(to p: UnsafeMutablePointer<UInt8>) {
        writeDigits(year, count: 4, to: p)
        writeDigits(month, count: 2, to: p + 4)
        writeDigits(day, count: 2, to: p + 6)
    }
}

extension CivilDateTime {
    /// Whether every field fits its fixed width.
    var fitsBasicWidths: Bool {
        date.fitsBasicWidths && (0...99).contains(hour) && (0...99).contains(minute) && (0...99).contains(second)
    }

    /// Writes `YYYYMMDDTHHMMSS` at `p` (15 bytes); the fields must fit (`fitsBasicWidths`).
    @inline(__always)
    func writeBasic(to p: UnsafeMutablePointer<UInt8>) {
        date.writeBasic(to: p)
        p[8] = UInt8(ascii: "T")
        writeDigits(hour, count: 2, to: p + 9)
        writeDigits(minute, count: 2, to: p + 11)
        writeDigits(second, count: 2, to: p + 13)
    }

    /// `basic` followed by `suffix` (`Z`, or `@` and a zone key), as one string.
    func basic(followedBy first: UInt8, _ rest: String = "") -> String {
        guard fitsBasicWidths else { return basic + String(decoding: [first], as: UTF8.self) + rest }
        var rest = rest
        return rest.withUTF8 { tail in
            String(unsafeUninitializedCapacity: 16 + tail.count) { buffer in
                let p = buffer.baseAddress!
                writeBasic(to: p)
                p[15] = first
                if let base = tail.baseAddress { (p + 16).update(from: base, count: tail.count) }
                return 16 + tail.count
            }
        }
    }
}

/// Writes `value` (0 ≤ value < 10^count) as exactly `count` decimal digits at `p`.
@inline(__always)
func writeDigits(_ value: Int, count: Int, to p: UnsafeMutablePointer<UInt8>) {
    var v = value
    var i = count - 1
    while i >= 0 {
        p[i] = UInt8(truncatingIfNeeded: 48 + v % 10)
        v /= 10
        i -= 1
    }
}
