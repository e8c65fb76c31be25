import Synchronization
import Threads

/// The feed loop's thread (`eventd-feed`) as a service of the daemon: its stop posts
/// `.shutdown`, and the loop stops accepting, flushes its subscribers (at most 2 s) and
/// returns. `body` runs the loop; it ends before a stop only when the loop failed.
final class FeedLoopService: Service {
    let name = "feed loop"
    /// The loop's own flush deadline (2 s) and a margin to close.
    let stopDeadline: Duration = .seconds(3)
    private let mailbox: Mailbox<LoopMessage>
    private let body: @Sendable () -> Void
    private let thread = Mutex<ServiceThread<Never>?>(nil)

    init(mailbox: Mailbox<LoopMessage>, body: @escaping @Sendable () -> Void) {
        self.mailbox = mailbox
        self.body = body
    }

    func start() {
        let body = self.body
        thread.withLock { $0 = ServiceThread(name: "eventd-feed") { _ in body() } }
    }

    func requestStop() { mailbox.post(.shutdown) }

    func join(deadline: Duration) -> Bool { thread.withLock { $0 }?.join(deadline: deadline) ?? true }
}
