import Foundation
import Synchronization
import FeedProtocol
import Threads

/// Asks eventd's status for the calendars' own colours (`calendar_colors`) on a thread
/// and a connection of its own, so the screen's loop never waits on it: `refresh()`
/// only posts a wake-up; the thread makes one request at a time (wake-ups posted
/// meanwhile become one more) and posts the colours it decoded, typed, to the loop's
/// mailbox. A daemon that does not answer posts nothing: the colours known stay.
final class CalendarColorReader: Service {
    let name = "watch colours"
    /// One status request's own timeout (2 s) is the longest a stop waits.
    let stopDeadline: Duration = .seconds(2)
    private let status: @Sendable () throws -> FeedStatus?
    private let mailbox: Mailbox<FeedNews>
    private let thread = Mutex<ServiceThread<Void>?>(nil)

    /// `status` is one status request (nil or a throw: no answer).
    init(status: @escaping @Sendable () throws -> FeedStatus?, mailbox: Mailbox<FeedNews>) {
        self.status = status
        self.mailbox = mailbox
    }

    func start() {
        let (status, mailbox) = (status, mailbox)
        thread.withLock { $0 = ServiceThread<Void>(name: "watch colours") { thread in
            while !thread.isStopRequested {
                guard !thread.take(waitingAtMost: .seconds(3600)).isEmpty, !thread.isStopRequested else { continue }
                guard let answer = try? status(), let colors = answer.calendarColors else { continue }
                mailbox.post(.colors(CalendarPalette.colors(from: colors)))
            }
        } }
    }

    /// Asks for the colours again (returns at once).
    func refresh() { thread.withLock { $0 }?.post(()) }

    func requestStop() { thread.withLock { $0 }?.requestStop() }

    func join(deadline: Duration) -> Bool { thread.withLock { $0 }?.join(deadline: deadline) ?? true }
}
