import Testing
import Foundation
import TestSupport

/// One change at a time (insert, delete, move) as the terminal shows it, frame by frame
/// (each pause in eventctl's output is one frame): the rows that stay slide by whole
/// lines, one way, through lines in between; no row is ever drawn twice or over another.
@Suite(.enabled(if: PseudoTerminal.isAvailable, "pyte is not installed in .venv (make venv)")) struct WatchFrameTests {
    static let names = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf"]

    static func today(_ entries: [(String, Int)]) -> [TestEvent] {
        entries.map { name, hour in
            TestEvent(name.lowercased(), "20261129T\(hour)0000Z", "20261129T\(hour)3000Z", name)
        }
    }

    static let base = today([("Alpha", 13), ("Bravo", 14), ("Charlie", 15), ("Delta", 16), ("Echo", 17)])

    /// The line of each event name on each frame, checking that no name is on two lines
    /// and no line holds two names.
    func positions(_ frames: [[String]]) -> [[String: Int]] {
        frames.map { screen in
            var at: [String: Int] = [:]
            for (y, line) in screen.enumerated() {
                let found = Self.names.filter { line.contains($0) }
                #expect(found.count <= 1, "two rows on line \(y): \(line)")
                for name in found {
                    #expect(at[name] == nil, "\(name) drawn twice:\n\(screen.joined(separator: "\n"))")
                    at[name] = y
                }
            }
            return at
        }
    }

    /// Imports `events`, then returns the screen before and the frames of the change.
    func change(to events: [TestEvent], _ daemon: DaemonHarness, _ terminal: PseudoTerminal) async throws -> [[String: Int]] {
        let before = try terminal.send(["op": "frames"])
        try await daemon.importCalendar(icsCalendar(events))
        try terminal.quiet(1_500, after: before.bytes)
        let frames = try terminal.send(["op": "frames"]).frames
        return positions([before.screen] + frames)
    }

    /// The distinct lines `name` passed through, in order.
    func path(_ name: String, _ frames: [[String: Int]]) -> [Int] {
        var lines: [Int] = []
        for frame in frames { if let y = frame[name], y != lines.last { lines.append(y) } }
        return lines
    }

    @Test func insertDeleteMoveFrameByFrame() async throws {
        try await DaemonHarness.with(running: Self.base) { daemon in
            let env = daemon.daemonEnvironment(["TERM": "xterm-256color", "LANG": "C.UTF-8"])
            let terminal = try PseudoTerminal(DaemonHarness.eventctl, ["--db", daemon.dbPath, "--socket", daemon.socketPath,
                                                                       "watch", "--tz", "UTC", "--days", "2"],
                                              environment: env, columns: 80, lines: 24)
            defer { terminal.close() }
            #expect(try terminal.wait(for: "Echo").ok)
            try terminal.quiet(300)
            let start = positions([try terminal.send(["op": "screen"]).screen])[0]

            // Insert two rows above Delta: Delta and Echo slide down two lines.
            let inserted = Self.base + Self.today([("Foxtrot", 14), ("Golf", 14)])
            var frames = try await change(to: inserted, daemon, terminal)
            var echo = path("Echo", frames)
            #expect(echo == [start["Echo"]!, start["Echo"]! + 1, start["Echo"]! + 2], "Echo's lines: \(echo)")
            #expect(frames.last?["Foxtrot"] != nil)
            #expect(frames.dropLast().contains { $0["Foxtrot"] == nil }, "the inserted row waits for its room")

            // Delete them again: the rows below collapse back up, through the line between.
            frames = try await change(to: Self.base, daemon, terminal)
            echo = path("Echo", frames)
            #expect(echo == [start["Echo"]! + 2, start["Echo"]! + 1, start["Echo"]!], "Echo's lines: \(echo)")
            #expect(frames.last?["Foxtrot"] == nil)

            // Move Alpha after Echo: it leaves, the rows below it slide up one line, it
            // arrives at its new place (never drawn over another row on the way).
            let moved = Self.today([("Bravo", 14), ("Charlie", 15), ("Delta", 16), ("Echo", 17), ("Alpha", 18)])
            frames = try await change(to: moved, daemon, terminal)
            #expect(path("Alpha", frames) == [start["Alpha"]!, start["Echo"]!], "Alpha's lines")
            #expect(path("Bravo", frames) == [start["Bravo"]!, start["Alpha"]!])
            #expect(frames.contains { $0["Alpha"] == nil }, "the moved row is not drawn in flight")
            try Self.screenshotIfAsked(terminal)
            try terminal.type("q")
            #expect(try terminal.send(["op": "exit"]).status == 0)
        }
    }

    static func screenshotIfAsked(_ terminal: PseudoTerminal) throws {
        guard let directory = ProcessInfo.processInfo.environment["EVENTD_WATCH_SCREENSHOTS"] else { return }
        try terminal.send(["op": "png", "path": .string(directory + "/watch-after-move.png")])
    }
}
