import EventStore
import Foundation
import Testing
import TestSupport
import Threads
@testable import LiveSources

/// URL sources against the local HTTP server: conditional requests, gzip, redirects,
/// and every kind of failure keeping the last good events, recorded in one redacted
/// line, with the next attempt backed off.
@Suite(.serialized) struct HTTPSourceTests {
    let server: LocalHTTPServer
    let scratch: ScratchStore
    let syncer: SourceSyncer
    let fetcher: HTTPFetcher

    init() throws {
        server = try LocalHTTPServer()
        scratch = try ScratchStore()
        syncer = SourceSyncer(store: scratch.store)
        fetcher = try HTTPFetcher(limits: Fixture.limits)
    }

    func attempt(_ source: LiveSource) -> SyncReport {
        let result: Result<FetchResult, FetchFailure>
        do { result = .success(try fetcher.fetch(source.location, etag: source.state.etag, lastModified: source.state.lastModified)) }
        catch { result = .failure(error) } // `fetch` throws FetchFailure only
        return syncer.apply(result, to: source, now: 1_800_000_000)
    }

    @Test func conditionalRequestsAnswered304WriteNothing() throws {
        try server.serve("team.ics", Fixture.calendar(3))
        var source = try Fixture.urlSource(scratch.store, server.url("/files/team.ics?token=s3cret"))
        let first = attempt(source)
        #expect(first.succeeded && first.changedEvents)
        #expect(first.summary == "3 added, 0 updated, 0 removed")
        #expect(first.source.state.etag != nil)
        source = first.source
        let other = try EventStore(path: scratch.path)
        let version = try other.dataVersion()
        let second = attempt(source)
        #expect(second.succeeded && !second.changedEvents)
        #expect(second.summary == "not modified")
        #expect(try other.dataVersion() == version)
        #expect(server.requests.suffix(2) == ["/files/team.ics?token=s3cret 200", "/files/team.ics?token=s3cret 304"])
        // A changed file: a new body, imported.
        try server.serve("team.ics", Fixture.calendar(4))
        let third = attempt(second.source)
        #expect(third.summary == "1 added, 0 updated, 0 removed")
        #expect(try scratch.store.eventCount(calendar: "web") == 4)
    }

    @Test func anUnchangedBodyWithoutValidatorsIsNotParsedOrWritten() throws {
        try server.serve("plain.ics", Fixture.calendar(2))
        let source = try Fixture.urlSource(scratch.store, server.url("/files/plain.ics"))
        var first = attempt(source)
        #expect(first.succeeded)
        // The server's validators forgotten: the body comes again, with the same hash.
        first.source.state.etag = nil
        first.source.state.lastModified = nil
        let other = try EventStore(path: scratch.path)
        let version = try other.dataVersion()
        let second = attempt(first.source)
        #expect(second.summary == "unchanged")
        #expect(!second.changedEvents)
        #expect(server.requests.last == "/files/plain.ics 200")
        #expect(try other.dataVersion() == version)
    }

    @Test func gzipAndRedirectsAreFollowed() throws {
        try server.serve("z.ics", Fixture.calendar(5, summary: String(repeating: "padding ", count: 20)))
        let zipped = try fetcher.fetch(server.url("/files/z.ics?gzip=1"), etag: nil, lastModified: nil)
        guard case .body(let bytes, _, _) = zipped else { Issue.record("no body"); return }
        #expect(bytes == Array(try String(contentsOfFile: server.root + "/z.ics", encoding: .utf8).utf8))
        let redirected = try fetcher.fetch(server.url("/redirect/5/z.ics"), etag: nil, lastModified: nil)
        guard case .body(let again, _, _) = redirected else { Issue.record("no body"); return }
        #expect(again == bytes)
    }

    @Test(arguments: [
        ("/status/500", FetchFailure.Kind.httpStatus),
        ("/status/404", .httpStatus),
        ("/html", .notICalendar),
        ("/truncated", .truncated),
        ("/oversize/5", .oversize),
        ("/slow/5", .timeout),
        ("/loop", .tooManyRedirects),
        ("/redirect/6/good.ics", .tooManyRedirects),
    ])
    func failuresKeepTheLastGoodEventsAndBackOff(path: String, kind: FetchFailure.Kind) throws {
        try server.serve("good.ics", Fixture.calendar(3))
        let good = attempt(try Fixture.urlSource(scratch.store, server.url("/files/good.ics?token=s3cret")))
        #expect(good.succeeded)
        var source = good.source
        source.location = server.url(path + (path.contains("?") ? "&" : "?") + "token=s3cret")
        var schedule = SourceScheduler(jitter: { 0 })
        schedule.add("web", every: .seconds(900), due: MonotonicInstant(sinceStart: .zero))
        _ = schedule.start(at: MonotonicInstant(sinceStart: .zero))
        let failed = attempt(source)
        #expect(failed.failure?.kind == kind, "\(failed.summary)")
        #expect(try scratch.store.eventCount(calendar: "web") == 3)
        let stored = try #require(try scratch.store.liveSource(named: "web"))
        #expect(stored.state.lastError == failed.failure?.message)
        #expect(stored.state.failures == 1)
        #expect(stored.state.events == 3)
        #expect(stored.state.lastError?.contains("s3cret") == false)
        #expect(stored.state.lastError?.hasPrefix("http://127.0.0.1:\(server.port)/…") == true)
        #expect(stored.state.lastError?.contains("\n") == false)
        #expect(schedule.finished("web", .failure, at: MonotonicInstant(sinceStart: .seconds(10)))?.sinceStart == .seconds(1810))
    }

    @Test func aRefusedConnectionIsRecordedAndKeepsTheEvents() throws {
        try server.serve("good.ics", Fixture.calendar(2))
        var source = try #require(attempt(try Fixture.urlSource(scratch.store, server.url("/files/good.ics"))).source as LiveSource?)
        // A port nothing listens on: bind one, and close it.
        let probe = try LocalHTTPServer()
        let dead = probe.url("/files/x.ics")
        probe.stop()
        source.location = dead
        let failed = attempt(source)
        #expect(failed.failure?.kind == .refused)
        #expect(try scratch.store.eventCount(calendar: "web") == 2)
    }

    @Test func theCalendarsRefreshIntervalIsRecorded() throws {
        try server.serve("ttl.ics", Fixture.calendar(1, extraHeader: ["REFRESH-INTERVAL;VALUE=DURATION:PT6H"]))
        let report = attempt(try Fixture.urlSource(scratch.store, server.url("/files/ttl.ics")))
        #expect(report.ttl == 21_600)
        #expect(try scratch.store.liveSource(named: "web")?.state.ttlSeconds == 21_600)
    }

    @Test func anUntrustedCertificateIsATLSFailure() throws {
        let secure = try LocalHTTPServer(tls: true)
        try secure.serve("x.ics", Fixture.calendar(1))
        #expect(throws: FetchFailure.self) { try fetcher.fetch(secure.url("/files/x.ics"), etag: nil, lastModified: nil) }
        do {
            _ = try fetcher.fetch(secure.url("/files/x.ics?token=s3cret"), etag: nil, lastModified: nil)
        } catch {
            #expect(error.kind == .tls, "\(error)")
            #expect(error.message.hasPrefix("https://127.0.0.1:\(secure.port)/…: TLS failed"))
        }
        #expect(secure.requests.isEmpty)
    }
}
