import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// 1,000 browsers on one eventd-web at once: each gets its snapshot, then the diff of
/// one import. The time from the import's start to each stream's diff (p50, p99, max)
/// and the gateway's resident memory are printed for docs/performance.md (not asserted: no speed
/// checks in tests); that every stream gets the diff is.
@Suite(.serialized) struct GatewayLoadTests {
    static let streams = 1_000

    /// Waits until every connection's text satisfies `done`, reading only the ready ones;
    /// returns for each the monotonic time it first did.
    static func waitAll(_ connections: [HTTPConnection], timeout: Double, _ done: (String) -> Bool) async throws -> [Double] {
        var finished = [Double?](repeating: nil, count: connections.count)
        var fds = connections.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        let deadline = monotonicNow() + timeout
        var left = connections.count
        while left > 0 {
            let ready = fds.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t($0.count), 0) }
            if ready > 0 {
                let now = monotonicNow()
                for i in fds.indices where fds[i].revents != 0 {
                    connections[i].poll()
                    if finished[i] == nil, done(connections[i].text) {
                        finished[i] = now
                        left -= 1
                        fds[i].fd = -1 // no more interest
                    } else if connections[i].closedByPeer {
                        throw HarnessError("stream \(i) closed: \(connections[i].text.suffix(300))")
                    }
                }
            }
            if monotonicNow() >= deadline {
                let stuck = finished.indices.filter { finished[$0] == nil }
                let first = stuck.first.map { "stream \($0) received \(connections[$0].received.count) bytes: \(connections[$0].text.prefix(300))" } ?? ""
                throw HarnessError("\(left) of \(connections.count) streams still waiting (\(stuck.prefix(10)); \(first))")
            }
            if ready <= 0 { try await pause(0.001) }
        }
        return finished.map { $0! }
    }

    @Test func aThousandStreamsEachGetTheDiffOfAnImport() async throws {
        try await DaemonHarness.with(running: GatewayEndToEndTests.events, arguments: ["--max-clients", "2048"]) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon, arguments: ["--max-streams", "1100", "--log-level", "info"])
            var connections: [HTTPConnection] = []
            for _ in 0..<Self.streams {
                let c = try HTTPConnection(port: web.port)
                try c.send("GET /api/events?\(GatewayEndToEndTests.view) HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\n\(web.authorization[0])\r\n\r\n")
                connections.append(c)
            }
            // On a failure, what eventd-web said of the streams that went wrong.
            func explained<T>(_ what: String, _ body: () async throws -> T) async throws -> T {
                do { return try await body() } catch {
                    let lines = web.log.split(separator: "\n").filter { !$0.contains("<7>") }.suffix(40)
                    print("eventd-web log after \(what) failed (\(error)), not debug lines:\n" + lines.joined(separator: "\n"))
                    throw error
                }
            }
            _ = try await explained("the snapshots") { try await Self.waitAll(connections, timeout: 60) { $0.contains("event: snapshot\n") } }
            let rssBefore = processResidentKiB(web.pid) ?? -1

            let started = monotonicNow()
            async let imported: Double = {
                try await daemon.importCalendar(icsCalendar(GatewayEndToEndTests.events + [
                    TestEvent("load@x", "20261201T090000Z", "20261201T100000Z", "Load"),
                ]))
                return monotonicNow()
            }()
            let arrivals = try await explained("the diffs") { try await Self.waitAll(connections, timeout: 60) { $0.contains("event: diff\n") } }
            let importMS = (try await imported - started) * 1000
            let latencies = arrivals.map { ($0 - started) * 1000 }.sorted()
            let rss = processResidentKiB(web.pid) ?? -1
            #expect(latencies.count == Self.streams)
            let p = { (q: Double) in latencies[min(latencies.count - 1, Int(Double(latencies.count) * q))] }
            print(String(format: "GatewayLoadTests: %d streams; import start -> diff at each stream: p50 %.0f ms, p99 %.0f ms, max %.0f ms; eventd-web RSS %d KiB with the streams open (%d KiB before the diff); the eventctl import process ran %.0f ms",
                         Self.streams, p(0.5), p(0.99), latencies.last!, rss, rssBefore, importMS))
            for c in connections { c.close() }
        }
    }
}
