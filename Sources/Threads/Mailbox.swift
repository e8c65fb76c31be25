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
