import Foundation
import Synchronization
import FeedProtocol
import Threads

/// Asks eventd's status for the calendars' own colours (`calendar_colors`) on a thread
/// and a connection of its own, so the screen's loop never waits on it: `refresh()`
/// only marks a request; the thread makes one at a time (requests made meanwhile become
/// one more) and posts the colours it decoded, typed, to the loop's mailbox. A daemon
/// that does not answer posts nothing: the colours known stay.
final class CalendarColorReader: Sendable {
    private let pending = Mutex<Bool>(false)
    private let signal = DispatchSemaphore(value: 0)

    /// Starts the thread; `status` is one status request (nil or a throw: no answer).
    init(status: @escaping @Sendable () throws -> FeedStatus?, mailbox: Mailbox<FeedNews>) {
        let thread = Thread { [self] in
            while true {
                signal.wait()
                guard pending.withLock({ was in defer { was = false }; return was }) else { continue }
                guard let answer = try? status(), let colors = answer.calendarColors else { continue }
                mailbox.post(.colors(CalendarPalette.colors(from: colors)))
            }
        }
        thread.name = "watch colours"
        thread.start()
    }

    /// Asks for the colours again (returns at once).
    func refresh() {
        let first = pending.withLock { was in defer { was = true }; return !was }
        if first { signal.signal() }
    }
}
