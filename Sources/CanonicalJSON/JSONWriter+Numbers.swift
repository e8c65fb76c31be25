// MARK: - Integers

extension JSONWriter {
    /// Appends the decimal representation of `value`.
    internal static func appendDecimal(_ value: Int64, into output: inout [UInt8]) {
        if value < 0 {
            output.append(UInt8(ascii: "-"))
        }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start &-= 1
                let (quotient, remainder) = magnitude.quotientAndRemainder(dividingBy: 10)
                digits[start] = 0x30 &+ UInt8(truncatingIfNeeded: remainder)
                magnitude = quotient
            } while magnitude != 0
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }
}

// MARK: - Doubles

extension JSONWriter {
    /// Appends `value` formatted as Python's `repr(float)`; non-finite values
    /// are appended as `null`.
    ///
    /// Python's `repr` uses the shortest digit string that round-trips (as does
    /// Swift's `description`, which supplies the digits), laid out in
    /// positional notation when the decimal exponent is in `-4 ..< 16` and in
    /// scientific notation otherwise (`1e+16`, `1.5e-07`, two-digit minimum
    /// exponent). Positional results always contain a `.`: `1.0`, `100.0`.
    internal static func appendDouble(_ value: Double, into output: inout [UInt8]) {
        guard value.isFinite else {
            output.append(contentsOf: [0x6e, 0x75, 0x6c, 0x6c])  // null
            return
        }
        if value.sign == .minus {
            output.append(UInt8(ascii: "-"))
        }
        guard value != 0 else {
            output.append(contentsOf: [0x30, 0x2e, 0x30])  // 0.0
            return
        }

        var text = value.magnitude.description
        text.withUTF8 { source in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: source.count) { digits in
                let (count, pointPosition) = shortestDigits(of: source, into: digits)
                layOutPythonRepr(
                    UnsafeBufferPointer(rebasing: digits[..<count]),
                    pointPosition: pointPosition,
                    into: &output
                )
            }
        }
    }

    /// Splits Swift's `description` of a positive finite non-zero double
    /// (`"123.45"`, `"1e-05"`, `"1.5e+300"`) into significant digits without
    /// leading or trailing zeros, and the position of the decimal point
    /// relative to them: value = 0.DIGITS × 10^pointPosition.
    private static func shortestDigits(
        of source: UnsafeBufferPointer<UInt8>,
        into digits: UnsafeMutableBufferPointer<UInt8>
    ) -> (count: Int, pointPosition: Int) {
        var count = 0
        var integerDigits = -1
        var exponent = 0
        var index = 0
        while index < source.count {
            let byte = source[index]
            if byte == UInt8(ascii: ".") {
                integerDigits = count
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                exponent = parseExponent(source, from: index + 1)
                break
            } else {
                digits[count] = byte
                count += 1
            }
            index += 1
        }
        if integerDigits < 0 {
            integerDigits = count
        }

        var pointPosition = integerDigits + exponent
        var first = 0
        while first < count, digits[first] == UInt8(ascii: "0") {
            first += 1
            pointPosition -= 1
        }
        var end = count
        while end > first, digits[end - 1] == UInt8(ascii: "0") {
            end -= 1
        }
        if first > 0 {
            for i in first..<end {
                digits[i - first] = digits[i]
            }
        }
        return (end - first, pointPosition)
    }

    /// Parses `[+-]digits` starting at `index`.
    private static func parseExponent(_ source: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
        var index = index
        var negative = false
        if index < source.count, source[index] == UInt8(ascii: "-") || source[index] == UInt8(ascii: "+") {
            negative = source[index] == UInt8(ascii: "-")
            index += 1
        }
        var exponent = 0
        while index < source.count {
            exponent = exponent * 10 + Int(source[index] &- 0x30)
            index += 1
        }
        return negative ? -exponent : exponent
    }

    /// Writes digits in the layout of CPython's `format_float_short` for
    /// `repr` (mode `'r'` with `Py_DTSF_ADD_DOT_0`).
    private static func layOutPythonRepr(
        _ digits: UnsafeBufferPointer<UInt8>,
        pointPosition: Int,
        into output: inout [UInt8]
    ) {
        let count = digits.count
        if pointPosition <= -4 || pointPosition > 16 {
            // Scientific: d[.ddd]e±XX
            output.append(digits[0])
            if count > 1 {
                output.append(UInt8(ascii: "."))
                output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[1...]))
            }
            let exponent = pointPosition - 1
            output.append(UInt8(ascii: "e"))
            output.append(exponent < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
            let magnitude = exponent.magnitude
            if magnitude < 10 {
                output.append(UInt8(ascii: "0"))
            }
            appendDecimal(Int64(magnitude), into: &output)
        } else if pointPosition <= 0 {
            // 0.000ddd
            output.append(contentsOf: [0x30, 0x2e])  // 0.
            output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -pointPosition))
            output.append(contentsOf: digits)
        } else if pointPosition >= count {
            // ddd000.0
            output.append(contentsOf: digits)
            output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: pointPosition - count))
            output.append(contentsOf: [0x2e, 0x30])  // .0
        } else {
            // dd.ddd
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[..<pointPosition]))
            output.append(UInt8(ascii: "."))
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[pointPosition...]))
        }
    }
}
