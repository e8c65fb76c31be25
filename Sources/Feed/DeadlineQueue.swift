import Reactor
import Threads

/// A min-heap of (deadline, connection): the hub's timers. Each connection has at most
/// one live entry, never later than its real next deadline: an early entry is popped,
/// re-checked and scheduled again, and an earlier deadline replaces a later entry (the
/// later one stays in the heap, stale, and is skipped when it comes up). A tick then
/// costs the connections that are due, not all of them.
struct DeadlineQueue {
    private var heap: [(at: MonotonicInstant, id: ConnectionID)] = []
    /// Each known connection's live entry; `never` when it has none. (Popping sets
    /// that rather than removing the connection, and scheduling again overwrites it: one
    /// lookup each, where removing and adding back took several per heartbeat.
    /// `forget` removes a connection for good.)
    private var scheduled = ConnectionTable<MonotonicInstant>()
    /// Later than any deadline: a connection with no live entry.
    private static let never = MonotonicInstant(sinceStart: .seconds(Int64.max))

    /// Entries in the heap, stale ones included.
    var count: Int { heap.count }

    /// Connections scheduled at least once and not forgotten.
    var knownConnections: Int { scheduled.count }

    /// Makes sure `id` is looked at no later than `at`.
    mutating func schedule(_ id: ConnectionID, at: MonotonicInstant) {
        let known = scheduled.withValue(id) { live -> Bool in
            guard at < live else { return false }
            live = at
            return true
        }
        switch known {
        case false?: return // an earlier (or the same) entry is live
        case nil: scheduled[id] = at
        case true?: break
        }
        heap.append((at, id))
        siftUp(heap.count - 1)
    }

    /// Forgets a closed connection (its entries in the heap become stale).
    mutating func forget(_ id: ConnectionID) {
        scheduled.removeValue(forKey: id)
    }

    /// Removes and returns the connections whose entry is at or before `now`.
    mutating func popDue(_ now: MonotonicInstant) -> [ConnectionID] {
        var due: [ConnectionID] = []
        while let first = heap.first, first.at <= now {
            let live = scheduled.withValue(first.id) { live -> Bool in
                guard live == first.at else { return false }
                live = Self.never
                return true
            }
            if live == true { due.append(first.id) }
            let last = heap.removeLast()
            if !heap.isEmpty {
                heap[0] = last
                siftDown(0)
            }
        }
        return due
    }

    private mutating func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].at < heap[parent].at else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].at < heap[smallest].at { smallest = left }
            if right < heap.count, heap[right].at < heap[smallest].at { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
