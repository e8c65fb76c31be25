import Foundation
import CommandLineKit
import ICalendar
import FeedProtocol
import StatusBar
import AgendaText

/// `eventctl subscribe --format waybar|i3bar|line`: `BarRenderer`'s lines, written whole
/// to standard output, fed by `FeedFollower`.
struct BarSubscription: FeedFollower.Handler {
    var renderer: BarRenderer

    /// The bar has gone (standard output's reader closed it): the subscription ends
    /// quietly, with status 0.
    struct ReaderGone: Error {}

    /// Follows the feed until the bar goes away (then returns) or a failure ends it.
    func run(_ env: CommandEnvironment, view: ViewFields, resume: Request.Resume?) throws {
        // The bar going away closes our pipe: a write then fails with EPIPE and we stop.
        signal(SIGPIPE, SIG_IGN)
        do {
            try FeedFollower(view: view, resume: resume, waitForDaemon: true).run(env, self)
        } catch is ReaderGone {
            return
        }
    }

    mutating func changed(_ events: [BarEvent], zone: Zone, now: Int64) throws {
        try Self.write(renderer.feedChanged(events, zone: zone, now: now))
    }
    mutating func wake(now: Int64) throws { try Self.write(renderer.tick(now: now)) }
    mutating func lost(now: Int64) throws { try Self.write(renderer.connectionLost(now: now)) }
    func nextWake(after now: Int64) -> Int64 { BarRenderer.nextMinute(after: now) }

    /// Writes whole lines with one `write` each (a bar never sees half a line).
    /// Throws `ReaderGone` when the reader has gone (EPIPE), and an I/O failure (74, by
    /// the error table) when the write fails otherwise.
    static func write(_ lines: [String]) throws {
        for line in lines {
            let bytes = Array((line + "\n").utf8)
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes { Glibc.write(1, $0.baseAddress! + offset, $0.count - offset) }
                if n < 0 {
                    let error = errno
                    if error == EINTR { continue }
                    if error == EPIPE { throw ReaderGone() }
                    throw CommandFailure.ioFailure("writing to standard output: \(String(cString: strerror(error)))")
                }
                offset += n
            }
        }
    }
}
