import Testing
import CanonicalJSON
import FeedProtocol

@Suite struct FeedMessageTests {
    @Test func requestsEncodeCanonicallyAndDecodeToThemselves() throws {
        let requests: [Request] = [
            .subscribe(view: ["days": 3, "tz": "UTC"], resume: .init(epoch: "e", seq: 7)),
            .subscribe(view: nil, resume: nil), .snapshot(view: ["days": 1]), .refresh, .status, .ping,
            .sync(sources: ["work", "home"]),
        ]
        for request in requests {
            #expect(try Request.decode(request.line.dropLast()).get() == request)
        }
        #expect(String(decoding: requests[0].line, as: UTF8.self)
                == #"{"op":"subscribe","resume":{"epoch":"e","seq":7},"view":{"days":3,"tz":"UTC"}}"# + "\n")
    }

    @Test func messagesKeepTheWireBytes() {
        #expect(String(decoding: FeedMessage.hello(epoch: "0d44"), as: UTF8.self)
                == #"{"type":"hello","epoch":"0d44","protocol":1,"server":"eventd/0.1.0"}"# + "\n")
        #expect(String(decoding: FeedMessage.heartbeat(epoch: "e", seq: 2, time: "t"), as: UTF8.self)
                == #"{"type":"heartbeat","epoch":"e","seq":2,"time":"t"}"# + "\n")
        #expect(String(decoding: FeedMessage.error(.unknownOp, "no"), as: UTF8.self)
                == #"{"type":"error","code":"unknown_op","message":"no"}"# + "\n")
        #expect(String(decoding: FeedMessage.status(["b": 1, "a": true]), as: UTF8.self) == #"{"type":"status","a":true,"b":1}"# + "\n")
        #expect(String(decoding: FeedMessage.okLine, as: UTF8.self) == #"{"type":"ok"}"# + "\n")
    }

    @Test func everyMessageDecodesToWhatEncodedIt() throws {
        let messages: [FeedMessage] = [
            .hello(.init(epoch: "e")),
            .snapshot(.init(digest: "d", epoch: "e", sections: [FeedScript.section("2026-12-03", ["a"])], seq: 4, view: ["days": 2])),
            .diff(.init(changes: ["items": [:], "sections": [:]], digest: "d", epoch: "e", seq: 5)),
            .heartbeat(.init(epoch: "e", seq: 5, time: "2026-12-03T10:00:00Z")),
            .resync(reason: "epoch"), .error(code: "invalid_view", message: "bad zone"), .ok, .pong,
            .synced(sources: [["name": "work", "ok": true]]), .status(fields: ["epoch": "e", "healthy": true]),
            .other(type: "future", ["type": "future", "x": 1]),
        ]
        for message in messages {
            #expect(try FeedMessage.decode(message.line.dropLast()) == message)
        }
        #expect(messages[1].position == Request.Resume(epoch: "e", seq: 4))
        #expect(messages[3].position == nil)
    }

    @Test func malformedLinesAreRefused() {
        for line in [#"[1]"#, #"{"no":"type"}"#, #"{"type":"snapshot","epoch":"e"}"#, #"{"type":"diff","seq":"x"}"#, "{"] {
            #expect(throws: FeedMessage.Malformed.self) { try FeedMessage.decode(Array(line.utf8)) }
        }
    }

    @Test func aDiffAppliedToTheLocalCopyMatchesItsDigest() throws {
        let old = [FeedScript.section("1", ["a", "b", "c"]), FeedScript.section("2", ["d"])]
        let new = [FeedScript.section("2", ["b", "d"]), FeedScript.section("3", ["e"])]
        guard case .snapshot(let s) = try FeedMessage.decode(try FeedScript.snapshot(old, seq: 1)),
              case .diff(let d) = try FeedMessage.decode(try FeedScript.diff(from: old, to: new, seq: 2)) else {
            Issue.record("not a snapshot and a diff")
            return
        }
        var state = try FeedClientState(snapshot: s)
        #expect(try state.apply(diff: d))
        #expect(state.sectionsJSON == .array(new))
        #expect(state.position == Request.Resume(epoch: FeedScript.epoch, seq: 2))
        // The same diff again does not follow on.
        #expect(throws: FeedClientState.Failure.self) { _ = try state.apply(diff: d) }
    }
}
