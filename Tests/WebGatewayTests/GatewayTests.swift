import Testing
import CanonicalJSON
@testable import WebGateway

/// The gateway's rules, in-process with a fake clock: routing, access, limits,
/// deadlines, the SSE mapping and backpressure.
@Suite struct GatewayTests {
    @Test func theDashboardIsServedWithTheSecurityHeadersAndTheConnectionFinishes() {
        var h = GatewayHarness()
        let id = h.request("/")
        let text = h.output(id)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        for header in ["Content-Security-Policy: default-src 'self'", "X-Content-Type-Options: nosniff",
                       "Referrer-Policy: no-referrer", "Cache-Control: no-cache", "Content-Type: text/html"] {
            #expect(text.contains(header), "\(header)")
        }
        #expect(!text.lowercased().contains("access-control-allow"))
        #expect(text.hasSuffix("<!doctype html>"))
        #expect(h.effects.contains(.finishWriting(id)))
        // The browser closes; the connection goes.
        h.handle(.browser(.peerClosed(id)))
        #expect(h.gateway.connectionCount == 0)
    }

    @Test func answersCarryTheDateTheLoopLastGave() {
        var h = GatewayHarness()
        #expect(!h.output(h.request("/")).contains("Date:"))
        h.handle(.clock(httpDate: "Tue, 01 Dec 2026 02:30:00 GMT"))
        #expect(h.output(h.request("/")).hasPrefix("HTTP/1.1 200 OK\r\nDate: Tue, 01 Dec 2026 02:30:00 GMT\r\n"))
        #expect(h.output(h.request("/api/events")).contains("\r\nDate: Tue, 01 Dec 2026 02:30:00 GMT\r\n"))
    }

    @Test func headAnswersWithoutABodyAndUnknownPathsAre404() {
        var h = GatewayHarness()
        let head = h.request("/app.js", method: "HEAD")
        #expect(h.output(head).hasSuffix("\r\n\r\n"))
        #expect(h.output(head).contains("Content-Length: 9"))
        #expect(h.status(h.request("/../etc/passwd")) == 404)
        #expect(h.status(h.request("/nothing")) == 404)
    }

    @Test func onlyGetAndHeadAreServed() {
        var h = GatewayHarness()
        for method in ["POST", "PUT", "DELETE", "OPTIONS", "get"] {
            let id = h.request("/", method: method)
            #expect(h.status(id) == 405, "\(method)")
            #expect(h.output(id).contains("Allow: GET, HEAD"))
        }
        #expect(h.status(h.request("/", headers: ["Content-Length: 5"])) == 400)
        #expect(h.status(h.request("/", headers: ["Transfer-Encoding: chunked"])) == 400)
    }

    @Test func theHostHeaderMustNameThisServer() {
        var h = GatewayHarness(allowHosts: ["calendar.example.org"])
        #expect(h.status(h.request("/", host: "evil.example:8787")) == 403)
        #expect(h.status(h.request("/", host: nil)) == 400)
        #expect(h.status(h.request("/", headers: ["Host: 127.0.0.1:8787"])) == 400) // two Host headers
        #expect(h.status(h.request("/", host: "localhost:8787")) == 200)
        #expect(h.status(h.request("/", host: "calendar.example.org")) == 200)
        #expect(h.status(h.request("/", host: "calendar.example.org:443")) == 200)
        #expect(h.status(h.request("/", host: "127.0.0.1:9999")) == 403)
    }

