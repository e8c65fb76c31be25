// MARK: - Strings

extension JSONParser.Scanner {
    /// Parses a string literal starting at its opening quote.
    ///
    /// Strings without escapes are decoded straight from the input; the first
    /// backslash switches to a slower path that builds the bytes in a buffer.
    mutating func parseString() throws(JSONError) -> String {
        index += 1  // opening quote
        let start = index
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") {
                var buffer = Array(UnsafeBufferPointer(rebasing: input[start..<index]))
                return try parseEscapedString(into: &buffer)
            }
            if byte < 0x20 {
                throw error("control character in string")
            }
            if byte < 0x80 {
                index += 1
            } else {
                index += try validateUTF8Sequence()
            }
        }
        throw error("unterminated string")
    }

    /// Continues a string that contains escapes, appending decoded UTF-8 to
    /// `buffer`. `index` is at a backslash or any other byte of the body.
    private mutating func parseEscapedString(into buffer: inout [UInt8]) throws(JSONError) -> String {
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: buffer, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                try parseEscape(into: &buffer)
            } else if byte < 0x20 {
                throw error("control character in string")
            } else if byte < 0x80 {
                buffer.append(byte)
                index += 1
            } else {
                let length = try validateUTF8Sequence()
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: input[index..<(index + length)]))
                index += length
            }
        }
        throw error("unterminated string")
    }

    /// Decodes one escape sequence at `index` (a backslash).
    private mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONError) {
        guard index + 1 < input.count else {
            index = input.count
            throw error("unterminated string")
        }
        let decoded: UInt8
        switch input[index + 1] {
        case UInt8(ascii: "\""): decoded = 0x22
        case UInt8(ascii: "\\"): decoded = 0x5c
        case UInt8(ascii: "/"): decoded = 0x2f
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0c
        case UInt8(ascii: "n"): decoded = 0x0a
        case UInt8(ascii: "r"): decoded = 0x0d
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"):
            let escapeStart = index
            let unit = try parseHex4(at: index + 2)
            index += 6
            var scalar = UInt32(unit)
            if (0xdc00...0xdfff).contains(unit) {
                throw JSONError(message: "unpaired low surrogate in \\u escape", offset: escapeStart)
            }
            if (0xd800...0xdbff).contains(unit) {
                guard index + 1 < input.count,
                      input[index] == UInt8(ascii: "\\"), input[index + 1] == UInt8(ascii: "u") else {
                    throw JSONError(message: "unpaired high surrogate in \\u escape", offset: escapeStart)
                }
                let low = try parseHex4(at: index + 2)
                guard (0xdc00...0xdfff).contains(low) else {
                    throw JSONError(message: "unpaired high surrogate in \\u escape", offset: escapeStart)
                }
                index += 6
                scalar = 0x1_0000 + ((UInt32(unit) - 0xd800) << 10) + (UInt32(low) - 0xdc00)
            }
            appendUTF8(scalar, to: &buffer)
            return
        default:
            index += 1
            throw error("invalid escape sequence")
        }
        buffer.append(decoded)
        index += 2
    }

    /// Reads four hex digits at `position`.
    private func parseHex4(at position: Int) throws(JSONError) -> UInt16 {
        guard position + 4 <= input.count else {
            throw JSONError(message: "truncated \\u escape", offset: min(position, input.count))
        }
        var value: UInt16 = 0
        for offset in 0..<4 {
            let byte = input[position + offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONError(message: "invalid hex digit in \\u escape", offset: position + offset)
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// Appends the UTF-8 encoding of a valid scalar value.
    private func appendUTF8(_ scalar: UInt32, to buffer: inout [UInt8]) {
        switch scalar {
        case 0..<0x80:
            buffer.append(UInt8(scalar))
        case 0x80..<0x800:
            buffer.append(UInt8(0xc0 | scalar >> 6))
            buffer.append(UInt8(0x80 | scalar & 0x3f))
        case 0x800..<0x1_0000:
            buffer.append(UInt8(0xe0 | scalar >> 12))
            buffer.append(UInt8(0x80 | scalar >> 6 & 0x3f))
            buffer.append(UInt8(0x80 | scalar & 0x3f))
        default:
            buffer.append(UInt8(0xf0 | scalar >> 18))
            buffer.append(UInt8(0x80 | scalar >> 12 & 0x3f))
            buffer.append(UInt8(0x80 | scalar >> 6 & 0x3f))
            buffer.append(UInt8(0x80 | scalar & 0x3f))
        }
    }

    /// Validates the multi-byte UTF-8 sequence at `index` (lead byte ≥ 0x80)
    /// and returns its length. Rejects overlong forms, surrogates and
    /// scalars above U+10FFFF.
    private func validateUTF8Sequence() throws(JSONError) -> Int {
        let lead = input[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xbf
        switch lead {
        case 0xc2...0xdf: length = 2
        case 0xe0: length = 3; secondRange = 0xa0...0xbf
        case 0xe1...0xec, 0xee...0xef: length = 3
        case 0xed: length = 3; secondRange = 0x80...0x9f
        case 0xf0: length = 4; secondRange = 0x90...0xbf
        case 0xf1...0xf3: length = 4
        case 0xf4: length = 4; secondRange = 0x80...0x8f
        default: throw error("invalid UTF-8")
        }
        for offset in 1..<length {
            let position = index + offset
            guard position < input.count else {
                throw JSONError(message: "truncated UTF-8 sequence", offset: position)
            }
            let range = offset == 1 ? secondRange : 0x80...0xbf
            guard range.contains(input[position]) else {
                throw JSONError(message: "invalid UTF-8", offset: position)
            }
        }
        return length
    }
}

// MARK: - Numbers

extension JSONParser.Scanner {
    /// Parses a number per the RFC 8259 grammar:
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    mutating func parseNumber() throws(JSONError) -> JSONValue {
        let start = index
        let negative = input[index] == UInt8(ascii: "-")
        if negative { index += 1 }

        guard index < input.count, isDigit(input[index]) else { throw error("invalid number") }
        if input[index] == UInt8(ascii: "0") {
            index += 1
            if index < input.count, isDigit(input[index]) {
                throw error("leading zeros are not allowed")
            }
        } else {
            skipDigits()
        }

        // Fast integer path: accumulate negatively so Int64.min fits.
        var isInteger = true
        if index < input.count, input[index] == UInt8(ascii: ".") {
            index += 1
            guard index < input.count, isDigit(input[index]) else { throw error("expected digit after '.'") }
            skipDigits()
            isInteger = false
        }
        if index < input.count, input[index] == UInt8(ascii: "e") || input[index] == UInt8(ascii: "E") {
            index += 1
            if index < input.count, input[index] == UInt8(ascii: "+") || input[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < input.count, isDigit(input[index]) else { throw error("expected digit in exponent") }
            skipDigits()
            isInteger = false
        }

        if isInteger, let integer = parseInt64(from: negative ? start + 1 : start, to: index, negative: negative) {
            return .int(integer)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: input[start..<index]), as: UTF8.self)
        guard let double = Double(text), double.isFinite else {
            throw JSONError(message: "number out of range", offset: start)
        }
        return .double(double)
    }

    /// The Int64 value of the digits in `from..<to`, or `nil` on overflow.
    private func parseInt64(from: Int, to: Int, negative: Bool) -> Int64? {
        var value: Int64 = 0
        for position in from..<to {
            let digit = Int64(input[position] &- UInt8(ascii: "0"))
            let (product, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = product.subtractingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            value = sum
        }
        if negative { return value }
        return value == .min ? nil : -value
    }

    private mutating func skipDigits() {
        while index < input.count, isDigit(input[index]) {
            index += 1
        }
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }
}
