import Dispatch
import Synchronization
import Threads

/// The bounded hand-over from the feed side to the publisher thread, by count and by
/// bytes (a line carries its state's snapshot line, megabytes for a long view). `offer`
/// never blocks: when the queue is full the line is not queued, and the view is marked as
/// skipped with its latest state, so that the publisher writes that state as a
/// snapshot (drop-to-resync) instead of a gap in the stream.
final class PublisherInbox: Sendable {
    /// What the publisher thread takes.
    enum Item: Sendable {
        case line(PublishedView, FeedLine)
        /// Lines of the view were dropped; this is its latest state's message.
        case skipped(PublishedView, FeedLine)
        case announcement
        /// eventd's latest status line.
        case status([UInt8])
    }

    private struct State {
        var items: [Item] = []
        /// Bytes of the queued lines and their snapshots.
        var bytes = 0
        /// Views with dropped lines, by key: their latest state's message.
        var skipped: [String: (PublishedView, FeedLine)] = [:]
        /// The latest status line not taken yet (only the latest matters).
        var status: [UInt8]?
        var stopped = false
    }

    private let state = Mutex(State())
    private let signal = DispatchSemaphore(value: 0)
    /// The most lines queued at once.
    let capacity: Int
    /// The most bytes queued at once (one line is always taken, whatever its size).
    let byteCapacity: Int

    init(capacity: Int, byteCapacity: Int = 64 << 20) {
        self.capacity = max(1, capacity)
        self.byteCapacity = byteCapacity
    }

    /// Queues a line; false when it was dropped (the view is then owed a snapshot).
    @discardableResult
    func offer(_ line: FeedLine, of view: PublishedView) -> Bool {
        let size = line.line.count + (line.snapshot?.count ?? 0)
        let queued = state.withLock { s -> Bool in
            let full = s.items.count >= capacity || (!s.items.isEmpty && s.bytes + size > byteCapacity)
            if s.skipped[view.key] != nil || full {
                // Once a line of the view is dropped, its later lines are too, until
                // the publisher has taken the skip (their order would have a gap).
                if line.snapshot != nil || s.skipped[view.key] == nil { s.skipped[view.key] = (view, line) }
                return false
            }
            s.items.append(.line(view, line))
            s.bytes += size
            return true
        }
        signal.signal()
        return queued
    }

    /// A gateway announced a wanted view (coalesced with any queued announcement).
    func announce() {
        state.withLock { s in
            if !s.items.contains(where: { if case .announcement = $0 { return true } else { return false } }) {
                s.items.append(.announcement)
            }
        }
        signal.signal()
    }

    /// eventd's latest status line (replaces one not taken yet).
    func offerStatus(_ line: [UInt8]) {
        state.withLock { $0.status = line }
        signal.signal()
    }

    /// Wakes the publisher thread for good.
    func stop() {
        state.withLock { $0.stopped = true }
        signal.signal()
    }

    /// Everything queued (skips last, after the lines before them), waiting at most
    /// `wait`; nil once stopped.
    func take(waitingAtMost wait: Duration) -> [Item]? {
        if let items = takeAll() { if !items.isEmpty { return items } } else { return nil }
        _ = signal.wait(timeout: .now() + max(.zero, wait).dispatchInterval)
        return takeAll()
    }

    private func takeAll() -> [Item]? {
        state.withLock { s in
            if s.stopped { return nil }
            var items = s.items
            for (_, (view, line)) in s.skipped.sorted(by: { $0.key < $1.key }) { items.append(.skipped(view, line)) }
            if let status = s.status { items.append(.status(status)) }
            s.status = nil
            s.items.removeAll(keepingCapacity: true)
            s.bytes = 0
            s.skipped.removeAll()
            return items
        }
    }
}