    @Test func withATokenEveryRequestForDataCarriesItInTheHeader() {
        let token = "0123456789abcdef-token"
        var h = GatewayHarness(token: token)
        // The page's files hold no data: a reload or a second tab gets them without it.
        #expect(h.status(h.request("/")) == 200)
        #expect(h.status(h.request("/app.js")) == 200)
        let none = h.request("/api/snapshot?days=x")
        #expect(h.status(none) == 401)
        #expect(h.output(none).contains("WWW-Authenticate: Bearer"))
        #expect(h.status(h.request("/healthz")) == 401)
        #expect(h.status(h.request("/api/snapshot?days=x", headers: ["Authorization: Bearer wrong-token-0000000"])) == 401)
        #expect(h.status(h.request("/api/snapshot?days=x", headers: ["Authorization: Bearer \(token)"])) == 400)
        // Neither a URL nor a cookie carries it: a cookie reaches every port of the host.
        #expect(h.status(h.request("/api/snapshot?days=x&token=\(token)")) == 401)
        #expect(h.status(h.request("/api/snapshot?days=x", headers: ["Cookie: eventd_web_token=\(token)"])) == 401)
        let page = h.request("/?days=3&token=\(token)&tz=UTC")
        #expect(h.status(page) == 200)
        #expect(!h.output(page).contains("Set-Cookie") && !h.output(page).contains(token))
    }

    /// Issue 43, point 3: no address makes the gateway send a browser elsewhere.
    @Test func noRedirectLeavesTheGateway() {
        let token = "0123456789abcdef-token"
        var h = GatewayHarness(token: token)
        for target in ["//evil.example/?token=\(token)", "/\\evil.example/?token=\(token)", "/%2F%2Fevil.example/?token=\(token)",
                       "//evil.example/?token=wrong-token-00000000", "/?token=wrong-token-00000000"] {
            for headers in [[], ["Cookie: eventd_web_token=\(token)"], ["Authorization: Bearer \(token)"]] {
                let id = h.request(target, headers: headers)
                let status = h.status(id) ?? 0
                #expect(!(300..<400).contains(status) && !h.output(id).lowercased().contains("location:"), "\(target) \(headers): \(status)")
            }
        }
    }

