import CalendarGenerator
import CanonicalJSON
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Faults between Redis and the gateways, with a real redis-server: Redis restarted with
/// its data, and a browser that stops reading.
@Suite(.timeLimit(.minutes(3)))
struct UpstreamFaultTests {
    static let query = UpstreamEndToEndTests.query

    /// Redis killed after a `SAVE`, a change while it is away, and Redis started again from
    /// its dump (an older stream and snapshot key than eventd's state): every browser on
    /// both gateways, each reconnecting as its EventSource would, ends live on the socket
    /// subscriber's digest, and the next change reaches them all as the socket's line.
    @Test func redisRestartedWithItsDataLeavesEveryBrowserConsistent() async throws {
        let redis = try await RedisServerProcess()
        try await DaemonHarness.with(running: PublishEndToEndTests.base, arguments: ["--publish", redis.url()]) { daemon in
            let (socket, state) = try await daemon.subscribe(protocolVersion: 2)
            defer { socket.close() }
            let web1 = try await WebGatewayHarness.start(for: daemon, arguments: ["--upstream", redis.url()], name: "web1")
            let web2 = try await WebGatewayHarness.start(for: daemon, arguments: ["--upstream", redis.url()], name: "web2")
            var browsers: [ReconnectingEventStream] = []
            for web in [web1, web2, web1, web2] { browsers.append(try await ReconnectingEventStream(web, query: Self.query)) }
            #expect(try await ReconnectingEventStream.waitUntilConsistent(browsers, with: state.digest, timeout: 30))

            var events = PublishEndToEndTests.base
            _ = try await redis.cli(["SAVE"])
            // A change Redis gets but its dump does not hold.
            events[0].summary = "After the save"
            try await daemon.importCalendar(icsCalendar(events))
            let saved = try await socket.next("diff")
            #expect(try await ReconnectingEventStream.waitUntilConsistent(browsers, with: saved["digest"]?.stringValue, timeout: 15))

            redis.crash()
            events[1].summary = "While Redis was away"
            try await daemon.importCalendar(icsCalendar(events))
            let missed = try await socket.next("diff")
            try await redis.startAgain()
            let answering = monotonicNow()
            let consistent = try await ReconnectingEventStream.waitUntilConsistent(browsers, with: missed["digest"]?.stringValue, timeout: 30)
            let took = monotonicNow() - answering
            print("UpstreamFaultTests: 4 browsers on 2 gateways consistent \(Int(took * 1000)) ms after Redis (restarted with its data) answered; reconnections \(browsers.map(\.reconnections))")
            #expect(consistent, "\(browsers.map { ($0.live, $0.digest, $0.seen.suffix(6)) })")
            #expect(took < 15)

            // Live again: the next change reaches every browser as the socket's line.
            events[2].summary = "After Redis came back"
            try await daemon.importCalendar(icsCalendar(events))
            let next = try await socket.next("diff")
            let line = String(decoding: socket.lastLine, as: UTF8.self)
            #expect(try await ReconnectingEventStream.waitUntilConsistent(browsers, with: next["digest"]?.stringValue, timeout: 15))
            for browser in browsers { #expect(browser.lastData == line) }
        }
    }

    static let calendar = CalendarGenerator(.init(events: 2_000, seed: 11, firstDate: GeneratorDate(year: 2026, month: 11, day: 20),
                                                  spanDays: 40)).generate()
    static let bigQuery = "tz=UTC&days=30"

    /// A browser that never reads (a small receive buffer) beside two that do: the others
    /// get every diff soon after the socket subscriber, the gateway ends the stalled
    /// stream once its bounded buffer is full, and that browser, reading again, finds the
    /// end of its stream and resumes on the socket's state.
    @Test func aStalledBrowserHoldsUpNeitherTheOthersNorTheReads() async throws {
        let redis = try await RedisServerProcess()
        try await DaemonHarness.with(arguments: ["--publish", redis.url()]) { daemon in
            try await daemon.importCalendar(Self.calendar, file: "big.ics", calendar: "big")
            try await daemon.start()
            let (socket, _) = try await daemon.subscribe(["tz": "UTC", "days": 30], protocolVersion: 2, timeout: 30)
            defer { socket.close() }
            let web = try await WebGatewayHarness.start(for: daemon, arguments: ["--upstream", redis.url()])
            let readers = [try await web.stream(query: Self.bigQuery), try await web.stream(query: Self.bigQuery)]
            for reader in readers { _ = try await reader.next("snapshot", timeout: 30) }
            // The same kind of change without a stalled browser, for comparison.
            func change(_ round: Int) async throws -> Double {
                try await daemon.importCalendar(Self.calendar.replacingOccurrences(of: "\r\nSUMMARY:", with: "\r\nSUMMARY:r\(round) "),
                                                file: "big.ics", calendar: "big")
                let diff = try await socket.next("diff", timeout: 30)
                let atSocket = monotonicNow()
                for reader in readers {
                    let event = try await reader.next("diff", timeout: 30)
                    #expect(try event.json()["digest"]?.stringValue == diff["digest"]?.stringValue)
                }
                return monotonicNow() - atSocket
            }
            let baseline = try await change(0)
            let stalled = try HTTPConnection(port: web.port, receiveBuffer: 4096)
            try stalled.send("GET /api/events?\(Self.bigQuery) HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\n\(web.authorization[0])\r\n\r\n")
            try await pause(1)
            let rssBefore = processResidentKiB(web.pid) ?? 0

            var worst = 0.0
            for round in 1...5 { worst = max(worst, try await change(round)) }
            // A one-shot carries protocol 1's digest; the stream's lines carry protocol 2's.
            let digest = FeedState.digest(of: try await daemon.oneShotSnapshot(["tz": "UTC", "days": 30]).sections, protocolVersion: 2)
            let rssAfter = processResidentKiB(web.pid) ?? 0
            print("UpstreamFaultTests: diffs reached the other browsers \(Int(baseline * 1000)) ms after the socket subscriber without a stalled browser, at most \(Int(worst * 1000)) ms with one; eventd-web RSS \(rssBefore) -> \(rssAfter) KiB")
            #expect(worst < 10)
            // The gateway ended the stalled stream rather than queue without bound.
            #expect(web.log.contains("stream ends"), "\(web.log.suffix(2000))")

            // Reading again: what was queued, then the end of its stream; reconnecting with
            // its last id, it ends on the socket's state.
            let resumed = EventStreamClient(reading: stalled)
            _ = try await resumed.next("offline", timeout: 30)
            let lastID = resumed.events.last { $0.id != nil }?.id
            let again = try await web.stream(query: Self.bigQuery, lastEventID: lastID)
            var state: String?
            let deadline = monotonicNow() + 30
            while state != digest && monotonicNow() < deadline {
                for event in again.poll() where event.event == "snapshot" || event.event == "diff" {
                    state = try event.json()["digest"]?.stringValue
                }
                try await pause(0.05)
            }
            #expect(state == digest)
        }
    }
}
