/// One connection's queued output: whole messages, in order, shared with every other
/// subscriber that queued the same bytes (arrays are copy-on-write, so a diff encoded
/// once is held once however many subscribers wait for it). A snapshot is held one
/// piece at a time (`SnapshotMessage`): the next piece is taken when the kernel has
/// taken the last byte of the one before.
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
        /// The bytes to write: the whole message, or the current piece of `snapshot`.
        var bytes: [UInt8]
        var kind: Kind
        /// A snapshot written in pieces, and which piece `bytes` is (held, so that the
        /// queues writing it share it).
        var snapshot: SnapshotMessage? = nil
        var piece: SnapshotPiece? = nil
        var pieceIndex = 0

        /// Whether pieces follow `bytes`: the loop writes nothing after it until they are.
        var hasMorePieces: Bool { snapshot.map { pieceIndex + 1 < $0.pieceCount } ?? false }
    }

    private(set) var messages: [Message] = []
    private var head = 0
    /// Bytes of the first message already written.
    private(set) var offset = 0
    /// Every byte this queue keeps alive, including the written prefix of the message in
    /// flight (of a snapshot, its current piece): this is what counts against
    /// `--client-buffer`.
    private(set) var retainedBytes = 0

    var isEmpty: Bool { head == messages.count }

    /// The messages still to write; the first one from `offset`.
    var pending: ArraySlice<Message> { messages[head...] }

    mutating func append(_ bytes: [UInt8], kind: Kind) {
        messages.append(Message(bytes: bytes, kind: kind))
        retainedBytes += bytes.count
    }

    /// Queues a snapshot, to be written piece by piece.
    mutating func append(_ snapshot: SnapshotMessage) {
        let first = snapshot.piece(0)
        messages.append(Message(bytes: first.bytes, kind: .snapshot, snapshot: snapshot, piece: first))
        retainedBytes += first.bytes.count
    }

    /// Whether the first pending message has started to go out (the client must get it whole).
    private var headStarted: Bool {
        offset > 0 || (head < messages.count && messages[head].pieceIndex > 0)
    }

    /// Records that the kernel took `count` more bytes.
    mutating func consume(_ count: Int) {
        // Everything taken (a diff to a subscriber that keeps up): no message to walk.
        if count > 0, count == retainedBytes - offset, !messages[head...].contains(where: \.hasMorePieces) {
            messages.removeAll(keepingCapacity: messages.count <= 64)
            (head, offset, retainedBytes) = (0, 0, 0)
            return
        }
        var left = count
        while left > 0, head < messages.count {
            let remaining = messages[head].bytes.count - offset
            if left < remaining {
                offset += left
                return
            }
            left -= remaining
            retainedBytes -= messages[head].bytes.count
            offset = 0
            if messages[head].hasMorePieces {
                let next = messages[head].pieceIndex + 1
                let piece = messages[head].snapshot!.piece(next)
                messages[head].piece = piece
                messages[head].pieceIndex = next
                messages[head].bytes = piece.bytes
                retainedBytes += piece.bytes.count
                continue
            }
            messages[head] = Message(bytes: [], kind: messages[head].kind)
            head += 1
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
            if case .snapshot = messages[i].kind { return i != head || !headStarted }
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
            if m.kind.droppable, !(i == head && headStarted) {
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
