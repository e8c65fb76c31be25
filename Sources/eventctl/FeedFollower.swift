import Foundation
import CommandLineKit
import FeedClientKit
import FeedProtocol
import ICalendar
import AgendaText

/// eventctl's subscriptions (`subscribe` in every format, `remind`): a
/// `SubscriptionDriver` over `DaemonConnection`, whose effects go to a consumer (a
/// printer, or a `Handler` through `HandlerConsumer`), and whose end is eventctl's error.
struct FeedFollower {
    var view: ViewFields
    var resume: Request.Resume?
    /// Whether to wait for a daemon that cannot be reached at first (a bar or reminders
    /// started before eventd) rather than fail (a command run by hand).
    var waitForDaemon: Bool

    /// What a follower of events does with the feed (`BarRenderer`, `ReminderPlanner`
    /// behind it). A handler that must stop throws: `CommandFailure` or `UsageError` (their
    /// statuses the error table's), or an error of its own that its command catches.
    protocol Handler {
        /// The view's events changed (a snapshot or a diff).
        mutating func changed(_ events: [BarEvent], zone: Zone, now: Int64) throws
        /// The wall-clock instant `wake` returned has come.
        mutating func wake(now: Int64) throws
        /// The connection is gone (or could not be made); it is retried.
        mutating func lost(now: Int64) throws
        /// The next instant to be woken at, after `now`.
        func nextWake(after now: Int64) -> Int64
    }

    /// Follows the feed until the daemon refuses the subscription (or, unless waiting
    /// for it, cannot be reached at first).
    func run<C: SubscriptionDriver.Consumer>(_ env: CommandEnvironment, _ consumer: inout C) throws -> Never {
        let configuration = SubscriptionMachine.Configuration(view: view, resume: resume, failIfFirstConnectFails: !waitForDaemon)
        let driver = SubscriptionDriver(configuration, open: { try DaemonConnection.open(env) })
        let failure = try driver.run(&consumer)
        if case .unreachable(let reason) = failure {
            throw CommandFailure.daemonUnavailable(DaemonHint.unavailable(env.paths.socket, reason))
        }
        // A refusal's status is the error table's, from its code (`ErrorTable`).
        throw failure
    }

    /// Follows the feed with `handler` deciding; it is woken by the wall clock.
    func run<H: Handler>(_ env: CommandEnvironment, _ handler: H) throws -> Never {
        var consumer = HandlerConsumer(handler: handler, environment: env.environment)
        try run(env, &consumer)
    }
}
