import CanonicalJSON
import FeedProtocol
import RedisClient
import RedisFeed
import Testing
import Threads

/// The publisher's rules with a fake clock and hand-made replies.
@Suite struct PublisherMachineTests {
    static let week = PublishedView(view: .object(["days": .int(7), "tz": .string("Europe/Paris")]))
    static let work = PublishedView(view: .object(["calendars": .array([.string("work")])]))

    /// The machine and a fake clock.
    struct Harness {
        var machine: PublisherMachine
        var clock = PublisherClock(monotonic: MonotonicInstant(sinceStart: .seconds(100)), wallMilliseconds: 1_000_000)

        init(configured: [PublishedView] = [PublisherMachineTests.week]) {
            machine = PublisherMachine(settings: PublisherSettings(keys: FeedKeys(prefix: "t"), configured: configured))
        }

        mutating func start() -> [PublisherEffect] { machine.start(at: clock) }

        mutating func handle(_ event: PublisherEvent, after seconds: Double = 0) -> [PublisherEffect] {
            clock.monotonic = clock.monotonic + .seconds(seconds)
            clock.wallMilliseconds += Int64(seconds * 1000)
            return machine.handle(event, at: clock)
        }
    }

    static func line(_ type: String, seq: Int64, epoch: String = "e1") -> FeedLine {
        let text = #"{"type":"\#(type)","seq":\#(seq)}"#
        return FeedLine(type: FeedMessage.Kind(rawValue: type)!, epoch: epoch, seq: seq, line: Array(text.utf8),
                        snapshot: type == "heartbeat" ? nil : Array(#"{"type":"snapshot","seq":\#(seq)}"#.utf8))
    }

    static func sends(_ effects: [PublisherEffect]) -> [(PublisherRequest, [RedisCommand])] {
        effects.compactMap { if case .send(let r, let c) = $0 { return (r, c) } else { return nil } }
    }

    static func logs(_ effects: [PublisherEffect]) -> [String] {
        effects.compactMap { if case .log(_, let m) = $0 { return m } else { return nil } }
    }

    static func words(_ command: RedisCommand) -> [String] { command.arguments.map { String(decoding: $0, as: UTF8.self) } }

    static let committed: [RedisReply] = [.status("OK"), .status("QUEUED"), .status("QUEUED"), .array([.string(Array("1-0".utf8)), .status("OK")])]

    @Test func keysComeFromCanonicalParameters() {
        let a = PublishedView(view: .object(["calendars": .array([.string("b"), .string("a"), .string("b")]), "days": .int(3)]))
        let b = PublishedView(view: .object(["days": .int(3), "calendars": .array([.string("a"), .string("b")])]))
        #expect(a == b)
        #expect(a.key.count == 32)
        #expect(a.canonical == #"{"calendars":["a","b"],"days":3}"#)
        #expect(PublishedView(wantedMember: Array(a.canonical.utf8)) == a)
        #expect(PublishedView(wantedMember: Array("[1]".utf8)) == nil)
        #expect(a.key != Self.week.key)
        let keys = FeedKeys(prefix: "p")
        #expect(keys.stream(a) == "p:view:\(a.key)")
        #expect(keys.snapshot(a) == "p:view:\(a.key):snapshot")
        #expect(keys.wanted == "p:wanted")
    }

    @Test func eventdsStatusIsWrittenWhileRedisAnswers() {
        var h = Harness()
        _ = h.start()
        let line = Array(#"{"type":"status"}"#.utf8)
        #expect(h.handle(.status(line)).isEmpty) // not connected: not kept, the next comes soon
        _ = h.handle(.connected)
        let sent = Self.sends(h.handle(.status(line)))
        #expect(sent.count == 1)
        #expect(sent.first?.0 == .status)
        #expect(sent.first.map { $0.1.map(Self.words) } == [["SET", "t:status", #"{"type":"status"}"#, "PX", "30000"]])
        #expect(Self.logs(h.handle(.answered(.status, [.error("OOM command not allowed")]))).count == 1)
    }

    @Test func eachMessageIsOneTransactionWithTheSnapshotKey() {
        var h = Harness()
        #expect(h.start() == [.follow(Self.week), .connect])
        let onConnect = Self.sends(h.handle(.connected))
        #expect(onConnect.count == 1)
        #expect(onConnect[0].0 == .readWanted(checked: [])) // nothing published yet: nothing to check
        let snapshot = Self.sends(h.handle(.line(Self.week, Self.line("snapshot", seq: 1))))
        #expect(snapshot.count == 1)
        // The first snapshot of a view is owed (Redis lacks it): written as a republish.
        #expect(snapshot[0].0 == .publish(Self.week, seq: 1, republish: true))
        #expect(snapshot[0].1.map(Self.words) == [
            ["MULTI"],
            ["XADD", "t:view:\(Self.week.key)", "MAXLEN", "~", "1024", "*", "epoch", "e1", "seq", "1", "type", "snapshot",
             "protocol", "1", "line", #"{"type":"snapshot","seq":1}"#],
            ["SET", "t:view:\(Self.week.key):snapshot", #"{"type":"snapshot","seq":1}"#],
            ["EXEC"]])
        #expect(h.handle(.answered(snapshot[0].0, Self.committed)).isEmpty)

        let diff = Self.sends(h.handle(.line(Self.week, Self.line("diff", seq: 2))))
        #expect(diff.count == 1)
        #expect(diff[0].0 == .publish(Self.week, seq: 2, republish: false))
        #expect(Self.words(diff[0].1[1]).suffix(8) == ["seq", "2", "type", "diff", "protocol", "1", "line", #"{"type":"diff","seq":2}"#])
        #expect(Self.words(diff[0].1[2]) == ["SET", "t:view:\(Self.week.key):snapshot", #"{"type":"snapshot","seq":2}"#])
        _ = h.handle(.answered(diff[0].0, Self.committed))

        // A heartbeat changes no state: a stream entry, no snapshot key.
        let beat = Self.sends(h.handle(.line(Self.week, Self.line("heartbeat", seq: 2))))
        #expect(beat[0].1.map { Self.words($0)[0] } == ["MULTI", "XADD", "EXEC"])
    }

    @Test func anOutageIsLoggedOnceRetriedWithBackoffAndEndsInASnapshot() {
        var h = Harness()
        _ = h.start()
        _ = h.handle(.connected)
        let first = Self.sends(h.handle(.line(Self.week, Self.line("snapshot", seq: 1))))
        _ = h.handle(.answered(first[0].0, Self.committed))

        let down = RedisError(.io, operation: "EXEC", message: "Resource temporarily unavailable")
        let sent = Self.sends(h.handle(.line(Self.week, Self.line("diff", seq: 2))))
        let lost = h.handle(.failed(sent[0].0, down))
        #expect(Self.logs(lost).count == 1)
        #expect(Self.logs(lost)[0].contains("Resource temporarily unavailable"))

        // Messages while down are not sent (nor queued).
        #expect(h.handle(.line(Self.week, Self.line("diff", seq: 3))).isEmpty)
        #expect(h.handle(.line(Self.week, Self.line("diff", seq: 4))).isEmpty)

        // Retries: 0.5 s, 1 s, 2 s, … up to 30 s; every failure after the first is silent.
        var delays: [Double] = []
        var waited = 0.0
        for _ in 0..<10 {
            waited = 0
            while true {
                let effects = h.handle(.tick, after: 0.25)
                waited += 0.25
                if effects == [.connect] { break }
                #expect(effects.isEmpty)
            }
            delays.append(waited)
            #expect(Self.logs(h.handle(.connectFailed(RedisError(.connection, operation: "connect", message: "Connection refused")))).isEmpty)
        }
        #expect(delays == [0.5, 1, 2, 4, 8, 16, 30, 30, 30, 30])

        while h.handle(.tick, after: 0.25) != [.connect] {}
        let back = h.handle(.connected)
        #expect(Self.logs(back).count == 1)
        #expect(Self.logs(back)[0].contains("reachable again"))
        let requests = Self.sends(back)
        #expect(requests.map(\.0) == [.readWanted(checked: [Self.week]), .publish(Self.week, seq: 4, republish: true)])
        #expect(Self.words(requests[1].1[1]).suffix(6) == ["type", "snapshot", "protocol", "1", "line", #"{"type":"snapshot","seq":4}"#])
        _ = h.handle(.answered(requests[1].0, Self.committed))
        // Owed no more: the next diff goes as a diff.
        #expect(Self.sends(h.handle(.line(Self.week, Self.line("diff", seq: 5))))[0].0 == .publish(Self.week, seq: 5, republish: false))
    }

    @Test func gatewaysWantedViewsArePublishedUntilTheyExpire() {
        var h = Harness()
        _ = h.start()
        let read = Self.sends(h.handle(.connected))[0]
        #expect(read.1.map(Self.words) == [["ZREMRANGEBYSCORE", "t:wanted", "-inf", "(1000000"],
                                            ["ZRANGEBYSCORE", "t:wanted", "(1000000", "+inf"]])
        let answer = h.handle(.answered(read.0, [.integer(0), .array([.string(Array(Self.work.canonical.utf8)),
                                                                     .string(Array("not json".utf8))])]))
        #expect(answer.contains(.follow(Self.work)))
        #expect(Set(h.machine.publishedViews) == [Self.week, Self.work])

        // Read again on the tick's interval, or at once on an announcement.
        #expect(Self.sends(h.handle(.tick, after: 1)).isEmpty)
        #expect(Self.sends(h.handle(.announcement)).count == 1)
        let later = Self.sends(h.handle(.tick, after: 5))
        #expect(later.count == 1)
        let gone = h.handle(.answered(later[0].0, [.integer(1), .array([])]))
        #expect(gone.contains(.unfollow(Self.work)))
        // The configured view stays.
        #expect(!gone.contains(.unfollow(Self.week)))
        #expect(h.machine.publishedViews == [Self.week])
        // Lines of a view no longer followed are dropped.
        #expect(h.handle(.line(Self.work, Self.line("diff", seq: 9))).isEmpty)
    }

    @Test func anEmptiedRedisGetsTheSnapshotsAgain() {
        var h = Harness()
        _ = h.start()
        _ = h.handle(.connected)
        let first = Self.sends(h.handle(.line(Self.week, Self.line("snapshot", seq: 1))))
        _ = h.handle(.answered(first[0].0, Self.committed))
        let read = Self.sends(h.handle(.tick, after: 5))
        #expect(read[0].0 == .readWanted(checked: [Self.week]))
        #expect(Self.words(read[0].1[2]) == ["EXISTS", "t:view:\(Self.week.key):snapshot"])
        #expect(Self.sends(h.handle(.answered(read[0].0, [.integer(0), .array([]), .integer(1)]))).isEmpty)
        let again = Self.sends(h.tick5())
        let effects = h.handle(.answered(again[0].0, [.integer(0), .array([]), .integer(0)]))
        #expect(Self.logs(effects).count == 1)
        #expect(Self.sends(effects).map(\.0) == [.publish(Self.week, seq: 1, republish: true)])
    }

    @Test func refusedWritesAreLoggedOnceAndRetried() {
        var h = Harness()
        _ = h.start()
        _ = h.handle(.connected)
        let oom: [RedisReply] = [.status("OK"), .error("OOM command not allowed when used memory > 'maxmemory'."),
                                 .error("OOM command not allowed when used memory > 'maxmemory'."),
                                 .error("EXECABORT Transaction discarded because of previous errors.")]
        let first = Self.sends(h.handle(.line(Self.week, Self.line("snapshot", seq: 1))))
        let refused = h.handle(.answered(first[0].0, oom))
        #expect(Self.logs(refused).count == 1)
        #expect(Self.logs(refused)[0].contains("OOM"))
        // Still owed: the next message is the snapshot again, and a second refusal is silent.
        let retry = Self.sends(h.handle(.line(Self.week, Self.line("diff", seq: 2))))
        #expect(retry[0].0 == .publish(Self.week, seq: 2, republish: true))
        #expect(Self.logs(h.handle(.answered(retry[0].0, oom))).isEmpty)
        // Retried with the wanted set's read, and accepted.
        let read = Self.sends(h.handle(.tick, after: 5))
        let owed = Self.sends(h.handle(.answered(read[0].0, [.integer(0), .array([]), .integer(1)])))
        #expect(owed.map(\.0) == [.publish(Self.week, seq: 2, republish: true)])
        let accepted = h.handle(.answered(owed[0].0, Self.committed))
        #expect(Self.logs(accepted) == ["Redis accepts the feed's writes again"])
        #expect(Self.sends(h.handle(.line(Self.week, Self.line("diff", seq: 3))))[0].0 == .publish(Self.week, seq: 3, republish: false))
    }

    /// A stream entry says which digest its line carries: the relay's lines are of
    /// protocol 2, and the entry read back says so (absent, as before: 1).
    @Test func streamEntriesNameTheirProtocol() throws {
        var h = Harness()
        _ = h.start()
        _ = h.handle(.connected)
        var line = Self.line("snapshot", seq: 1)
        line.protocolVersion = 2
        let sent = Self.sends(h.handle(.line(Self.week, line)))
        let xadd = try #require(sent.first?.1.map(Self.words).first { $0.first == "XADD" })
        let at = try #require(xadd.firstIndex(of: "protocol"))
        #expect(xadd[at + 1] == "2")
        let fields = ["epoch", "e1", "seq", "2", "type", "diff", "protocol", "2", "line", "x"].map { RedisReply.string(Array($0.utf8)) }
        let entry = StreamEntry.entries(.array([.array([.string(Array("5-0".utf8)), .array(fields)])]))
        #expect(entry.map(\.protocolVersion) == [2])
        let old = StreamEntry.entries(.array([.array([.string(Array("5-0".utf8)), .array(Array(fields[..<6] + fields[8...]))])]))
        #expect(old.map(\.protocolVersion) == [1])
    }
}

extension PublisherMachineTests.Harness {
    mutating func tick5() -> [PublisherEffect] { handle(.tick, after: 5) }
}

@Suite struct PublishedViewQueryTests {
    @Test func queriesNameTheSameViewsAsTheDashboard() throws {
        let view = try PublishedView(query: "tz=Europe%2FParis&days=7&calendar=work&calendar=home,team&empty_days=show")
        #expect(view.view == .object(["tz": .string("Europe/Paris"), "days": .int(7), "empty_days": .string("show"),
                                      "calendars": .array([.string("home"), .string("team"), .string("work")])]))
        #expect(try PublishedView(query: "calendar=team,home&calendar=work&days=7&tz=Europe/Paris&empty_days=show") == view)
        #expect(try PublishedView(query: "").view == .object([:]))
        #expect(throws: PublishedView.QueryProblem.self) { try PublishedView(query: "days=seven") }
        #expect(throws: PublishedView.QueryProblem.self) { try PublishedView(query: "colour=red") }
        #expect(throws: PublishedView.QueryProblem.self) { try PublishedView(query: "tz=%ZZ") }
    }
}
