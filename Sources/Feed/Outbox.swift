/// One connection's queued output: whole messages, in order, shared with every other
/// subscriber that queued the same bytes (arrays are copy-on-write, so a diff encoded
/// once is held once however many subscribers wait for it).
struct Outbox {
    enum Kind: Equatable {
        /// An answer to a request (`hello`, `pong`, `error`, `resync`…): never dropped.
        case answer
        /// Subscription data: dropped on overflow, or when superseded, if not yet started.
        case snapshot
        case diff
        case heartbeat

        var droppable: Bool { self != .answer }
    }

    struct Message {
        var bytes: [UInt8]
        var kind: Kind
    }

    private(set) var messages: [Message] = []
    private var head = 0
    /// Bytes of the first message already written.
    private(set) var offset = 0
    /// Every byte this queue keeps alive, including the written prefix of the message in
    /// flight: this is what counts against `--client-buffer`.
    private(set) var retainedBytes = 0

    var isEmpty: Bool { head == messages.count }

    /// The messages still to write; the first one from `offset`.
    var pending: ArraySlice<Message> { messages[head...] }

    mutating func append(_ bytes: [UInt8], kind: Kind) {
        messages.append(Message(bytes: bytes, kind: kind))
        retainedBytes += bytes.count
    }

    /// Records that the kernel took `count` more bytes.
    mutating func consume(_ count: Int) {
        var left = count
        while left > 0, head < messages.count {
            let remaining = messages[head].bytes.count - offset
            if left < remaining {
                offset += left
                return
            }
            left -= remaining
            retainedBytes -= messages[head].bytes.count
            messages[head].bytes = []
            head += 1
            offset = 0
        }
        if head == messages.count {
            messages.removeAll(keepingCapacity: messages.count <= 64)
            head = 0
        } else if head > 64, head * 2 > messages.count {
            messages.removeFirst(head)
            head = 0
        }
    }

    /// Whether a snapshot waits that has not started to go out.
    var hasUnstartedSnapshot: Bool {
        pending.indices.contains { i in
            if case .snapshot = messages[i].kind { return i != head || offset == 0 }
            return false
        }
    }

    /// Drops the subscription data that has not started to go out; returns whether
    /// anything was dropped. A message in flight stays: the client must get it whole.
    @discardableResult
    mutating func dropUnstarted() -> Bool {
        var kept: [Message] = []
        var dropped = false
        for i in pending.indices {
            let m = messages[i]
            if m.kind.droppable, !(i == head && offset > 0) {
                retainedBytes -= m.bytes.count
                dropped = true
            } else {
                kept.append(m)
            }
        }
        messages = kept
        head = 0
        return dropped
    }
}
