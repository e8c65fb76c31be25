import Testing

/// Fault injection: eventd and eventctl must never lose or corrupt data.
/// The tests run one at a time (they measure timings, memory and descriptors of real
/// processes on a small machine); `EVENTD_STRESS_SCALE` makes them longer and larger.
/// Each prints one `reliability: <test>: key=value ...` line with what it measured.
@Suite("Reliability", .serialized)
struct ReliabilitySuite {
    @Test("1. import SIGKILLed at random moments: all or nothing, never corrupt")
    func importKilled() async throws { try await importCrashSafety() }

    @Test("2. daemon SIGKILLed and restarted on the same socket: subscribers resync")
    func daemonRestart() async throws { try await daemonKilledAndRestarted() }

    @Test("3. disk full and read-only file system during import")
    func diskFull() async throws { try await diskFullAndReadOnly() }

    @Test("4. database removed and replaced under a running daemon")
    func databaseReplaced() async throws { try await databaseRemovedAndReplaced() }

    @Test("5. concurrent imports from several processes equal sequential ones")
    func concurrent() async throws { try await concurrentImports() }

    @Test("6. load: many subscribers, one stalled, continuous changes")
    func load() async throws { try await loadWithStalledSubscriber() }

    @Test("7. connection churn: no leaks, no crossed answers")
    func churn() async throws { try await connectionChurn() }

    @Test("8. power cut (simulated by a VFS): acknowledged kept, the rest all or none")
    func powerCut() async throws { try await powerCutSafety() }
}
