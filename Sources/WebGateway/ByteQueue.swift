/// Bytes waiting to be written to one socket: whole messages in order, and how much of
/// the first one is already written. Messages are shared (copy-on-write arrays), so the
/// same diff queued for many browsers is not copied.
public struct ByteQueue: Sendable {
    /// The messages not yet completely written, oldest first.
    public private(set) var pending: [[UInt8]] = []
    /// How much of `pending[0]` is written.
    public private(set) var offset = 0
    /// Bytes still to write.
    public private(set) var count = 0

    /// An empty queue.
    public init() {}

    /// Bytes the queue keeps in memory: `count` and the written start of the first
    /// message, which stays allocated until the message is written whole.
    public var held: Int { count + offset }

    /// Whether nothing waits.
    public var isEmpty: Bool { count == 0 }

    /// Bytes of the messages after the first (the one being written).
    public var countBehindFirst: Int { pending.isEmpty ? 0 : count - (pending[0].count - offset) }

    /// Queues a message.
    public mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        pending.append(bytes)
        count += bytes.count
    }

    /// Forgets the first `written` bytes (what the socket took).
    public mutating func consume(_ written: Int) {
        var left = min(written, count)
        count -= left
        while left > 0, let first = pending.first {
            let rest = first.count - offset
            if left >= rest {
                pending.removeFirst()
                offset = 0
                left -= rest
            } else {
                offset += left
                left = 0
            }
        }
    }
}

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
