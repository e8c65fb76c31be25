import Foundation

/// A bounded, blocking hand-over between one producer thread and one consumer.
/// `send` blocks while the channel is full and returns false once it is closed.
final class BatchChannel<Element: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var items: [Element] = []
    private var head = 0
    private var closed = false
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// Hands `item` over; false when the consumer has gone away.
    @discardableResult
    func send(_ item: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !closed, items.count - head >= capacity { condition.wait() }
        guard !closed else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// The next item, blocking until one arrives.
    func receive() -> Element {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count { condition.wait() }
        let item = items[head]
        head += 1
        if head > 64, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        condition.broadcast()
        return item
    }

    /// Stops the producer: later sends return false.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
