import Foundation
import Agenda
import CommandLineKit
import Feed
import ICalendar
import StatusBar
import CanonicalJSON

/// The connection loop of the long-running feed readers (`subscribe --format
/// waybar|i3bar|line`, `remind`): connect, subscribe (resuming where it left off), keep
/// the local copy, and hand its events to `handler`; wake it when its clock says
/// (`handler.nextWake`), also while eventd is down, and tell it when the connection is
/// lost. Decisions are the handler's (`BarRenderer`, `ReminderPlanner`); this is the I/O.
struct FeedFollower {
    var view: JSONValue
    var resume: (epoch: String, seq: Int64)?

    /// What a follower does with the feed. A handler that must stop throws
    /// `CommandFailure` or `UsageError`; other errors count as a lost connection.
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

    func run<H: Handler>(_ env: CommandEnvironment, _ handler: inout H) throws -> Never {
        // The wall clock (moved by EVENTD_FAKE_NOW as the daemon's is): wake-ups here are
        // dates (a minute's turn, a reminder's time), not intervals.
        let clock = AgendaClock(environment: env.environment)
        func now() -> Int64 { Int64(clock.preciseNow().rounded(.down)) }
        func untilWake() -> Double { max(0.05, Double(handler.nextWake(after: now())) - clock.preciseNow()) }
        var state: FeedClientState?
        var zone = Zone.utc
        var position = resume
        var backoff = 0.2

        while true {
            let socket: FeedSocket
            do {
                socket = try DaemonConnection.open(env)
            } catch is FeedSocket.Unavailable {
                // Down (or not yet up): the handler keeps the last known state and its
                // clock goes on.
                try handler.lost(now: now())
                Thread.sleep(forTimeInterval: min(backoff, untilWake()))
                backoff = min(backoff * 2, 5)
                continue
            }
            backoff = 0.2
            var request: [String: JSONValue] = ["op": "subscribe", "view": view]
            if let position { request["resume"] = ["epoch": .string(position.epoch), "seq": .int(position.seq)] }
            do {
                try socket.send(.object(request))
                var due = handler.nextWake(after: now())
                while true {
                    // Heartbeats and diffs may keep the socket busy: the clock is checked
                    // after every wake-up, not only when the wait times out.
                    let ready = socket.waitForInput(timeout: untilWake())
                    if now() >= due {
                        try handler.wake(now: now())
                        due = handler.nextWake(after: now())
                    }
                    guard ready else { continue }
                    guard let (_, message) = try socket.readMessage() else { break }
                    switch message["type"]?.stringValue {
                    case "snapshot":
                        state = try FeedClientState(snapshot: message)
                        zone = message["view"]?["tz"]?.stringValue.flatMap(Zone.system) ?? zone
                    case "diff":
                        guard var current = state else { continue }
                        if (try? current.apply(diff: message)) == true {
                            state = current
                        } else {
                            // A mismatch: start again from a snapshot.
                            state = nil
                            position = nil
                            try socket.send(["op": "subscribe", "view": view])
                            continue
                        }
                    case "error":
                        let code = message["code"]?.stringValue ?? "error"
                        let text = "daemon: \(code): \(message["message"]?.stringValue ?? "")"
                        if code == "invalid_view" { throw UsageError(text) }
                        throw CommandFailure.daemonUnavailable(text)
                    default:
                        continue
                    }
                    if let s = state {
                        position = (s.epoch, s.seq)
                        try handler.changed(BarEvent.events(in: s.model), zone: zone, now: now())
                        due = handler.nextWake(after: now())
                    }
                }
            } catch let failure as CommandFailure {
                throw failure
            } catch let usage as UsageError {
                throw usage
            } catch {
                // Lost mid-stream (or a line that would not parse): reconnect and resume.
            }
            try handler.lost(now: now())
            Thread.sleep(forTimeInterval: min(backoff, untilWake()))
        }
    }
}