    /// Issue 43, point 5: a token sent as a parameter's name or value, or anywhere else,
    /// never reaches the log; an unknown name is quoted cut.
    @Test func theLogNeverShowsTheToken() {
        let token = String(repeating: "a1", count: 32)
        var h = GatewayHarness(token: token)
        let bearer = ["Authorization: Bearer \(token)"]
        let named = h.request("/api/events?\(token)=1", headers: bearer)
        #expect(h.status(named) == 400)
        #expect(h.output(named).contains("unknown parameter '\(token.prefix(12))…'"))
        let valued = h.request("/api/snapshot?days=\(token)", headers: bearer)
        #expect(h.status(valued) == 400)
        #expect(!h.output(valued).contains(token) && h.output(valued).contains("not 'REDACTED'"))
        #expect(h.status(h.request("/\(token)")) == 404)
        #expect(h.status(h.request("/api/snapshot?\(token.prefix(20))=1&token=\(token)", headers: bearer)) == 400)
        let lines = h.effects.compactMap { effect -> String? in
            if case .log(_, let line) = effect { return line }
            return nil
        }
        #expect(lines.count >= 4)
        for line in lines { #expect(!line.contains(token) && !line.contains(token.prefix(20)), "\(line)") }
    }

    @Test func twoContentLengthsAre400() {
        var h = GatewayHarness()
        let twice = h.request("/", headers: ["Content-Length: 0", "Content-Length: 0"])
        #expect(h.status(twice) == 400)
        #expect(h.output(twice).contains("more than one Content-Length"))
    }

    @Test func queryErrorsQuoteControlCharacters() {
        var h = GatewayHarness()
        let named = h.request("/api/snapshot?a%1B%0Ab%5C=1")
        #expect(h.status(named) == 400)
        #expect(h.output(named).contains("unknown parameter 'a\\x1B\\x0Ab\\\\'"))
        let long = h.request("/api/events?days=" + String(repeating: "9", count: 100) + "%7F")
        #expect(h.output(long).contains("not '" + String(repeating: "9", count: 64) + "…'"))
    }

    @Test func aHeadThatDoesNotArriveInTenSecondsIs408() {
        var h = GatewayHarness { $0.minHeadRate = 0 } // (the rate: GatewayLimitsTests)
        let id = h.connect()
        h.send("GET / HTTP/1.1\r\nHost: 127", from: id)
        h.advance(9.5)
        #expect(h.output(id).isEmpty)
        h.send(".0.0", from: id)
        h.advance(0.5)
        #expect(h.status(id) == 408)
        #expect(h.effects.contains(.finishWriting(id)))
        // A browser that never closes its side is closed after the linger time.
        h.advance(2)
        #expect(h.gateway.connectionCount == 0)
    }

    @Test func aStreamSubscribesAndMapsEveryMessageToAnEvent() throws {
        var h = GatewayHarness()
        let id = h.request("/api/events?tz=UTC&days=7&calendar=work", headers: ["Last-Event-ID: e0.12"])
        #expect(h.effects.contains(.connectUpstream(id)))
        let sent = h.handle(.upstreamConnected(id))
        guard case .sendUpstream(id, let line) = sent.first else { Issue.record("no request sent: \(sent)"); return }
        let request = try JSONValue.parse(line.dropLast())
        #expect(request == ["op": "subscribe", "calendars": true, "view": ["tz": "UTC", "days": 7, "calendars": ["work"]],
                            "resume": ["epoch": "e0", "seq": 12]])
        h.upstream(id, lines: [GatewayHarness.hello, #"{"type":"resync","reason":"epoch"}"#, GatewayHarness.snapshot, GatewayHarness.diff,
                               #"{"type":"heartbeat","epoch":"e1","seq":5,"time":"x"}"#])
        let text = h.output(id)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream"))
        #expect(text.contains("\r\n\r\nretry: 2000\n\n"))
        #expect(text.contains("event: resync\ndata: {\"type\":\"resync\",\"reason\":\"epoch\"}\n\n"))
        #expect(text.contains("event: snapshot\nid: e1.4\ndata: \(GatewayHarness.snapshot)\n\n"))
        #expect(text.contains("event: diff\nid: e1.5\ndata: \(GatewayHarness.diff)\n\n"))
        #expect(text.contains("event: heartbeat\ndata: "))
        // eventd's hello, so the page knows eventd answered even when a resume brings nothing.
        #expect(text.contains("\r\n\r\nretry: 2000\n\nevent: hello\ndata: \(GatewayHarness.hello)\n\nevent: resync"))
        #expect(h.gateway.streamCount == 1)
    }

    @Test func aStreamWithoutLastEventIDSubscribesFresh() throws {
        var h = GatewayHarness()
        let id = h.request("/api/events", headers: ["Last-Event-ID: garbage"])
        guard case .sendUpstream(_, let line) = h.handle(.upstreamConnected(id)).first else { Issue.record("no request"); return }
        #expect(try JSONValue.parse(line.dropLast()) == ["op": "subscribe", "calendars": true, "view": [:]])
        #expect(h.status(h.request("/api/events?days=x")) == 400)
        #expect(h.status(h.request("/api/events?color=red")) == 400)
    }

    /// `protocol=2` goes into the subscribe line (which digest the stream carries).
    @Test func aStreamAsksForTheProtocolItsQueryNames() throws {
        var h = GatewayHarness()
        let id = h.request("/api/events?days=3&protocol=2")
        guard case .sendUpstream(_, let line) = h.handle(.upstreamConnected(id)).first else { Issue.record("no request"); return }
        #expect(try JSONValue.parse(line.dropLast()) == ["op": "subscribe", "calendars": true, "view": ["days": 3], "protocol": 2])
        #expect(h.status(h.request("/api/events?protocol=3")) == 400)
        #expect(h.status(h.request("/api/events?protocol=two")) == 400)
    }

    @Test func keepAliveCommentsGoAfterFifteenQuietSeconds() {
        var h = GatewayHarness()
        let id = h.request("/api/events")
        h.handle(.upstreamConnected(id))
        h.upstream(id, lines: [GatewayHarness.hello, GatewayHarness.snapshot])
        h.drain(id)
        h.advance(14)
        #expect(h.drain(id).isEmpty)
        h.advance(1)
        #expect(h.drain(id) == ": keep-alive\n\n")
        h.advance(5)
        #expect(h.drain(id).isEmpty)
    }

    @Test func whenEventdGoesAwayTheStreamEndsWithARetryHint() {
        var h = GatewayHarness()
        let id = h.request("/api/events")
        h.handle(.upstreamConnected(id))
        h.upstream(id, lines: [GatewayHarness.hello, GatewayHarness.snapshot])
        h.handle(.upstreamClosed(id))
        let text = h.output(id)
        #expect(text.hasSuffix("retry: 2000\n\nevent: offline\ndata: {\"reason\":\"eventd closed the connection\",\"type\":\"offline\"}\n\n"))
        #expect(h.effects.contains(.finishWriting(id)))
        // eventd not running at all: the same, at once.
        let other = h.request("/api/events")
        h.handle(.upstreamUnavailable(other, reason: "connection refused"))
        #expect(h.output(other).contains("event: offline"))
        #expect(h.gateway.streamCount == 0)
    }

    @Test func shutdownEndsEveryStreamClosesHeadsAndTakesNoNewBrowser() {
        var h = GatewayHarness()
        let stream = h.request("/api/events")
        h.handle(.upstreamConnected(stream))
        h.upstream(stream, lines: [GatewayHarness.hello, GatewayHarness.snapshot])
        h.drain(stream)
        let head = h.connect()
        h.send("GET / HT", from: head)
        #expect(!h.gateway.isDrained)
        let effects = h.handle(.shutdown)
        #expect(effects.contains(.closeUpstream(stream)))
        #expect(effects.contains(.close(head)))
        #expect(h.output(stream).hasSuffix("retry: 2000\n\nevent: offline\ndata: {\"reason\":\"eventd-web is stopping\",\"type\":\"offline\"}\n\n"))
        #expect(h.effects.contains(.finishWriting(stream)))
        #expect(h.gateway.isDrained)
        #expect(h.handle(.browserAccepted(99, peer: "127.0.0.1")) == [.close(99)])
    }

    @Test func streamsBeyondTheLimitAre503() {
        var h = GatewayHarness { $0.maxStreams = 2 }
        _ = h.request("/api/events")
        _ = h.request("/api/events")
        let third = h.request("/api/events")
        #expect(h.status(third) == 503)
        #expect(h.output(third).contains("Retry-After: 5"))
        #expect(h.gateway.streamCount == 2)
    }

    @Test func aBrowserThatDoesNotReadStopsItsSubscriptionBeingReadAndIsDroppedWhenStalled() {
        var h = GatewayHarness { $0.streamBuffer = 1000 }
        let id = h.request("/api/events")
        h.handle(.upstreamConnected(id))
        h.upstream(id, lines: [GatewayHarness.hello])
        #expect(h.gateway.interest(id).upstreamRead)
        let big = #"{"type":"snapshot","digest":"d1","epoch":"e1","sections":[],"seq":1,"view":{"pad":""# + String(repeating: "x", count: 1200) + "\"}}"
        h.upstream(id, lines: [big])
        // Past the bound: eventd's socket is no longer read (eventd's own backpressure
        // takes over); the queue holds at most the bound plus one message.
        #expect(!h.gateway.interest(id).upstreamRead)
        #expect(h.gateway.output(id)!.count < 1000 + big.utf8.count + 200)
        h.advance(59)
        #expect(h.gateway.connectionCount == 1)
        h.advance(1)
        #expect(h.gateway.connectionCount == 0)
        #expect(h.effects.contains(.closeUpstream(id)))
        #expect(h.effects.contains(.close(id)))
    }

    @Test func pushedLinesAreTakenBehindASnapshotBeingWrittenAndRefusedPastTheBuffer() {
        var h = GatewayHarness { $0.streamBuffer = 1000 }
        let id = h.request("/api/events")
        h.handle(.upstreamConnected(id))
        h.upstream(id, lines: [GatewayHarness.hello])
        h.drain(id)
        let big = #"{"type":"snapshot","digest":"d1","epoch":"e1","sections":[],"seq":1,"view":{"x":""# + String(repeating: "y", count: 5000) + "\"}}"
        h.upstream(id, lines: [big])
        // The socket took part of the snapshot: the browser is taking it, so a heartbeat
        // pushed now is queued behind it (a socket upstream would stop being read).
        h.handle(.browser(.wrote(id, count: 100)))
        #expect(!h.gateway.interest(id).upstreamRead)
        #expect(h.gateway.takesPushedLine(id))
        let heartbeat = #"{"type":"heartbeat","epoch":"e1","seq":1,"time":"2026-12-01T09:00:00Z"}"#
        h.upstream(id, lines: [heartbeat])
        #expect(h.gateway.output(id)!.countBehindFirst > 0)
        // Lines that pile up behind it past the buffer: the stream is behind.
        for _ in 0..<20 { h.upstream(id, lines: [heartbeat]) }
        #expect(h.gateway.streamCount == 1)
        #expect(h.gateway.output(id)!.countBehindFirst >= 1000)
        #expect(!h.gateway.takesPushedLine(id))
        h.drain(id)
        #expect(h.gateway.takesPushedLine(id))
    }

    @Test func aBrowserThatReadsGetsItsSubscriptionReadAgain() {
        var h = GatewayHarness { $0.streamBuffer = 1000 }
        let id = h.request("/api/events")
        h.handle(.upstreamConnected(id))
        h.upstream(id, lines: [GatewayHarness.hello, #"{"type":"snapshot","digest":"d1","epoch":"e1","sections":[],"seq":1,"view":{"x":""# + String(repeating: "y", count: 1500) + "\"}}"])
        #expect(!h.gateway.interest(id).upstreamRead)
        h.drain(id)
        #expect(h.gateway.interest(id).upstreamRead)
    }

    @Test func statusIsRedactedAndHealthFollowsEventd() throws {
        var h = GatewayHarness()
        let status = h.request("/api/status")
        h.handle(.upstreamConnected(status))
        h.upstream(status, lines: [GatewayHarness.hello,
                                   #"{"type":"status","database":"/home/me/.local/state/eventd/events.db","socket":"/run/user/1000/eventd/feed.sock","healthy":false,"problem":"/home/me/x was removed","events":3}"#])
        let text = h.output(status)
        #expect(text.hasPrefix("HTTP/1.1 200"))
        #expect(!text.contains("/home/me"))
        #expect(!text.contains("/run/user"))
        #expect(text.contains("\"events\":3"))
        #expect(text.contains("\"healthy\":false"))

        let healthy = h.request("/healthz")
        h.handle(.upstreamConnected(healthy))
        h.upstream(healthy, lines: [GatewayHarness.hello, #"{"type":"pong"}"#])
        #expect(h.status(healthy) == 200)
        let down = h.request("/healthz")
        h.handle(.upstreamUnavailable(down, reason: "no such file"))
        #expect(h.status(down) == 503)
        let refused = h.request("/healthz")
        h.handle(.upstreamConnected(refused))
        h.upstream(refused, lines: [#"{"type":"error","code":"overloaded","message":"too many"}"#])
        #expect(h.status(refused) == 503)
    }

    @Test func snapshotsAnswerAsAgendaJSONAndSlowAnswersAre504() throws {
        var h = GatewayHarness()
        let id = h.request("/api/snapshot?days=7")
        guard case .sendUpstream(_, let line) = h.handle(.upstreamConnected(id)).first else { Issue.record("no request"); return }
        #expect(try JSONValue.parse(line.dropLast()) == ["op": "snapshot", "view": ["days": 7]])
        h.upstream(id, lines: [GatewayHarness.hello, GatewayHarness.snapshot])
        let body = h.output(id).components(separatedBy: "\r\n\r\n").last!
        #expect(try JSONValue.parse(body) == ["digest": "d1", "sections": [], "view": ["days": 7]])

        let invalid = h.request("/api/snapshot?tz=Nowhere")
        h.handle(.upstreamConnected(invalid))
        h.upstream(invalid, lines: [GatewayHarness.hello, #"{"type":"error","code":"invalid_view","message":"unknown zone"}"#])
        #expect(h.status(invalid) == 400)

        let slow = h.request("/api/snapshot")
        h.handle(.upstreamConnected(slow))
        h.advance(10)
        #expect(h.status(slow) == 504)
        #expect(h.effects.contains(.closeUpstream(slow)))
    }
}
