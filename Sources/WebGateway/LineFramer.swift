/// Splits eventd's NDJSON stream into lines, holding at most `limit` bytes of an
/// unfinished line. Each input byte is searched for a newline once.
public struct LineFramer: Sendable {
    /// A line passed the limit before its newline came.
    public struct Overflow: Error, Equatable {}

    /// The most bytes one line may have.
    public let limit: Int
    private var buffer: [UInt8] = []

    /// Bytes of the unfinished line held now.
    public var buffered: Int { buffer.count }

    /// A framer for lines of at most `limit` bytes.
    public init(limit: Int) { self.limit = limit }

    /// The lines completed by `bytes` (without their newlines), in order.
    public mutating func feed(_ bytes: ArraySlice<UInt8>) throws(Overflow) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var rest = bytes
        while let newline = rest.firstIndex(of: 10) {
            if buffer.isEmpty {
                lines.append(Array(rest[rest.startIndex..<newline]))
            } else {
                buffer.append(contentsOf: rest[rest.startIndex..<newline])
                lines.append(buffer)
                buffer.removeAll()
            }
            if lines.last!.count > limit { throw Overflow() }
            rest = rest[(newline + 1)...]
        }
        buffer.append(contentsOf: rest)
        if buffer.count > limit { throw Overflow() }
        return lines
    }
}
