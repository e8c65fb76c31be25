import Dispatch
import Synchronization

/// A thread's inbox: any thread posts, the owning thread takes everything at once.
/// Bounded by its users: each posts at most one message per request or event.
public final class Mailbox<Message: Sendable>: Sendable {
    private let messages = Mutex<[Message]>([])
    private let signal = DispatchSemaphore(value: 0)
    /// Called after each post, to wake a thread that waits on something else (the feed
    /// loop waits in `poll`, so it is woken through a pipe).
    private let wake: (@Sendable () -> Void)?

    /// A mailbox; `wake`, when given, is called after each post instead of the semaphore.
    public init(wake: (@Sendable () -> Void)? = nil) { self.wake = wake }

    /// Adds `message` (any thread).
    public func post(_ message: Message) {
        messages.withLock { $0.append(message) }
        if let wake { wake() } else { signal.signal() }
    }

    /// Everything posted so far, oldest first (possibly nothing).
    public func takeAll() -> [Message] {
        messages.withLock { box in
            defer { box.removeAll(keepingCapacity: true) }
            return box
        }
    }

    /// Waits at most `wait` for a post, then takes all.
    public func take(waitingAtMost wait: Duration) -> [Message] {
        let now = takeAll()
        if !now.isEmpty { return now }
        _ = signal.wait(timeout: .now() + wait.dispatchInterval)
        return takeAll()
    }
}

/// A bounded, blocking hand-over between one producer thread and one consumer.
/// `send` blocks while the channel is full and returns false once it is closed.
///
/// Checked `Sendable`: the queue and the closed flag live in a `Mutex`; two counting
/// semaphores do the waiting (free slots for the producer, items for the consumer).
package final class BatchChannel<Element: Sendable>: Sendable {
    private struct State {
        /// Received slots are emptied at once: a consumed batch must not stay alive
        /// until the array is compacted (up to 64 of them, for a large import).
        var items: [Element?] = []
        var head = 0
        var closed = false
    }

    private let state = Mutex(State())
    /// Free places; starts at 0 and is raised to the capacity, because libdispatch traps
    /// when a semaphore is released below its initial value (a consumer that gave up).
    private let slots = DispatchSemaphore(value: 0)
    private let available = DispatchSemaphore(value: 0)

    package init(capacity: Int) {
        for _ in 0..<max(1, capacity) { slots.signal() }
    }

    /// Hands `item` over; false when the consumer has gone away.
    @discardableResult
    package func send(_ item: Element) -> Bool {
        if state.withLock({ $0.closed }) { return false }
        slots.wait()
        let accepted = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.items.append(item)
            return true
        }
        // Closed while waiting: pass the wake-up `close` gave on to any other sender.
        if accepted { available.signal() } else { slots.signal() }
        return accepted
    }

    /// The next item, blocking until one arrives.
    package func receive() -> Element {
        available.wait()
        let item = state.withLock { state in
            let item = state.items[state.head].take()!
            state.head += 1
            if state.head > 64, state.head * 2 > state.items.count {
                state.items.removeFirst(state.head)
                state.head = 0
            }
            return item
        }
        slots.signal()
        return item
    }

    /// Stops the producer: later sends return false, and a send waiting for room wakes.
    package func close() {
        state.withLock { $0.closed = true }
        slots.signal()
    }
}
