import Testing
import Foundation
import TestSupport

/// `eventctl watch` at 100 columns or more: the month grid beside the agenda, read
/// through pyte cell by cell (busy days bold, the window on a background, today
/// underlined), and the window's marks following `]` and `}`.
@Suite(.enabled(if: PseudoTerminal.isAvailable, "pyte is not installed in .venv (make venv)")) struct WatchMonthGridTests {
    static let columns = 120

    func watch(_ daemon: DaemonHarness, environment: [String: String] = [:]) throws -> PseudoTerminal {
        try daemon.watch(columns: Self.columns, lines: 40, environment: environment)
    }

    /// Each day's look in the grid (the right 22 cells), by month title ("November 2026")
    /// and day: the look of the day's last digit.
    static func days(_ answer: PseudoTerminal.Answer) -> [String: [Int: String]] {
        var months: [String: [Int: String]] = [:]
        var month: String?
        for (y, line) in answer.screen.enumerated() where y > 0 && y < answer.screen.count - 1 {
            let cells = Array(line).suffix(22).map(String.init)
            let looks = Array(answer.styles[y].suffix(22))
            let text = cells.joined().trimmingCharacters(in: .whitespaces)
            if text.hasSuffix(" 2026") || text.hasSuffix(" 2027") {
                month = text
                continue
            }
            guard let month, cells.count == 22 else { continue }
            for k in 0..<7 {
                if let day = Int((cells[3 * k + 1] + cells[3 * k + 2]).trimmingCharacters(in: .whitespaces)) {
                    months[month, default: [:]][day] = looks[3 * k + 2]
                }
            }
        }
        return months
    }

    @Test func theGridMarksBusyDaysTheWindowAndTodayAndFollowsTheWindow() async throws {
        try await DaemonHarness.with(running: WatchCLITests.week) { daemon in
            let terminal = try watch(daemon)
            defer { terminal.close() }
            #expect(try terminal.wait(for: "● live").ok)
            _ = try terminal.quiet(300)
            let first = try terminal.styles()
            #expect(first.screen[1].hasPrefix("Today, Sunday 29 November"), "\(first.text)")
            #expect(first.screen.dropFirst().dropLast().allSatisfy { Array($0).count == Self.columns && Array($0)[97] == "│" },
                    "the agenda takes 97 columns, the grid the rest:\n\(first.text)")
            let grid = Self.days(first)
            let november = grid["November 2026"] ?? [:], december = grid["December 2026"] ?? [:]
            #expect(november.count == 30 && december.count == 31, "both months of the window:\n\(first.text)")
            // Today: busy, in the window, underlined.
            #expect(november[29].map { $0.hasPrefix("bu/") } == true, "29 Nov: \(november[29] ?? "-")")
            #expect(november[30].map { $0.hasPrefix("b/") } == true, "30 Nov (Planning): \(november[30] ?? "-")")
            #expect(november[28] == "", "28 Nov is before the window: \(november[28] ?? "-")")
            #expect(december[8].map { $0.hasPrefix("b/") } == true, "8 Dec (Dentist): \(december[8] ?? "-")")
            #expect(december[9].map { $0.hasPrefix("/") } == true, "9 Dec: in the window, free: \(december[9] ?? "-")")
            #expect(december[12].map { $0.hasPrefix("/") } == true, "12 Dec ends the window: \(december[12] ?? "-")")
            #expect(december[13] == "", "13 Dec is after the window: \(december[13] ?? "-")")

            try terminal.type("]")
            #expect(try terminal.wait(for: "from Mon 30 Nov", timeout: 2).ok)
            _ = try terminal.quiet(300)
            let later = Self.days(try terminal.styles())
            #expect(later["November 2026"]?[29] == "u", "today, now before the window: \(later["November 2026"]?[29] ?? "-")")
            #expect(later["December 2026"]?[13].map { $0.hasPrefix("/") } == true, "13 Dec joins the window")

            try terminal.type("}")
            #expect(try terminal.wait(for: "from Mon 7 Dec", timeout: 2).ok)
            let week = try terminal.quiet(300)
            let weekLater = Self.days(try terminal.styles())
            #expect(weekLater["November 2026"] == nil, "the window starts in December:\n\(week.text)")
            #expect(weekLater["December 2026"]?[6] == "" && weekLater["December 2026"]?[7].map { $0.hasPrefix("/") } == true,
                    "\(weekLater["December 2026"] ?? [:])\n\(week.text)")
            #expect(weekLater["December 2026"]?[8].map { $0.hasPrefix("b/") } == true)

            // Narrower than 100 columns: the agenda alone, as before.
            let resized = try terminal.send(["op": "resize", "cols": 99, "rows": 40])
            let narrow = try terminal.quiet(200, after: resized.bytes, timeout: 2)
            #expect(!narrow.text.contains("December 2026") && !narrow.text.contains("│"), "\(narrow.text)")

            try terminal.type("q")
            #expect(try terminal.send(["op": "exit", "timeout": 5]).status == 0)
        }
    }
}
