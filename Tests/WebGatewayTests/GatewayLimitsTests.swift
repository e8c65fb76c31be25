import Testing
#if canImport(Glibc)
import Glibc
#endif
import FeedProtocol
@testable import WebGateway

/// The gateway's bounds against hostile or careless clients, in-process with a fake
/// clock: feed lines in many pieces, request heads that crawl, answers nobody reads.
@Suite struct GatewayLimitsTests {
    /// A snapshot line of about `bytes` bytes.
    static func bigSnapshot(_ bytes: Int) -> String {
        #"{"type":"snapshot","digest":"d1","epoch":"e1","sections":[],"seq":4,"view":{"pad":""#
            + String(repeating: "x", count: bytes) + "\"}}"
    }

    @Test func aLineInManyPiecesIsFramedOnceAndForwardedWhole() {
        var h = GatewayHarness()
        let id = h.request("/api/events")
        h.handle(.upstreamConnected(id))
        h.upstream(id, lines: [GatewayHarness.hello])
        let line = Array((Self.bigSnapshot(300_000) + "\n").utf8)
        var pieces = 0
        for start in stride(from: 0, to: line.count, by: 997) {
            h.handle(.upstreamReceived(id, line[start..<min(line.count, start + 997)]))
            pieces += 1
            // Only the stream's head and eventd's hello until the line is whole.
            if start + 997 < line.count { #expect(h.gateway.output(id)?.pending.count == 2) }
        }
        #expect(pieces > 300)
        let text = h.output(id)
        #expect(text.hasSuffix("event: snapshot\nid: e1.4\ndata: \(Self.bigSnapshot(300_000))\n\n"))
    }
}

extension GatewayLimitsTests {
    static let get = "GET / HTTP/1.1\r\nHost: \(GatewayHarness.host)\r\n\r\n"

    @Test func aHeadThatCrawlsIs408AfterTheGrace() {
        var h = GatewayHarness()
        let crawling = h.connect(), steady = h.connect()
        for second in 1...3 {
            h.send("G", from: crawling)
            h.send(String(repeating: "X-Pad: 0123456789\r\n", count: second == 1 ? 0 : 8), from: steady)
            h.advance(1)
        }
        #expect(h.status(crawling) == 408)
        #expect(h.output(steady).isEmpty) // 300 bytes in 3 s: over 64 a second
        h.send("GET / HTTP/1.1\r\n", from: steady)
        h.advance(8) // but 10 s in all at most
        #expect(h.status(steady) == 408)
    }

