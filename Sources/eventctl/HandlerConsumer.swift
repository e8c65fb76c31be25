import Agenda
import FeedClientKit
import FeedProtocol
import ICalendar
import AgendaText

/// A `FeedFollower.Handler` as a subscription's consumer: the local copy's events on
/// every change, its wake-ups by the wall clock (moved by EVENTD_FAKE_NOW as the
/// daemon's is: wake-ups here are dates, a minute's turn or a reminder's time), also
/// while eventd is down, and word when the connection is lost.
struct HandlerConsumer<H: FeedFollower.Handler>: SubscriptionDriver.Consumer {
    var handler: H
    let clock: AgendaClock
    var zone = Zone.utc
    var due: Int64 = 0
    var events = BarEvent.Memo()

    init(handler: H, environment: [String: String]) {
        self.handler = handler
        clock = AgendaClock(environment: environment)
        due = handler.nextWake(after: now())
    }

    func now() -> Int64 { Int64(clock.preciseNow().rounded(.down)) }

    mutating func handle(_ effect: SubscriptionMachine.Effect) throws {
        switch effect {
        case .snapshot(let state):
            zone = state.view.tz.flatMap(Zone.system) ?? zone
            try handler.changed(events.events(in: state.model), zone: zone, now: now())
        case .diff(_, let state):
            try handler.changed(events.events(in: state.model), zone: zone, now: now())
        case .lost, .stale:
            // The handler keeps the last known state and its clock goes on.
            try handler.lost(now: now())
        default:
            return
        }
        due = handler.nextWake(after: now())
    }

    func secondsUntilWake() -> Double? { Double(due) - clock.preciseNow() }

    mutating func wake() throws {
        try handler.wake(now: now())
        due = handler.nextWake(after: now())
    }
}
