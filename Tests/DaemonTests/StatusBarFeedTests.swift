import Foundation
import Glibc
import CanonicalJSON
import Testing
import TestSupport

/// `eventctl subscribe --format waybar|line` against the real daemon: the lines at a
/// minute's turn and at a change, stale while eventd is down, resumed when it is back,
/// and a clean stop when the bar goes away.
@Suite(.timeLimit(.minutes(1)))
struct StatusBarFeedTests {
    /// Two seconds before 12:15 UTC: the first minute turns during the test.
    static let environment = ["EVENTD_FAKE_NOW": "2026-11-29T12:14:58Z"]
    static let events = [TestEvent("standup@x", "20261129T123000Z", "20261129T124500Z", "Standup")]

    static func lines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().map(String.init)
    }

    /// The `class|text` of each waybar line; every line must be a whole JSON object.
    static func waybar(_ path: String) throws -> [String] {
        try lines(path).map { line in
            let o = try JSONValue.parse(Array(line.utf8), maxDepth: 8)
            return "\(o["class"]?.stringValue ?? "?")|\(o["text"]?.stringValue ?? "?")"
        }
    }

    @Test func waybarLinesFollowTheMinuteTheFeedAndTheDaemon() async throws {
        try await DaemonHarness.with(running: Self.events, environment: Self.environment) { daemon in
            let out = daemon.directory + "/bar.out"
            let bar = try daemon.spawnOther(DaemonHarness.eventctl,
                                            ["--db", daemon.dbPath, "--socket", daemon.socketPath, "subscribe", "--format", "waybar", "--tz", "UTC"],
                                            environment: daemon.daemonEnvironment(), output: out)
            func have(_ expected: [String], _ timeout: Double = 5) async throws {
                let ok = try await eventually(timeout: timeout) { (try? Self.waybar(out)) == expected }
                #expect(ok, "expected \(expected), got \((try? Self.waybar(out)) ?? Self.lines(out))")
            }
            try await have(["later|12:30 Standup · in 16 min"])
            // 12:15:00: the minute turns; 15 minutes is soon.
            try await have(["later|12:30 Standup · in 16 min", "soon|12:30 Standup · in 15 min"])
            try await daemon.importCalendar(icsCalendar([TestEvent("standup@x", "20261129T131500Z", "20261129T133000Z", "Standup moved")]))
            try await have(["later|12:30 Standup · in 16 min", "soon|12:30 Standup · in 15 min", "later|13:15 Standup moved · in 1 h"])
            _ = await daemon.stop()
            try await have(["later|12:30 Standup · in 16 min", "soon|12:30 Standup · in 15 min", "later|13:15 Standup moved · in 1 h",
                            "stale|13:15 Standup moved · in 1 h"])
            try await daemon.start()
            try await have(["later|12:30 Standup · in 16 min", "soon|12:30 Standup · in 15 min", "later|13:15 Standup moved · in 1 h",
                            "stale|13:15 Standup moved · in 1 h", "later|13:15 Standup moved · in 1 h"])
            kill(bar, SIGTERM)
            _ = try await daemon.waitOther(bar, timeout: 5)
        }
    }

    @Test func theBarStopsCleanlyWhenItsReaderGoesAway() async throws {
        try await DaemonHarness.with(running: Self.events, environment: Self.environment) { daemon in
            let fifo = daemon.directory + "/bar.fifo"
            #expect(mkfifo(fifo, 0o600) == 0)
            // Open the reading end first (non-blocking), so the child's open does not wait.
            let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            #expect(reader >= 0)
            let child = try ChildProcess.spawn(DaemonHarness.eventctl,
                                               ["--db", daemon.dbPath, "--socket", daemon.socketPath, "subscribe", "--format", "line", "--tz", "UTC"],
                                               environment: daemon.daemonEnvironment(), stdoutPath: fifo,
                                               stderrPath: daemon.directory + "/bar.err")
            var received: [UInt8] = []
            let gotLine = try await eventually(timeout: 5) {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let n = read(reader, &chunk, chunk.count)
                if n > 0 { received += chunk[0..<n] }
                return received.contains(10)
            }
            #expect(gotLine)
            #expect(String(decoding: received, as: UTF8.self) == "12:30 Standup · in 16 min\n")
            close(reader)
            // The next line (the minute's turn) finds no reader: eventctl stops, status 0.
            let exit = try await ChildProcess.wait(child, timeout: 10)
            let stderr = (try? String(contentsOfFile: daemon.directory + "/bar.err", encoding: .utf8)) ?? ""
            #expect(exit == .exited(0), "\(String(describing: exit)): \(stderr)")
            #expect(stderr.isEmpty, "quietly")
            if exit == nil { ChildProcess.killAndReap(child) }
        }
    }

    /// A write that fails otherwise (a full disk: /dev/full) is an I/O error, 74, named.
    @Test func aFailedWriteIsAnIOError() async throws {
        try await DaemonHarness.with(running: Self.events, environment: Self.environment) { daemon in
            let child = try ChildProcess.spawn(DaemonHarness.eventctl,
                                               ["--db", daemon.dbPath, "--socket", daemon.socketPath, "subscribe", "--format", "line", "--tz", "UTC"],
                                               environment: daemon.daemonEnvironment(), stdoutPath: "/dev/full",
                                               stderrPath: daemon.directory + "/bar.err")
            let exit = try await ChildProcess.wait(child, timeout: 10)
            let stderr = (try? String(contentsOfFile: daemon.directory + "/bar.err", encoding: .utf8)) ?? ""
            #expect(exit == .exited(74), "\(String(describing: exit)): \(stderr)")
            #expect(stderr == "eventctl: writing to standard output: No space left on device\n")
            if exit == nil { ChildProcess.killAndReap(child) }
        }
    }
}
