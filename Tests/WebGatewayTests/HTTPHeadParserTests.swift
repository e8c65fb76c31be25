import Testing
import TestSupport
@testable import WebGateway

/// The request head parser on its own: framing, limits, malformed heads.
@Suite struct HTTPHeadParserTests {
    func parse(_ text: String, limit: Int = 16 * 1024) -> HTTPHeadParser.Outcome {
        var parser = HTTPHeadParser(limit: limit)
        return parser.feed(Array(text.utf8)[...])
    }

    func request(_ outcome: HTTPHeadParser.Outcome) throws -> HTTPRequest {
        guard case .complete(let request) = outcome else { throw HarnessError("not complete: \(outcome)") }
        return request
    }

    @Test func parsesARequestWithQueryAndHeaders() throws {
        let r = try request(parse("GET /api/events?tz=Europe%2FBerlin&calendar=a&calendar=b+c HTTP/1.1\r\nHost: 127.0.0.1:8787\r\nLast-Event-ID:  abc.3 \r\n\r\n"))
        #expect(r.method == "GET")
        #expect(r.path == "/api/events")
        #expect(r.queryValue("tz") == "Europe/Berlin")
        #expect(r.queryValues("calendar") == ["a", "b c"])
        #expect(r.header("host") == "127.0.0.1:8787")
        #expect(r.header("last-event-id") == "abc.3")
        #expect(r.version == "1.1")
    }

    @Test func aHeadTrickledByteByByteCompletesOnItsLastByte() throws {
        let text = Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        var parser = HTTPHeadParser()
        for byte in text.dropLast() { #expect(parser.feed([byte][...]) == .incomplete) }
        guard case .complete(let r) = parser.feed([text.last!][...]) else { Issue.record("not complete"); return }
        #expect(r.path == "/")
    }

    @Test func bareLineFeedsAreAccepted() throws {
        #expect(try request(parse("HEAD /healthz HTTP/1.0\nHost: a\n\n")).isHead)
    }

    @Test func aHeadOverTheLimitIs431() {
        let big = "GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 20_000)
        guard case .invalid(let status, _) = parse(big) else { Issue.record("accepted"); return }
        #expect(status == .headerFieldsTooLarge)
        // Exactly at the limit without the blank line: still too large.
        guard case .invalid(let s2, _) = parse(String(repeating: "a", count: 100), limit: 100) else { Issue.record("accepted"); return }
        #expect(s2 == .headerFieldsTooLarge)
    }

    @Test func malformedHeadsAre400Or505() {
        let cases: [(String, HTTPStatus)] = [
            ("GET / HTTP/2.0\r\n\r\n", .versionNotSupported),
            ("GET /\r\n\r\n", .badRequest),
            ("GET  / HTTP/1.1\r\n\r\n", .badRequest),
            ("GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", .badRequest),
            ("GET / HTTP/1.1\r\nNo colon\r\n\r\n", .badRequest),
            ("GET / HTTP/1.1\r\nBad Name: x\r\n\r\n", .badRequest),
            ("GET http://other/ HTTP/1.1\r\n\r\n", .badRequest),
            ("GET /?a=%zz HTTP/1.1\r\n\r\n", .badRequest),
            ("GET /\u{7} HTTP/1.1\r\n\r\n", .badRequest),
            ("GET / HTTP/1.1\r\nX: a\u{1}b\r\n\r\n", .badRequest),
        ]
        for (text, expected) in cases {
            guard case .invalid(let status, _) = parse(text) else { Issue.record("accepted: \(text.debugDescription)"); continue }
            #expect(status == expected, "\(text.debugDescription)")
        }
    }

    @Test func lastEventIDsParseOnlyAsEpochDotSeq() {
        #expect(ServerSentEvent.position(lastEventID: "0d4460d41e38b6d0.17")! == ("0d4460d41e38b6d0", 17))
        for bad in ["", "17", ".17", "abc.", "abc.-1", "abc.x", "a b.1", "abc.1.2"] {
            #expect(ServerSentEvent.position(lastEventID: bad) == nil, "\(bad)")
        }
    }

    @Test func constantTimeEqualityCompares() {
        #expect(AccessPolicy.constantTimeEqual(Array("secret-token-123".utf8), Array("secret-token-123".utf8)))
        #expect(!AccessPolicy.constantTimeEqual(Array("secret-token-123".utf8), Array("secret-token-124".utf8)))
        #expect(!AccessPolicy.constantTimeEqual(Array("secret".utf8), Array("secret-token".utf8)))
        #expect(!AccessPolicy.constantTimeEqual([], Array("x".utf8)))
    }

    @Test func listenAddressesParse() {
        #expect(ListenAddress("127.0.0.1:8787") == .inet(host: "127.0.0.1", port: 8787))
        #expect(ListenAddress("[::1]:9000") == .inet6(host: "::1", port: 9000))
        #expect(ListenAddress("unix:/run/x.sock") == .unix(path: "/run/x.sock"))
        for bad in ["8787", "localhost:8787", "127.0.0.1", "127.0.0.1:0", "[::1]", "unix:relative", "1.2.3:80"] {
            #expect(ListenAddress(bad) == nil, "\(bad)")
        }
        #expect(ListenAddress("0.0.0.0:80")!.isLocalOnly == false)
        #expect(ListenAddress("127.0.0.2:80")!.isLocalOnly)
    }
}
