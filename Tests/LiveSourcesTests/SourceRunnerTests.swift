import EventStore
import Foundation
import Synchronization
import Testing
import TestSupport
import Threads
@testable import LiveSources

/// The runner's threads with real inotify, a real database and the local HTTP server.
@Suite(.serialized) struct SourceRunnerTests {
    static func configuration(_ path: String) -> SourceRunner.Configuration {
        var c = SourceRunner.Configuration(databasePath: path, wall: WallInstant.now)
        c.limits = Fixture.limits
        c.jitter = { 0 }
        return c
    }

    @Test func aRenamedFileInAWatchedVdirRefreshesAndSyncAnswers() throws {
        let scratch = try ScratchStore()
        let directory = try Fixture.directory("runner-vdir")
        try Fixture.replace(directory + "/a.ics", with: Fixture.calendar(2))
        let source = try SourcePlanner.plan(directory, calendar: "watched", every: 900)[0]
        try scratch.store.addLiveSource(source)
        let reports = RunnerReports()
        let runner = try SourceRunner(Self.configuration(scratch.path), log: { _, _ in }, report: reports.append)
        defer { runner.stop() }
        runner.reload()  // what the daemon sends once it is ready
        #expect(reports.wait(timeout: 10) { $0.statuses.first?.lastSuccess != nil })
        #expect(reports.statuses.first?.events == 2)
        let before = reports.refreshes
        try Fixture.replace(directory + "/a.ics", with: Fixture.calendar(3))
        // docs/live-sources.md: within a second; the bound here leaves room for a loaded test machine.
        #expect(reports.wait(timeout: 5) { $0.refreshes > before && $0.statuses.first?.events == 3 })
        runner.sync(names: ["watched", "nonesuch"], token: 42)
        #expect(reports.wait(timeout: 10) { $0.synced(42) != nil })
        let answer = try #require(reports.synced(42))
        #expect(answer.map(\.name) == ["nonesuch", "watched"])
        #expect(answer[0].failure?.kind == .missing)
        #expect(answer[1].succeeded && answer[1].summary == "unchanged")
    }

    @Test func aURLSourceIsFetchedOffTheCallersThreadAndRetriedAfterAFailure() throws {
        let server = try LocalHTTPServer()
        try server.serve("cal.ics", Fixture.calendar(1))
        let scratch = try ScratchStore()
        try scratch.store.addLiveSource(LiveSource(name: "web", kind: .url, location: server.url("/status/503?k=secret"),
                                                   calendar: "web", everySeconds: 900))
        let reports = RunnerReports()
        let logs = RunnerLog()
        let runner = try SourceRunner(Self.configuration(scratch.path), log: logs.append, report: reports.append)
        defer { runner.stop() }
        runner.reload()  // what the daemon sends once it is ready
        #expect(reports.wait(timeout: 10) { $0.statuses.first?.lastError != nil })
        let failed = try #require(reports.statuses.first)
        #expect(failed.failures == 1)
        #expect(failed.location == "http://127.0.0.1:\(server.port)/…")
        // Backed off: twice the interval (±0 jitter here), from the attempt.
        let wait = (failed.nextAttempt ?? 0) - (failed.lastAttempt ?? 0)
        #expect((1799...1801).contains(wait))
        #expect(logs.lines.contains { $0.contains("source web: http://127.0.0.1:\(server.port)/…: HTTP 503") })
        #expect(!logs.lines.joined().contains("secret"))
    }

    @Test func reopenFollowsADatabaseReplacedUnderTheRunner() throws {
        let scratch = try ScratchStore()
        let directory = try Fixture.directory("runner-reopen")
        try Fixture.replace(directory + "/a.ics", with: Fixture.calendar(1))
        try scratch.store.addLiveSource(try SourcePlanner.plan(directory, calendar: "before", every: 900)[0])
        let reports = RunnerReports()
        let runner = try SourceRunner(Self.configuration(scratch.path), log: { _, _ in }, report: reports.append)
        defer { runner.stop() }
        runner.reload()  // what the daemon sends once it is ready
        #expect(reports.wait(timeout: 10) { $0.statuses.map(\.name) == ["before"] })
        // Another database, with another source, moved over the path (as a restore would).
        let replacement = try ScratchStore()
        try replacement.store.addLiveSource(try SourcePlanner.plan(directory, calendar: "after", every: 900)[0])
        try replacement.store.detachStaleFiles()
        #expect(rename(replacement.path, scratch.path) == 0)
        runner.reopen()
        #expect(reports.wait(timeout: 10) { $0.statuses.map(\.name) == ["after"] && $0.statuses[0].events == 1 })
    }
}

/// Collects the runner's log lines.
final class RunnerLog: Sendable {
    private let stored = Mutex<[String]>([])
    func append(_ warning: Bool, _ line: String) { stored.withLock { $0.append(line) } }
    var lines: [String] { stored.withLock { $0 } }
}
