import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A stop that does not end, on the real binary (`EVENTD_TEST_STUCK_STOP`, debug builds:
/// a service stopped first whose stop never returns): a second SIGTERM or SIGINT ends
/// eventd at once, and without one the overall deadline (10 s) does, naming who did not
/// stop.
@Suite(.timeLimit(.minutes(1)))
struct ShutdownDeadlineTests {
    static let events = [TestEvent("s1@x", "20261130T100000Z", "20261130T110000Z", "Stuck")]

    @Test(arguments: [SIGTERM, SIGINT])
    func aSecondSignalDuringAStuckStopExitsAtOnce(signal: Int32) async throws {
        try await DaemonHarness.with(environment: ["EVENTD_TEST_STUCK_STOP": "1"]) { daemon in
            try await daemon.importCalendar(icsCalendar(Self.events))
            try await daemon.start()
            daemon.signal(SIGTERM)
            #expect(try await daemon.waitForLog("received SIGTERM, stopping", timeout: 5))
            // Stuck: still running a while later.
            #expect(try await daemon.waitForExit(timeout: 0.5) == nil, "the stuck stop should hold the daemon")
            let second = monotonicNow()
            daemon.signal(signal)
            let exit = try await daemon.waitForExit(timeout: 5)
            #expect(exit == .signaled(signal), "got \(exit.map { "\($0)" } ?? "still running")")
            // At once: milliseconds on a quiet machine; the bound leaves room for a loaded
            // one and is far below the 10 s the stuck stop would otherwise hold it.
            #expect(monotonicNow() - second < 3, "the second signal took \(monotonicNow() - second) s")
            #expect(daemon.log.contains("again while stopping; exiting at once"), "log:\n\(daemon.log)")
        }
    }

    @Test func theOverallDeadlineEndsAStuckStopNamingIt() async throws {
        try await DaemonHarness.with(environment: ["EVENTD_TEST_STUCK_STOP": "1"]) { daemon in
            try await daemon.importCalendar(icsCalendar(Self.events))
            try await daemon.start()
            let signalled = monotonicNow()
            daemon.signal(SIGTERM)
            let exit = try await daemon.waitForExit(timeout: 15)
            let took = monotonicNow() - signalled
            #expect(exit == .exited(70), "got \(exit.map { "\($0)" } ?? "still running")")
            #expect(took >= 9.5 && took < 12, "took \(took) s")
            #expect(daemon.log.contains("not stopped in time"), "log:\n\(daemon.log)")
            #expect(daemon.log.contains("stuck stop (test)"))
        }
    }
}
