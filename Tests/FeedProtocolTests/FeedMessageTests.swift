import Testing
import CanonicalJSON
import FeedProtocol

@Suite struct FeedMessageTests {
    @Test func requestsEncodeCanonicallyAndDecodeToThemselves() throws {
        let requests: [Request] = [
            .subscribe(view: ["days": 3, "tz": "UTC"], resume: .init(epoch: "e", seq: 7)),
            .subscribe(view: nil, resume: nil), .subscribe(view: nil, resume: nil, protocolVersion: 2),
            .subscribe(view: nil, resume: nil, protocolVersion: 2, calendars: true),
            .snapshot(view: ["days": 1]), .refresh, .status, .ping,
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
        // A calendar the daemon does not have is named by a typed member, after the others.
        let unknown = RequestError(code: .invalidView, message: #"unknown calendar "x""#, unknownCalendar: "x")
        #expect(String(decoding: FeedMessage.error(unknown), as: UTF8.self)
                == #"{"type":"error","code":"invalid_view","message":"unknown calendar \"x\"","unknown_calendar":"x"}"# + "\n")
        #expect(String(decoding: FeedMessage.status(["b": 1, "a": true]), as: UTF8.self) == #"{"type":"status","a":true,"b":1}"# + "\n")
        #expect(String(decoding: FeedMessage.okLine, as: UTF8.self) == #"{"type":"ok"}"# + "\n")
    }

    @Test func everyMessageDecodesToWhatEncodedIt() throws {
        let messages: [FeedMessage] = [
            .hello(.init(epoch: "e")),
            .snapshot(try .init(digest: "d", epoch: "e", sectionObjects: [FeedScript.section("2026-12-03", ["a"])], seq: 4, view: ["days": 2])),
            .diff(.init(changes: FeedModelChanges(), digest: "d", epoch: "e", seq: 5)),
            .heartbeat(.init(epoch: "e", seq: 5, time: "2026-12-03T10:00:00Z")),
            .resync(reason: .epoch), .error(RequestError(code: .invalidView, message: "bad zone")), .ok, .pong,
            .error(RequestError(code: .invalidView, message: "unknown calendar \"x\"", unknownCalendar: "x")),
            .synced(sources: [SyncOutcome(["name": "work", "ok": true])]), .status(FeedStatus(fields: ["epoch": "e", "healthy": true])),
            // A newer daemon's reason and code read as what they say.
            .resync(reason: .other("newer")), .error(RequestError(code: .other("newer_code"), message: "m")),
            .other(type: "future", ["type": "future", "x": 1]),
            .calendars(.init(names: ["home", "work"], colors: ["work": "#1f77b4"])),
        ]
        for message in messages {
            #expect(try FeedMessage.decode(message.line.dropLast()) == message)
        }
        #expect(try FeedMessage.decode(FeedMessage.resync(.other("newer")).dropLast()) == .resync(reason: .other("newer")))
        #expect(ResyncReason("overflow") == .overflow && ErrorCode("line_too_long") == .lineTooLong)
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

    /// docs/protocol.md's test vectors: both digests of its two sections, and of none.
    @Test(arguments: [
        (#"[{"date":"2026-11-29","id":"2026-11-29","items":[{"all_day":true,"calendar":"holidays","continues_from_previous_day":false,"continues_to_next_day":false,"end":"2026-11-30","id":"9016d64a610bab14874722300f558f70","kind":"event","location":null,"recurrence_id":null,"start":"2026-11-29","status":null,"summary":"First Sunday of Advent","uid":"first-advent-2026@holidays.eventd.example"}],"label":"today"},{"date":"2026-11-30","id":"2026-11-30","items":[{"all_day":false,"calendar":"team","continues_from_previous_day":false,"continues_to_next_day":false,"end":"2026-11-30T09:15:00+01:00","id":"3f2a0c1d9b8e7f6a5b4c3d2e1f0a9b8c","kind":"event","location":"Raum 2","recurrence_id":null,"start":"2026-11-30T09:00:00+01:00","status":"confirmed","summary":"Standup \u2615","uid":"standup@team.example"}],"label":"tomorrow"}]"#,
         "f746bdafad403c99880709e3e6c050dddbe06c05f09a8966eba917ff59347397",
         "2e095e8908a9320e6d0a266bf3fb435eecc4b97bcea09d6b4ef728f2fa53e6ff"),
        ("[]", "4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945",
         "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ])
    func theDigestsOfBothProtocolsMatchTheTestVectors(sections: String, whole: String, bySection: String) throws {
        let list = try #require(try JSONValue.parse(Array(sections.utf8)[...], maxDepth: 32).arrayValue)
        for version in [Int64(1), 2] {
            let snapshot = try FeedMessage.Snapshot(digest: "", epoch: "e", sectionObjects: list, seq: 1, view: ViewFields(),
                                                protocolVersion: version)
            let state = try FeedClientState(snapshot: snapshot)
            #expect(state.digest == (version == 1 ? whole : bySection))
            #expect(state.digest(version: 1) == whole)
            #expect(state.digest(version: 2) == bySection)
            #expect(try EncodedFeedState(snapshot: snapshot).digest == state.digest)
        }
    }

    @Test func aSubscribeAsksForAProtocolTheDaemonKnows() {
        #expect(Request.decode(Array(#"{"op":"subscribe","protocol":2}"#.utf8)[...]) == .success(.subscribe(view: nil, resume: nil, protocolVersion: 2)))
        #expect(Request.decode(Array(#"{"op":"subscribe"}"#.utf8)[...]) == .success(.subscribe(view: nil, resume: nil)))
        for bad in [#"{"op":"subscribe","protocol":3}"#, #"{"op":"subscribe","protocol":"2"}"#] {
            guard case .failure(let e) = Request.decode(Array(bad.utf8)[...]) else { Issue.record("\(bad) accepted"); continue }
            #expect(e.code == .badRequest)
        }
    }

    /// A sync outcome made from fields is the object the daemon writes (no `failure`
    /// when none, `status` null), and reads back as those fields.
    @Test func aSyncOutcomeFromFieldsIsTheDaemonsObject() {
        let made = SyncOutcome(name: "work", ok: false, changed: false, summary: "no source named \"work\"")
        #expect(made.json.canonicalString()
                == #"{"changed":false,"name":"work","ok":false,"status":null,"summary":"no source named \"work\""}"#)
        #expect(made == SyncOutcome(made.json))
        #expect(made.name == "work" && made.ok == false && made.changed == false && made.status == nil && made.failure == nil)
        let failed = SyncOutcome(name: "home", ok: false, changed: false, summary: "x", failure: "timeout")
        #expect(failed.failure == "timeout" && failed.json["failure"]?.stringValue == "timeout")
    }
}
