import Foundation
import Testing
import CalendarGenerator
import CanonicalJSON
import TestSupport

/// A browser that stops reading costs the gateway a bounded queue, never delays another
/// browser, and gets a resync and a correct snapshot when it reads again.
@Suite(.serialized) struct SlowBrowserTests {
    static let calendar = CalendarGenerator(.init(events: 2_000, seed: 11, firstDate: GeneratorDate(year: 2026, month: 11, day: 20),
                                                  spanDays: 40)).generate()
    static let query = "tz=UTC&days=30"
    static let view: JSONValue = ["tz": "UTC", "days": 30]

    /// The calendar with every summary changed: a diff that updates every item.
    static func renamed(_ round: Int) -> String {
        calendar.replacingOccurrences(of: "\r\nSUMMARY:", with: "\r\nSUMMARY:r\(round) ")
    }

    @Test func aStalledStreamIsBoundedAndResynchronisedWhenItReadsAgain() async throws {
        // eventd's own buffer small, so that the backpressure the gateway passes on shows.
        try await DaemonHarness.with(arguments: ["--client-buffer", "1048576"]) { daemon in
            try await daemon.importCalendar(Self.calendar, file: "big.ics", calendar: "big")
            try await daemon.start()
            let web = try await WebGatewayHarness.start(for: daemon)
            let reader = try await web.stream(query: Self.query)
            // (30 s, as the waits below: with the browser suites beside it on two cores, the
            // first snapshot of 2,000 events has taken over 10 s.)
            var state = try FeedState(snapshot: try await reader.next("snapshot", timeout: 30).json())
            let snapshotBytes = reader.connection.received.count
            // The stalled browser: a small receive buffer, and it reads only the head.
            let stalled = try HTTPConnection(port: web.port, receiveBuffer: 4096)
            try stalled.send("GET /api/events?\(Self.query) HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\n\(web.authorization[0])\r\n\r\n")
            try await pause(0.5)
            let rssBefore = processResidentKiB(web.pid) ?? 0

            var diffBytes = 0
            for round in 1...4 {
                let t0 = monotonicNow()
                try await daemon.importCalendar(Self.renamed(round), file: "big.ics", calendar: "big")
                print("SlowBrowserTests: import \(round) took \(Int((monotonicNow() - t0) * 1000)) ms")
                let diff = try await reader.next("diff", timeout: 30)
                try state.apply(try diff.json())
                diffBytes += diff.data.utf8.count
            }
            let rssAfter = processResidentKiB(web.pid) ?? 0
            print("SlowBrowserTests: snapshot \(snapshotBytes) bytes, 4 diffs \(diffBytes) bytes; eventd-web RSS \(rssBefore) -> \(rssAfter) KiB with one stalled stream")
            // The gateway stopped reading the stalled stream's subscription: eventd, not
            // the gateway, held its data, past its buffer, and dropped it.
            #expect(try await daemon.waitForLog("fell behind", timeout: 10), "eventd never saw the stalled subscriber fall behind")
            #expect(state.digest == (try await daemon.oneShotSnapshot(Self.view)).digest)

            // Reading again: a resync for the overflow, then a snapshot equal to the daemon's.
            let resumed = EventStreamClient(reading: stalled)
            let resync = try await resumed.next("resync", timeout: 30)
            #expect(try resync.json()["reason"] == "overflow")
            let fresh = try FeedState(snapshot: try await resumed.next("snapshot", timeout: 30).json())
            #expect(fresh.digest == state.digest)
        }
    }
}
