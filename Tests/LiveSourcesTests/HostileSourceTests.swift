import EventStore
import Foundation
import Testing
import TestSupport
@testable import LiveSources

/// Sources that misbehave on purpose: a body that never ends, headers that never end,
/// a vdir of 10,000 files, a file rewritten 100 times a second. Each is bounded in
/// time and memory, and the feed keeps serving meanwhile.
@Suite(.serialized) struct HostileSourceTests {
    /// The most this process has ever had resident, KiB.
    static func peakResidentKiB() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss
    }

    @Test func anEndlessBodyIsCutAtTheSizeLimit() throws {
        let server = try LocalHTTPServer()
        var limits = HTTPLimits()
        limits.totalTimeout = .seconds(30)
        let fetcher = try HTTPFetcher(limits: limits)
        let before = Self.peakResidentKiB()
        let started = Date()
        #expect(throws: FetchFailure(.oversize, "http://127.0.0.1:\(server.port)/…: body over 64 MiB, transfer aborted")) {
            try fetcher.fetch(server.url("/endless"), etag: nil, lastModified: nil)
        }
        #expect(Date().timeIntervalSince(started) < 30)
        // The body buffer is at most 64 MiB (its array may have doubled once).
        #expect(Self.peakResidentKiB() - before < 200 << 10)
    }

    @Test func endlessHeadersAreCutAtTheirLimit() throws {
        let server = try LocalHTTPServer()
        let fetcher = try HTTPFetcher(limits: Fixture.limits)
        #expect(throws: FetchFailure(.headersTooLarge, "http://127.0.0.1:\(server.port)/…: response headers over 256 KiB, transfer aborted")) {
            try fetcher.fetch(server.url("/headers"), etag: nil, lastModified: nil)
        }
    }

    @Test func aTenThousandFileVdirAndAFileRewrittenAHundredTimesASecond() async throws {
        let directory = try Fixture.directory("hostile-vdir")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for i in 0..<10_000 {
            let day = i % 5 + 29
            let date = day <= 30 ? "202611\(day)" : "2026120\(day - 30)"
            try icsCalendar([TestEvent("file-\(i)@hostile", "\(date)T0\(i % 10)0000Z", "\(date)T0\(i % 10)3000Z", "Item \(i)")])
                .write(toFile: directory + "/\(i).ics", atomically: false, encoding: .utf8)
        }
        try await DaemonHarness.with { daemon in
            // Importing 10,000 files in a debug build takes 10-20 s alone and passed 30 s on
            // a loaded machine: a hang guard, not a speed figure (that is eventd-bench's).
            let add = try await daemon.eventctl(["source", "add", directory, "--calendar", "many"], timeout: 120)
            #expect(add.succeeded, "\(add.stderr)")
            #expect(add.stdout.contains("10000 added"))
            try await daemon.start()
            let (client, _) = try await daemon.subscribe(timeout: 30)
            // One file rewritten 100 times a second for two seconds, while the feed is asked.
            let writer = Task.detached {
                for n in 0..<200 {
                    try Fixture.replace(directory + "/0.ics", with: icsCalendar([TestEvent("file-0@hostile", "20261129T000000Z", "20261129T003000Z", "Rewrite \(n)")]))
                    try await Task.sleep(nanoseconds: 10_000_000)
                }
            }
            let pinger = try await daemon.connect()
            var slowest = 0.0
            // Pings for as long as the writer writes (about two seconds).
            for _ in 0..<40 {
                let started = Date()
                let answer = try await pinger.request(["op": "ping"], timeout: 5)
                #expect(answer["type"]?.stringValue == "pong")
                slowest = max(slowest, Date().timeIntervalSince(started))
                try await Task.sleep(nanoseconds: 50_000_000)
            }
            try await writer.value
            #expect(slowest < 5, "the feed stopped answering for \(slowest) s")
            // The last rewrite reaches the subscriber.
            var found = false
            let deadline = Date().addingTimeInterval(10)
            while !found, Date() < deadline {
                let message = try await client.next(timeout: 10)
                found = message.canonicalString().contains("Rewrite 199")
            }
            #expect(found)
            #expect((daemon.residentKiB() ?? 0) < 512 << 10)
            client.close()
            pinger.close()
        }
    }
}
