import Threads

/// The source runner's inbox: any thread posts; the runner thread, which waits in
/// `poll` on inotify too, is woken through a pipe. Bounded by its users: one message
/// per request, per finished fetch, per stop.
final class RunnerInbox<Message: Sendable>: Sendable {
    private let pipe: WakePipe
    private let mailbox: Mailbox<Message>

    /// The end the runner polls.
    var readFD: Int32 { pipe.readFD }

    init() throws(FetchFailure) {
        do {
            pipe = try WakePipe()
        } catch {
            throw FetchFailure(.unreadable, "\(error)")
        }
        mailbox = Mailbox(wake: { [pipe] in pipe.wake() })
    }

    func post(_ message: Message) { mailbox.post(message) }

    /// Everything posted so far, oldest first; empties the pipe.
    func takeAll() -> [Message] {
        pipe.drain()
        return mailbox.takeAll()
    }
}
