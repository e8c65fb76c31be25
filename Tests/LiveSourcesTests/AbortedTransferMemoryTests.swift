import Foundation
import Testing
import TestSupport

/// Issue 52, point 11: bodies cut at 64 MiB, one sync after another, leave eventd's
/// resident size where it was (glibc kept each in a fetch thread's arena before).
@Suite struct AbortedTransferMemoryTests {
    @Test func abortedDownloadsDoNotPileUp() async throws {
        let server = try LocalHTTPServer()
        try server.serve("c.ics", Fixture.calendar(1))
        try await DaemonHarness.with { daemon in
            try await daemon.start()
            let add = try await daemon.eventctl(["source", "add", server.url("/switch/c.ics"), "--calendar", "big"])
            #expect(add.succeeded, "\(add.stderr)")
            let pid = try #require(daemon.pid)
            let before = try #require(processResidentKiB(pid))
            try server.serve("c.ics.endless", "")
            for _ in 0..<3 {
                let sync = try await daemon.eventctl(["source", "sync", "big"], timeout: 120)
                #expect(sync.stdout.contains("body over 64 MiB"), "\(sync.stdout)\(sync.stderr)")
            }
            let after = try #require(processResidentKiB(pid))
            #expect(after - before < 24 << 10, "RSS \(before) KiB -> \(after) KiB after three aborted 64 MiB bodies")
        }
    }
}
