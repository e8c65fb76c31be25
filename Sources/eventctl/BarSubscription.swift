import Foundation
import CommandLineKit
import ICalendar
import FeedProtocol
import StatusBar
import AgendaText
import CanonicalJSON

/// `eventctl subscribe --format waybar|i3bar|line`: `BarRenderer`'s lines, written whole
/// to standard output, fed by `FeedFollower`.
struct BarSubscription: FeedFollower.Handler {
    var renderer: BarRenderer

    func run(_ env: CommandEnvironment, view: ViewFields, resume: Request.Resume?) throws -> Never {
        // The bar going away closes our pipe: a write then fails with EPIPE and we stop.
        signal(SIGPIPE, SIG_IGN)
        try FeedFollower(view: view, resume: resume, waitForDaemon: true).run(env, self)
    }

    mutating func changed(_ events: [BarEvent], zone: Zone, now: Int64) { Self.write(renderer.feedChanged(events, zone: zone, now: now)) }
    mutating func wake(now: Int64) { Self.write(renderer.tick(now: now)) }
    mutating func lost(now: Int64) { Self.write(renderer.connectionLost(now: now)) }
    func nextWake(after now: Int64) -> Int64 { BarRenderer.nextMinute(after: now) }

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
