import Foundation
import CanonicalJSON
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The real binary under libfaketime (Debian's `faketime`), with the monotonic clock
/// left real: the wall clock steps back an hour and forward past midnight while a fake
/// `NOTIFY_SOCKET` counts watchdog pings.
@Suite(.timeLimit(.minutes(1)))
struct ClockStepTests {
    static let libfaketime = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"

    /// Moves the daemon's wall clock to `target` (seconds since the epoch): libfaketime
    /// re-reads the offset from this file on every call (`FAKETIME_NO_CACHE`).
    static func setWall(_ file: String, to target: Double) throws {
        // Rounded up: libfaketime takes whole seconds, and a clock set half a second
        // before the target (21:59:59.5 for 22:00) is not the time the test means.
        let offset = Int((target - Date().timeIntervalSince1970).rounded(.up))
        try "\(offset >= 0 ? "+" : "")\(offset)\n".write(toFile: file, atomically: true, encoding: .utf8)
    }

    static func sectionIDs(_ message: JSONValue) -> [String] {
        message["sections"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
    }

    @Test func pingsRefreshesAndMidnightSurviveWallClockSteps() async throws {
        try #require(FileManager.default.fileExists(atPath: Self.libfaketime),
                     "\(Self.libfaketime) is missing: make deps installs Debian's faketime")
        try await DaemonHarness.with { daemon in
            try await daemon.importCalendar(icsCalendar([
                TestEvent("evening@x", "20261129T230000Z", "20261129T233000Z", "Evening call"),
                TestEvent("morning@x", "20261130T100000Z", "20261130T110000Z", "Morning review"),
            ]))
            let offsetFile = daemon.directory + "/faketime-offset"
            try Self.setWall(offsetFile, to: 1_795_989_600) // 2026-11-29T22:00:00Z
            let listener = try NotifyListener(path: daemon.directory + "/notify.sock")
            // libfaketime reads the offset from the file on every call; the monotonic clock
            // stays real. (`faketime`'s own wrapper sets FAKETIME, which wins over the file;
            // and spawned directly with LD_PRELOAD the daemon got no arguments here, while
            // a shell's exec works: so the shell execs it, and its pid is the daemon's.)
            let environment = daemon.daemonEnvironment([
                "LD_PRELOAD": Self.libfaketime, "FAKETIME_TIMESTAMP_FILE": offsetFile, "FAKETIME_NO_CACHE": "1",
                "FAKETIME_DONT_FAKE_MONOTONIC": "1", "EVENTD_FAKE_NOW": "",
                "NOTIFY_SOCKET": listener.path, "WATCHDOG_USEC": "2000000",
            ])
            let pid = try daemon.spawnOther("/bin/sh", ["-c", "exec \"$@\"", "sh", DaemonHarness.eventd] + daemon.daemonArguments(),
                                            environment: environment, output: daemon.logPath)
            #expect(try await daemon.waitForLog("listening on \(daemon.socketPath)", timeout: 10), "\(daemon.log)")
            #expect(try await listener.wait(for: "READY=1", timeout: 5) != nil, "no READY=1: \(daemon.log)")
            let (client, _) = try await daemon.subscribe(["tz": "UTC", "days": 2, "empty_days": "placeholder"])
            defer { client.close() }
            let status = try await daemon.connect().request(["op": "status"])
            #expect(status["last_recompute"]?["time"]?.stringValue?.hasPrefix("2026-11-29T22:") == true,
                    "the daemon does not run on the fake clock: \(status)")

            // One hour back: the pings go on at their pace.
            try Self.setWall(offsetFile, to: 1_795_986_000) // 21:00:00Z
            let stepBack = monotonicNow()
            try await pause(3)
            let pings = listener.times(of: "WATCHDOG=1").filter { $0 > stepBack }
            let gaps = zip(pings.dropFirst(), pings).map { $0 - $1 }
            #expect(pings.count >= 2 && (gaps.max() ?? 0) < 1.6,
                    "\(pings.count) watchdog pings in the 3 s after the step back, gaps \(gaps) (one a second expected)")

            // A refresh still produces its diff at once.
            try await daemon.importCalendar(icsCalendar([
                TestEvent("evening@x", "20261129T230000Z", "20261129T233000Z", "Evening call"),
                TestEvent("morning@x", "20261130T100000Z", "20261130T110000Z", "Morning review"),
                TestEvent("late@x", "20261129T213000Z", "20261129T220000Z", "Added after the step"),
            ]))
            let imported = monotonicNow()
            let diff = try await client.next("diff", timeout: 2)
            #expect(monotonicNow() - imported < 1, "the refresh's diff took \(monotonicNow() - imported) s")
            #expect("\(diff)".contains("Added after the step"))

            // Forward past midnight: the view rolls within a second.
            try Self.setWall(offsetFile, to: 1_795_996_805) // 2026-11-30T00:00:05Z
            let jumped = monotonicNow()
            let rolled = try await client.next("diff", timeout: 3)
            #expect(monotonicNow() - jumped < 1, "the view rolled \(monotonicNow() - jumped) s after the step")
            let deleted = rolled["changes"]?["sections"]?["deleted"]?.arrayValue?.compactMap(\.stringValue) ?? []
            #expect(deleted == ["2026-11-29"], "\(rolled)")
            let after = listener.times(of: "WATCHDOG=1").filter { $0 > jumped }
            try await pause(1)
            #expect(listener.times(of: "WATCHDOG=1").filter { $0 > jumped }.count > after.count, "pings stopped after the forward step")
            #expect(daemon.log.contains("the wall clock stepped"), "\(daemon.log)")
            kill(pid, SIGTERM)
            #expect(try await daemon.waitOther(pid, timeout: 5) == .exited(0))
        }
    }
}