    @Test func oneAddressHasAtMost32HeadsArrivingAndANewOneEvictsItsOldest() {
        var h = GatewayHarness()
        var ids: [ClientID] = []
        for _ in 0..<40 {
            let id = h.nextID
            h.nextID += 1
            h.handle(.browserAccepted(id, peer: "192.0.2.7"))
            ids.append(id)
        }
        #expect(h.gateway.pendingHeads == 32)
        for id in ids.prefix(8) { #expect(h.effects.contains(.close(id))) }
        #expect(!h.effects.contains(.close(ids[8])))
        // Another address is not affected, and the newest of the first is read.
        let other = h.nextID
        h.nextID += 1
        h.handle(.browserAccepted(other, peer: "192.0.2.8"))
        h.send(Self.get, from: other)
        h.send(Self.get, from: ids.last!)
        #expect(h.status(other) == 200)
        #expect(h.status(ids.last!) == 200)
        #expect(h.gateway.pendingHeads == 31)
    }

    @Test func theHeadsANewConnectionWouldEvictAreNamedSoTheLoopCanReadThemFirst() {
        var h = GatewayHarness { $0.maxPendingHeadsPerAddress = 2; $0.maxPendingHeads = 3 }
        let first = h.connect(), second = h.connect()
        #expect(h.gateway.headsToEvict(forNewFrom: "192.0.2.9") == (nil, nil))
        let local = h.gateway.headsToEvict(forNewFrom: "") // `connect()`'s unknown address
        #expect(local.perAddress == first && local.total == nil)
        // The loop read the oldest again and found its head complete: nothing is evicted.
        h.send(Self.get, from: first)
        #expect(h.gateway.headsToEvict(forNewFrom: "") == (nil, nil))
        let third = h.connect()
        #expect(h.gateway.headsToEvict(forNewFrom: "").perAddress == second)
        h.handle(.browserAccepted(h.nextID, peer: "192.0.2.9"))
        #expect(h.gateway.headsToEvict(forNewFrom: "192.0.2.10") == (nil, second))
        #expect(!h.effects.contains(.close(first)) && !h.effects.contains(.close(third)))
    }

    @Test func aFullTableOfHeadsEvictsTheOldestSoANewClientIsAlwaysRead() {
        var h = GatewayHarness { $0.maxPendingHeads = 4 }
        let waiting = (0..<4).map { _ in h.connect() }
        #expect(h.gateway.pendingHeads == 4)
        let newcomer = h.request("/")
        #expect(h.status(newcomer) == 200)
        #expect(h.effects.contains(.close(waiting[0])))
        #expect(!h.effects.contains(.close(waiting[1])))
        #expect(h.gateway.pendingHeads == 3)
        // A head that completes leaves the table.
        h.send(Self.get, from: waiting[1])
        #expect(h.gateway.pendingHeads == 2)
    }
}

extension GatewayLimitsTests {
    /// A snapshot request answered by eventd with a snapshot of about `bytes` bytes.
    static func snapshotAnswer(_ h: inout GatewayHarness, bytes: Int) -> ClientID {
        let id = h.request("/api/snapshot")
        h.handle(.upstreamConnected(id))
        h.upstream(id, lines: [GatewayHarness.hello, bigSnapshot(bytes)])
        return id
    }

    @Test func everyAnswerInFlightCountsAgainstOneLimit() {
        var h = GatewayHarness { $0.maxStreams = 2 }
        let stream = h.request("/api/events")
        let unread = Self.snapshotAnswer(&h, bytes: 1000) // queued, never read
        #expect(h.gateway.answersInFlight == 2)
        for target in ["/", "/api/snapshot", "/api/events", "/healthz"] {
            let refused = h.request(target)
            #expect(h.status(refused) == 503, "\(target)")
            #expect(h.output(refused).contains("Retry-After: 5"))
        }
        // Once the answer is written, its place is free.
        h.drain(unread)
        #expect(h.status(h.request("/")) == 200)
        _ = stream
    }

    @Test func anAnswerThatWouldGoOverTheOutputBudgetIs503AtOnce() {
        var h = GatewayHarness { $0.outputBudget = 10_000 }
        let first = Self.snapshotAnswer(&h, bytes: 6000)
        #expect(h.gateway.queuedBytes > 6000)
        let second = Self.snapshotAnswer(&h, bytes: 6000)
        #expect(h.status(second) == 503)
        #expect(h.gateway.queuedBytes < 10_000)
        // A browser that reads nothing is still dropped after the stall timeout, and
        // its bytes leave the budget.
        h.advance(60)
        #expect(h.gateway.queuedBytes == 0)
        #expect(h.effects.contains(.close(first)))
        #expect(h.status(Self.snapshotAnswer(&h, bytes: 6000)) == 200)
    }

