import Foundation
import Agenda
import CommandLineKit
import Feed
import ICalendar
import StatusBar
import Support

/// `eventctl subscribe --format waybar|i3bar|line`: the feed's local copy turned into
/// status bar lines by `BarRenderer`. This is only the I/O around it: the socket, the
/// minute's wall clock, reconnecting with resume, and whole lines to standard output.
struct BarSubscription {
    var view: JSONValue
    var renderer: BarRenderer
    var resume: (epoch: String, seq: Int64)?

    func run(_ env: CommandEnvironment) throws -> Never {
        // The bar going away closes our pipe: a write then fails with EPIPE and we stop.
        signal(SIGPIPE, SIG_IGN)
        var renderer = renderer
        var state: FeedClientState?
        var zone = Zone.utc
        var position = resume
        var backoff = 0.2
        // The wall clock (moved by EVENTD_FAKE_NOW as the daemon's is): the minute's turn
        // is a date, not an interval.
        let clock = AgendaClock(environment: env.environment)
        func now() -> Int64 { Int64(clock.preciseNow().rounded(.down)) }
        func untilNextMinute() -> Double { max(0.05, Double(BarRenderer.nextMinute(after: now())) - clock.preciseNow()) }

        while true {
            let socket: FeedSocket
            do {
                socket = try DaemonConnection.open(env)
            } catch is FeedSocket.Unavailable {
                // Down (or not yet up): show the last known state, stale, and keep trying;
                // the countdowns go on turning meanwhile.
                Self.write(renderer.connectionLost(now: now()))
                Thread.sleep(forTimeInterval: min(backoff, untilNextMinute()))
                backoff = min(backoff * 2, 5)
                continue
            }
            backoff = 0.2
            var request: [String: JSONValue] = ["op": "subscribe", "view": view]
            if let position { request["resume"] = ["epoch": .string(position.epoch), "seq": .int(position.seq)] }
            do {
                try socket.send(.object(request))
                var minuteDue = BarRenderer.nextMinute(after: now())
                while true {
                    // Heartbeats and diffs may keep the socket busy: the minute is checked
                    // after every wake-up, not only when the wait times out.
                    let ready = socket.waitForInput(timeout: untilNextMinute())
                    if now() >= minuteDue {
                        Self.write(renderer.tick(now: now()))
                        minuteDue = BarRenderer.nextMinute(after: now())
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
                            // A mismatch: start again from a snapshot (the bar keeps its line).
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
                        Self.write(renderer.feedChanged(BarEvent.events(in: s.model), zone: zone, now: now()))
                    }
                }
            } catch let failure as CommandFailure {
                throw failure
            } catch let usage as UsageError {
                throw usage
            } catch {
                // Lost mid-stream: fall through to stale and reconnect.
            }
            Self.write(renderer.connectionLost(now: now()))
            Thread.sleep(forTimeInterval: min(backoff, untilNextMinute()))
        }
    }

    /// Writes whole lines with one `write` each (a bar never sees half a line); stops
    /// the process quietly when the reader has gone (EPIPE).
    static func write(_ lines: [String]) {
        for line in lines {
            let bytes = Array((line + "\n").utf8)
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes { Glibc.write(1, $0.baseAddress! + offset, $0.count - offset) }
                if n < 0 {
                    if errno == EINTR { continue }
                    exit(errno == EPIPE ? 0 : 74)
                }
                offset += n
            }
        }
    }
}
