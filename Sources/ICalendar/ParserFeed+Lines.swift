extension ParserFeed {
    /// The bytes of one content line with its folds (a line end followed by a space or
    /// tab) taken out, as libical reads them.
    struct UnfoldedLine {
        let block: UnsafeBufferPointer<UInt8>
        var index: Int

        init(_ block: UnsafeBufferPointer<UInt8>, at index: Int) {
            self.block = block
            self.index = index
        }

        /// The next byte, or nil at the line's end (a CR or LF that does not start a fold
        /// ends it: a bare CR in a line is read no further, which only keeps a line).
        @inline(__always)
        mutating func next() -> UInt8? {
            while index < block.count {
                let byte = block[index]
                guard byte == 13 || byte == 10 else {
                    index += 1
                    return byte
                }
                var k = index
                if byte == 13 { k += 1 }
                guard k + 1 < block.count, block[k] == 10, block[k + 1] == 32 || block[k + 1] == 9 else { return nil }
                index = k + 2
            }
            return nil
        }
    }

    /// A parameter name of up to 16 bytes, in capitals, in two words (longer names keep
    /// their first 16 bytes and their length): compared without a `String`, across folds.
    struct PackedName: Equatable {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var length = 0

        init() {}

        init(capitals: StaticString) {
            let bytes = UnsafeBufferPointer(start: capitals.utf8Start, count: capitals.utf8CodeUnitCount)
            for byte in bytes { append(byte) }
        }

        @inline(__always)
        mutating func append(_ byte: UInt8) {
            let b = UInt64(ParserFeed.upper(byte))
            if length < 8 {
                low |= b << UInt64(8 * length)
            } else if length < 16 {
                high |= b << UInt64(8 * (length - 8))
            }
            length += 1
        }
    }

    /// A property's parameters as libical would read them without reporting anything:
    /// each `NAME=value[,value…]`, a value quoted (`"…"`, no quote inside) or a run of
    /// bytes without `"`, `;`, `:` and `,`, up to the `:` that starts the property's
    /// value. `VALUE` (a value type the property may not have: "Invalid VALUE type")
    /// and anything else (an empty or missing name, a quote in the middle, the line's
    /// end) make the line one libical must see. libical accepts the rest whatever the
    /// names and values (an unknown enumerated value is read as an `X` value).
    enum ParameterList {
        static let valueName = PackedName(capitals: "VALUE")
        static let binaryType = PackedName(capitals: "BINARY")
        static let uriType = PackedName(capitals: "URI")

        /// Reads the parameters from just after the property name's `;`.
        ///
        /// `attachValue`: the property is `ATTACH`, which libical reads without a word with
        /// `VALUE=BINARY` or `VALUE=URI` (its two types, RFC 5545 3.8.1.1), whatever the
        /// value: such a line is left out too. (libical's string reader looks for each
        /// line's end again for every 80 bytes it copies, so an attachment of one long line
        /// cost time quadratic in its length: 8 MiB, seconds.)
        static func isHarmless(_ line: inout UnfoldedLine, attachValue: Bool = false) -> Bool {
            while true {
                var name = PackedName()
                var next = line.next()
                while let byte = next, CalendarScanner.isNameByte(byte) {
                    name.append(byte)
                    next = line.next()
                }
                guard name.length > 0, next == UInt8(ascii: "=") else { return false }
                if name == valueName {
                    guard attachValue else { return false }
                    var type = PackedName()
                    next = line.next()
                    while let byte = next, CalendarScanner.isNameByte(byte) {
                        type.append(byte)
                        next = line.next()
                    }
                    guard type == binaryType || type == uriType else { return false }
                    switch next {
                    case UInt8(ascii: ":"): return true
                    case UInt8(ascii: ";"): continue
                    default: return false
                    }
                }
                switch valuesEnd(&line) {
                case UInt8(ascii: ":"): return true
                case UInt8(ascii: ";"): continue
                default: return false
                }
            }
        }

        /// Reads a parameter's values (after its `=`); returns the byte after them: `;`
        /// before the next parameter, `:` before the property's value, anything else
        /// (nil at the line's end) for values libical might read otherwise.
        static func valuesEnd(_ line: inout UnfoldedLine) -> UInt8? {
            while true {
                var next = line.next()
                if next == UInt8(ascii: "\"") {
                    repeat { next = line.next() } while next != nil && next != UInt8(ascii: "\"")
                    guard next != nil else { return nil }
                    next = line.next()
                } else {
                    while let byte = next, byte != UInt8(ascii: "\""), byte != UInt8(ascii: ";"),
                          byte != UInt8(ascii: ":"), byte != UInt8(ascii: ",") {
                        next = line.next()
                    }
                }
                if next != UInt8(ascii: ",") { return next }
            }
        }
    }
}