    @Test func aStreamEventThatWouldGoOverTheBudgetEndsTheStreamWithARetryHint() {
        var h = GatewayHarness { $0.outputBudget = 10_000 }
        let unread = Self.snapshotAnswer(&h, bytes: 6000)
        let stream = h.request("/api/events")
        h.handle(.upstreamConnected(stream))
        h.upstream(stream, lines: [GatewayHarness.hello, Self.bigSnapshot(6000)])
        let text = h.output(stream)
        #expect(!text.contains("event: snapshot"))
        #expect(text.contains("retry: 2000\n\nevent: offline\n"))
        _ = unread
    }
}

extension GatewayLimitsTests {
    @Test func aLongLineIsScannedForItsTypePositionAndCode() throws {
        let tricky = #"{"sections":[{"items":[{"summary":"a \"}\" and a [ and \\"}]}],"view":{"a":[1,{"b":"}"}]},"type":"snapshot","digest":"d","epoch":"e9","seq":12}"#
        let head = try #require(FeedEnvelope(Array(tricky.utf8)))
        #expect(head.type == "snapshot")
        #expect(head.position?.epoch == "e9" && head.position?.seq == 12)
        #expect(FeedEnvelope(Array(#" { "type" : "error", "code": "invalid_view", "message": "x" } "#.utf8))?.code == "invalid_view")
        for bad in ["", "[1]", #"{"type":1}"#, #"{"type":"x""#, #"{"type":"x","a":"#, #"{"a":"unclosed}"#] {
            #expect(FeedEnvelope(Array(bad.utf8)) == nil, "\(bad)")
        }
    }

    @Test func aLineOverAMegabyteIsForwardedWithItsID() {
        var h = GatewayHarness()
        let id = h.request("/api/events")
        h.handle(.upstreamConnected(id))
        let line = Self.bigSnapshot(1_500_000)
        h.upstream(id, lines: [GatewayHarness.hello, line, #"{"type":"heartbeat","epoch":"e1","seq":4,"time":"x"}"#])
        let text = h.output(id)
        #expect(text.contains("event: snapshot\nid: e1.4\ndata: \(line)\n\n"))
        #expect(text.hasSuffix("event: heartbeat\ndata: {\"type\":\"heartbeat\",\"epoch\":\"e1\",\"seq\":4,\"time\":\"x\"}\n\n"))
    }
}

extension GatewayLimitsTests {
    @Test func peersOfAUnixSocketAreOneAddressAndTCPPeersTheirIP() throws {
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer { fds.forEach { close($0) } }
        #expect(GatewayListener.peerHost(fds[0]) == "unix")

        let listener = try GatewayListener.create(.inet(host: "127.0.0.1", port: 0))
        defer { close(listener) }
        guard case .inet(_, let port)? = GatewayListener.boundAddress(listener) else { Issue.record("not bound"); return }
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(connected == 0)
        let accepted = accept(listener, nil, nil)
        defer { close(accepted) }
        #expect(GatewayListener.peerHost(accepted) == "127.0.0.1")
    }
}

extension GatewayLimitsTests {
    @Test func aFeedLineStillArrivingCountsAgainstTheBudget() {
        var h = GatewayHarness { $0.outputBudget = 10_000 }
        let line = Array(Self.bigSnapshot(20_000).utf8)
        let oneShot = h.request("/api/snapshot")
        h.handle(.upstreamConnected(oneShot))
        h.upstream(oneShot, lines: [GatewayHarness.hello])
        h.handle(.upstreamReceived(oneShot, line[0..<5000]))
        #expect(h.gateway.framingBytes == 5000)
        #expect(h.output(oneShot).isEmpty)
        h.handle(.upstreamReceived(oneShot, line[5000..<12_000]))
        #expect(h.status(oneShot) == 503)
        #expect(h.effects.contains(.closeUpstream(oneShot)))
        #expect(h.gateway.framingBytes == 0)

        let stream = h.request("/api/events")
        h.handle(.upstreamConnected(stream))
        h.upstream(stream, lines: [GatewayHarness.hello])
        h.handle(.upstreamReceived(stream, line[0..<12_000]))
        #expect(h.output(stream).hasSuffix("event: offline\ndata: {\"reason\":\"eventd-web is too busy (output budget used up)\",\"type\":\"offline\"}\n\n"))
        #expect(h.gateway.framingBytes == 0)
    }
}
