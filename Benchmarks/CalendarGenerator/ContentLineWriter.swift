// MARK: - ContentLineWriter

/// Builds iCalendar content lines directly as UTF-8 bytes.
///
/// A line is started with ``begin(_:)``, extended with the `append…` methods and finished
/// with ``end()``, which folds it (RFC 5545 §3.1: at most 75 octets per physical line,
/// continuation lines start with one space) and terminates it with CRLF. Folding never
/// splits a multi-byte UTF-8 sequence. Values are appended verbatim: TEXT values must be
/// escaped beforehand (see ``ContentLineWriter/escapedText(_:)``).
struct ContentLineWriter {

    // MARK: - State

    /// The output produced so far (may start with the caller's existing bytes).
    var bytes: [UInt8]
    /// Index in `bytes` where the current logical line starts.
    private var lineStart = 0
    /// Reusable buffer for folding long lines.
    private var scratch: [UInt8] = []

    /// The maximum number of octets on one physical line, excluding CRLF.
    static let maximumLineLength = 75

    init(bytes: [UInt8] = []) {
        self.bytes = bytes
        lineStart = bytes.count
    }

    // MARK: - Lines

    /// Starts a new content line with `text` (usually a property name, e.g. `"DTSTART"`).
    mutating func begin(_ text: StaticString) {
        lineStart = bytes.count
        append(text)
    }

    /// Writes a complete constant line such as `"END:VEVENT"`.
    mutating func line(_ text: StaticString) {
        begin(text)
        end()
    }

    /// Folds the current line if it is longer than 75 octets and terminates it with CRLF.
    mutating func end() {
        if bytes.count - lineStart > Self.maximumLineLength {
            fold()
        }
        bytes.append(13)
        bytes.append(10)
        lineStart = bytes.count
    }

    private mutating func fold() {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: bytes[lineStart...])
        bytes.removeSubrange(lineStart...)
        var position = 0
        var limit = Self.maximumLineLength
        while scratch.count - position > limit {
            var cut = position + limit
            // Back up to the start of a UTF-8 sequence: never fold inside a character.
            while scratch[cut] & 0xC0 == 0x80 {
                cut -= 1
            }
            bytes.append(contentsOf: scratch[position..<cut])
            bytes.append(13)
            bytes.append(10)
            bytes.append(32)
            position = cut
            limit = Self.maximumLineLength - 1
        }
        bytes.append(contentsOf: scratch[position...])
    }

    // MARK: - Raw appends

    /// Appends the UTF-8 bytes of a static string.
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends raw bytes (already escaped where escaping is needed).
    mutating func append(_ raw: [UInt8]) {
        bytes.append(contentsOf: raw)
    }

    /// Appends one byte.
    mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends a non-negative decimal number, left-padded with zeros to `width` digits.
    mutating func append(number: Int, width: Int = 1) {
        precondition(number >= 0, "negative numbers are not written by the generator")
        var divisor = 1
        var digitCount = 1
        while divisor <= number / 10 {
            divisor *= 10
            digitCount += 1
        }
        var padding = width - digitCount
        while padding > 0 {
            bytes.append(48)
            padding -= 1
        }
        var value = number
        while divisor > 0 {
            bytes.append(UInt8(truncatingIfNeeded: 48 + value / divisor))
            value %= divisor
            divisor /= 10
        }
    }

    // MARK: - Dates and times

    /// Appends `YYYYMMDD` for the day `day` days after 1970-01-01.
    mutating func append(date day: Int) {
        let date = GeneratorDate(daysSinceEpoch: day)
        append(number: date.year, width: 4)
        append(number: date.month, width: 2)
        append(number: date.day, width: 2)
    }

    /// Appends `YYYYMMDDTHHMMSS` for an absolute minute count (minutes after
    /// 1970-01-01 00:00 in whatever time base the caller uses) plus `seconds`.
    mutating func append(dateTime minutes: Int, seconds: Int = 0) {
        let day = minutes >= 0 ? minutes / 1_440 : (minutes - 1_439) / 1_440
        let minuteOfDay = minutes - day * 1_440
        append(date: day)
        bytes.append(84) // "T"
        append(number: minuteOfDay / 60, width: 2)
        append(number: minuteOfDay % 60, width: 2)
        append(number: seconds, width: 2)
    }

    /// Appends a duration value: `PnD` for whole days when `days` is `true`, otherwise
    /// `PTnHnM` (hours may exceed 24; exact rather than nominal duration).
    mutating func append(durationMinutes minutes: Int, days: Bool) {
        precondition(minutes > 0, "durations are positive")
        if days {
            append("P")
            append(number: minutes / 1_440)
            append("D")
            return
        }
        append("PT")
        if minutes >= 60 {
            append(number: minutes / 60)
            append("H")
        }
        if minutes % 60 != 0 {
            append(number: minutes % 60)
            append("M")
        }
    }

    // MARK: - Escaping

    /// The UTF-8 bytes of `text` escaped as an RFC 5545 TEXT value: backslash, semicolon
    /// and comma get a backslash, line feeds become `\n`.
    static func escapedText(_ text: String) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            switch byte {
            case 92, 59, 44: // \ ; ,
                result.append(92)
                result.append(byte)
            case 10:
                result.append(92)
                result.append(110) // n
            case 13:
                continue
            default:
                result.append(byte)
            }
        }
        return result
    }
}
