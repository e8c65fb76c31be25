import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The gateway's bounds over real sockets, against the real eventd-web: a feed line of
/// tens of megabytes, request heads that crawl, answers nobody reads. Figures are
/// printed; only generous ratios and bounds are asserted (a loaded 2-core machine).
@Suite(.serialized) struct GatewayLimitsEndToEndTests {
    /// A snapshot line of about `bytes` bytes, made of many small items as a real one is.
    static func snapshotLine(bytes: Int) -> [UInt8] {
        var line = Array(#"{"type":"snapshot","digest":"d1","epoch":"e1","sections":[{"date":"2026-12-01","items":["#.utf8)
        let item = Array(#"{"id":"ev-00000","summary":"A meeting about the quarterly figures","start":"2026-12-01T09:00:00Z","end":"2026-12-01T10:00:00Z"},"#.utf8)
        line.reserveCapacity(bytes + item.count + 64)
        while line.count < bytes { line += item }
        line.removeLast() // the last comma
        line += Array(#"]}],"seq":4,"view":{}}"#.utf8)
        return line
    }

    /// A 1 MB snapshot answer, padded in the view so that eventd-web keeps it whole.
    static let paddedSnapshot = Array((#"{"type":"snapshot","digest":"d1","epoch":"e1","sections":[],"seq":4,"view":{"pad":""#
        + String(repeating: "x", count: 1_000_000) + "\"}}").utf8)

    /// Asks `/api/snapshot` `count` times on new connections that never read, adding them to
    /// `unread` (a small receive buffer, so the answers stay queued in eventd-web).
    static func askWithoutReading(_ count: Int, of web: WebGatewayHarness, into unread: inout [HTTPConnection]) throws {
        for _ in 0..<count {
            let c = try HTTPConnection(port: web.port, receiveBuffer: 4096)
            try c.send("GET /api/snapshot HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\n\(web.authorizationLines)\r\n")
            unread.append(c)
        }
    }

    /// Reads `connection` (without keeping what it reads) until its last bytes contain
    /// `marker`; returns the bytes read.
    static func readThrough(_ connection: HTTPConnection, marker: String, timeout: Double) async throws -> Int {
        var total = 0
        var tail: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        let deadline = monotonicNow() + timeout
        while !String(decoding: tail, as: UTF8.self).contains(marker) {
            let n = chunk.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 {
                total += n
                tail = Array((tail + chunk[0..<n]).suffix(512))
            } else if n == 0 {
                throw HarnessError("closed after \(total) bytes: \(String(decoding: tail, as: UTF8.self))")
            } else {
                if monotonicNow() >= deadline { throw HarnessError("timed out after \(total) bytes") }
                try await pause(0.002)
            }
        }
        return total
    }

    @Test func aLargeFeedLineCostsInProportionToItsSize() async throws {
        let small = Self.snapshotLine(bytes: 6_400_000), big = Self.snapshotLine(bytes: 57_000_000)
        try await DaemonHarness.with { daemon in
            let feed = try FakeFeed(path: daemon.socketPath) { request in [request.contains("\"big\"") ? big : small] }
            defer { feed.stop() }
            let web = try await WebGatewayHarness.start(for: daemon, arguments: ["--log-level", "info"])
            var cpu: [Double] = []
            for calendar in ["small", "big"] {
                let before = processCPUSeconds(web.pid) ?? 0
                let started = monotonicNow()
                let stream = try HTTPConnection(port: web.port)
                try stream.send("GET /api/events?calendar=\(calendar) HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\n\(web.authorizationLines)\r\n")
                // Meanwhile static files, as the page's other requests would be: the
                // slowest answer is printed.
                async let fileSeconds: Double = {
                    var slowest = 0.0
                    for _ in 0..<40 {
                        let fileStarted = monotonicNow()
                        let file = try await web.get("/app.js", timeout: 60)
                        slowest = max(slowest, monotonicNow() - fileStarted)
                        #expect(file.status == 200)
                        try await pause(0.05)
                    }
                    return slowest
                }()
                let bytes = try await Self.readThrough(stream, marker: "event: offline", timeout: 120)
                let used = (processCPUSeconds(web.pid) ?? 0) - before
                cpu.append(used)
                let streamed = monotonicNow() - started
                print(String(format: "GatewayLimitsEndToEndTests: a %d-byte line: %d bytes streamed in %.2f s, eventd-web CPU %.2f s; /app.js meanwhile in %.3f s at most",
                             calendar == "big" ? big.count : small.count, bytes, streamed, used, try await fileSeconds))
                stream.close()
            }
            // 9 times the bytes: linear is about 9 times the CPU; allow 20 (and a floor
            // for the clock tick and a quiet small run).
            #expect(cpu[1] <= 20 * max(cpu[0], 0.1), "CPU \(cpu[1]) s for 57 MB against \(cpu[0]) s for 6.4 MB")
        }
    }

    @Test func threeHundredSlowHeadsLeaveHealthzAnsweringWithinASecond() async throws {
        try await DaemonHarness.with(running: GatewayEndToEndTests.events) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon, arguments: ["--log-level", "info"])
            func crawler() -> HTTPConnection? {
                guard let c = try? HTTPConnection(port: web.port) else { return nil }
                try? c.send("G")
                return c
            }
            var slow = (0..<300).compactMap { _ in crawler() }
            var worst = 0.0
            for _ in 0..<5 {
                // One byte a second each; an attacker reconnects what the gateway closed.
                for i in slow.indices where slow[i].poll() >= 0 && (slow[i].closedByPeer || (try? slow[i].send("E")) == nil) {
                    slow[i].close()
                    if let c = crawler() { slow[i] = c }
                }
                let started = monotonicNow()
                let health = try await web.get("/healthz", timeout: 20)
                worst = max(worst, monotonicNow() - started)
                #expect(health.status == 200)
                try await pause(1)
            }
            print(String(format: "GatewayLimitsEndToEndTests: /healthz beside 300 heads sent a byte a second: slowest %.3f s", worst))
            #expect(worst < 1)
            for c in slow { c.close() }
        }
    }

    @Test func answersNobodyReadsStayWithinTheOutputBudget() async throws {
        // 40 unread answers of 1 MB would queue 40 MB; the budget is 16 MiB here (256 MiB
        // by default: the same rule, but parsing that much takes long in a debug build).
        let budget = 16 << 20
        let snapshot = Self.paddedSnapshot
        try await DaemonHarness.with { daemon in
            let feed = try FakeFeed(path: daemon.socketPath) { _ in [snapshot] }
            defer { feed.stop() }
            // --max-streams out of the way: the 503 must come from the budget.
            let web = try await WebGatewayHarness.start(for: daemon, arguments: ["--max-streams", "4096"],
                                                        environment: ["EVENTD_WEB_OUTPUT_BUDGET": "\(budget)"])
            let before = processResidentKiB(web.pid) ?? 0
            var unread: [HTTPConnection] = []
            func askWithoutReading(_ count: Int) throws { try Self.askWithoutReading(count, of: web, into: &unread) }
            try askWithoutReading(40)
            // Until the budget is used up: a late request (which reads its answer) is 503.
            // The kernel's send buffers take part of each answer, more as they grow, so
            // more readers that never read come until it is.
            var late: HTTPConnection?
            #expect(try await eventually(timeout: 60, every: 0.5) {
                late = try await web.get("/api/snapshot", timeout: 20)
                if late?.status != 503, unread.count < 400 { try askWithoutReading(8) }
                return late?.status == 503
            })
            try await pause(1)
            let after = processResidentKiB(web.pid) ?? 0
            print("GatewayLimitsEndToEndTests: \(unread.count) unread 1 MB snapshot answers, a budget of \(budget >> 20) MiB: eventd-web RSS \(before / 1024) MiB before, \(after / 1024) MiB after; a late request: \(late?.status ?? 0)")
            #expect(after - before < (budget >> 10) + 64 * 1024, "RSS grew by \((after - before) / 1024) MiB")
            for c in unread { c.close() }
        }
    }

    /// Issue 43, point 6: rounds of answers nobody reads, each until the budget is used
    /// up, then the readers go. The peak stays within the budget and 64 MiB, and idle RSS
    /// comes back within 32 MiB of where it started. (A budget of 64 MiB by default;
    /// `EVENTD_TEST_WEB_BUDGET_MIB=256` measures the shipped one, for docs/memory.md.)
    @Test func roundsOfUnreadAnswersGiveTheirMemoryBack() async throws {
        let budget = (Int(ProcessInfo.processInfo.environment["EVENTD_TEST_WEB_BUDGET_MIB"] ?? "") ?? 64) << 20
        let snapshot = Self.paddedSnapshot
        try await DaemonHarness.with { daemon in
            let feed = try FakeFeed(path: daemon.socketPath) { _ in [snapshot] }
            defer { feed.stop() }
            let web = try await WebGatewayHarness.start(for: daemon, arguments: ["--max-streams", "4096"],
                                                        environment: ["EVENTD_WEB_OUTPUT_BUDGET": "\(budget)"])
            let start = processResidentKiB(web.pid) ?? 0
            var idle: [Int] = [], asked: [Int] = []
            for _ in 0..<3 {
                var unread: [HTTPConnection] = []
                var late: HTTPConnection?
                #expect(try await eventually(timeout: 120, every: 0.2) {
                    late = try await web.get("/api/snapshot", timeout: 30)
                    if late?.status != 503, unread.count < (budget >> 20) * 4 {
                        try Self.askWithoutReading(16, of: web, into: &unread)
                    }
                    return late?.status == 503
                })
                asked.append(unread.count)
                for c in unread { c.close() }
                // The loop gives memory back on its next tick once the output is gone.
                try await pause(2.5)
                idle.append((processResidentKiB(web.pid) ?? 0) / 1024)
            }
            let peak = (processPeakResidentKiB(web.pid) ?? 0) / 1024
            print("GatewayLimitsEndToEndTests: rounds of \(asked) unread 1 MB answers, a budget of \(budget >> 20) MiB: eventd-web RSS \(start / 1024) MiB at start, idle after each round \(idle) MiB, peak \(peak) MiB")
            #expect(peak <= (budget >> 20) + 64, "peak \(peak) MiB")
            #expect(idle.allSatisfy { $0 <= start / 1024 + 32 }, "idle \(idle) MiB, from \(start / 1024)")
        }
    }
}
