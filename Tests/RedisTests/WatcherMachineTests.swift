import FeedProtocol
import RedisClient
import RedisFeed
import Testing
import Threads

/// A gateway's view reader with a fake clock and hand-made replies: the wanted set's
/// timing, the start from the snapshot key, joins and resumes, epochs and gaps, and the
/// reconnection's backoff.
@Suite struct WatcherMachineTests {
    static let view = PublishedView(view: .object(["days": .int(7)]))
    static let keys = FeedKeys(prefix: "t")

    struct Harness {
        var machine = WatcherMachine(view: WatcherMachineTests.view, keys: WatcherMachineTests.keys)
        var clock = PublisherClock(monotonic: MonotonicInstant(sinceStart: .seconds(100)), wallMilliseconds: 1_000_000)

        mutating func handle(_ event: WatcherEvent, after seconds: Double = 0) -> [WatcherEffect] {
            clock.monotonic = clock.monotonic + .seconds(seconds)
            clock.wallMilliseconds += Int64(seconds * 1000)
            return machine.handle(event, at: clock)
        }

        /// A quarter of a second later, with a browser retrying meanwhile (told at once,
        /// while Redis is down); the tick's effects.
        mutating func retryTick() -> [WatcherEffect] {
            let told = handle(.join(client: 50, resume: nil, oneShot: false), after: 0.25)
            #expect(told == [.close(client: 50)] || told.isEmpty)
            if told.isEmpty { _ = handle(.leave(client: 50)) }
            return handle(.tick)
        }

        /// Connected, wanted (new: announced), started from `snapshot` with `entries`.
        mutating func started(_ snapshot: Int64 = 2, entries: [StreamEntryReply] = [.init(1, "snapshot", 1), .init(2, "diff", 2)],
                              join: Int? = 7) -> [WatcherEffect] {
            #expect(machine.start(at: clock) == [.connect])
            if let join { #expect(handle(.join(client: join, resume: nil, oneShot: false)).isEmpty) }
            #expect(requests(handle(.connected)) == [.want])
            #expect(requests(handle(.answered(.want, [.integer(1)]))) == [.announce])
            #expect(requests(handle(.answered(.announce, [.integer(1)]))) == [.start])
            return handle(.answered(.start, WatcherMachineTests.transaction(snapshot: snapshot, entries)))
        }
    }

    /// One entry as `XRANGE` returns it.
    struct StreamEntryReply {
        var n: UInt64, type: String, seq: Int64, epoch: String
        init(_ n: UInt64, _ type: String, _ seq: Int64, epoch: String = "e1") { (self.n, self.type, self.seq, self.epoch) = (n, type, seq, epoch) }
        var reply: RedisReply {
            .array([.string(Array("\(1000 + n)-0".utf8)), .array(["epoch", epoch, "seq", String(seq), "type", type, "line", "\(type) \(epoch).\(seq)"]
                .map { .string(Array($0.utf8)) })])
        }
    }

    static func snapshotLine(_ seq: Int64, epoch: String = "e1") -> [UInt8] {
        Array(FeedMessage.snapshot(digest: "d\(seq)", epoch: epoch, seq: seq, view: .object([:])) { $0.value(.array([])) }.dropLast())
    }

    static func transaction(snapshot: Int64?, _ entries: [StreamEntryReply]) -> [RedisReply] {
        [.status("OK"), .status("QUEUED"), .status("QUEUED"),
         .array([snapshot.map { .string(snapshotLine($0)) } ?? .null, .array(entries.map(\.reply))])]
    }

    static func read(_ entries: [StreamEntryReply]) -> [RedisReply] {
        [.array([.array([.string(Array("t:view:\(view.key)".utf8)), .array(entries.map(\.reply))])])]
    }

    static func requests(_ effects: [WatcherEffect]) -> [WatcherRequest] {
        effects.compactMap { if case .send(let r, _) = $0 { return r } else { return nil } }
    }

    static func commands(_ effects: [WatcherEffect]) -> [[String]] {
        effects.flatMap { effect -> [[String]] in
            guard case .send(_, let commands) = effect else { return [] }
            return commands.map { $0.arguments.map { String(decoding: $0, as: UTF8.self) } }
        }
    }

    static func delivered(_ effects: [WatcherEffect]) -> [Int: [String]] {
        var out: [Int: [String]] = [:]
        for case .deliver(let client, let lines) in effects { out[client, default: []] += lines.map { String(decoding: $0, as: UTF8.self) } }
        return out
    }

    static func closed(_ effects: [WatcherEffect]) -> [Int] {
        effects.compactMap { if case .close(let c) = $0 { return c } else { return nil } }
    }

    @Test func aNewViewIsWantedAnnouncedThenStartsFromTheSnapshotKey() {
        var h = Harness()
        #expect(h.machine.start(at: h.clock) == [.connect])
        #expect(h.handle(.join(client: 7, resume: nil, oneShot: false)).isEmpty)
        let want = h.handle(.connected)
        #expect(Self.commands(want) == [["ZADD", "t:wanted", "1060000", Self.view.canonical]])
        // ZADD added it: new in the set, announced.
        #expect(Self.commands(h.handle(.answered(.want, [.integer(1)]))) == [["PUBLISH", "t:wanted", Self.view.canonical]])
        let start = h.handle(.answered(.announce, [.integer(1)]))
        #expect(Self.commands(start) == [["MULTI"], ["GET", "t:view:\(Self.view.key):snapshot"], ["XRANGE", "t:view:\(Self.view.key)", "-", "+"], ["EXEC"]])
        // eventd has not published it yet: looked at again after 50 ms, not before.
        #expect(h.handle(.answered(.start, Self.transaction(snapshot: nil, []))).isEmpty)
        #expect(h.handle(.tick, after: 0.01).isEmpty)
        #expect(Self.requests(h.handle(.tick, after: 0.05)) == [.start])
        let served = h.handle(.answered(.start, Self.transaction(snapshot: 2, [.init(1, "snapshot", 1), .init(2, "diff", 2)])))
        let lines = Self.delivered(served)[7]!
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix(#"{"type":"hello","epoch":"e1""#))
        #expect(lines[1] == String(decoding: Self.snapshotLine(2), as: UTF8.self))
        #expect(served.contains(.reachable(true, "reading \(Self.view)")))
        // Then XREAD from the entry the snapshot stands at.
        #expect(Self.commands(h.handle(.tick)) == [["XREAD", "COUNT", "512", "BLOCK", "250", "STREAMS", "t:view:\(Self.view.key)", "1002-0"]])
        let next = h.handle(.answered(.read, Self.read([.init(3, "diff", 3)])))
        #expect(Self.delivered(next)[7] == ["diff e1.3"])
        #expect(Self.commands(h.handle(.tick)).first?.last == "1003-0")
    }

    @Test func aWantedViewAlreadyThereIsNotAnnounced() {
        var h = Harness()
        _ = h.machine.start(at: h.clock)
        _ = h.handle(.connected)
        #expect(Self.requests(h.handle(.answered(.want, [.integer(0)]))) == [.start])
    }

    @Test func theWantedEntryIsRenewedEvery20SecondsWithA60SecondLifetime() {
        var h = Harness()
        _ = h.started()
        var at = 0.0
        while at < 19.5 {
            let tick = h.handle(.tick, after: 0.5)
            at += 0.5
            #expect(Self.requests(tick) == [.read], "at \(at) s")
            _ = h.handle(.answered(.read, [.null]))
        }
        let renew = h.handle(.tick, after: 0.5)
        #expect(Self.commands(renew) == [["ZADD", "t:wanted", String(h.clock.wallMilliseconds + 60_000), Self.view.canonical]])
        // Still in the set (ZADD added nothing): no announcement, the read goes on.
        #expect(h.handle(.answered(.want, [.integer(0)])).isEmpty)
        #expect(Self.requests(h.handle(.tick)) == [.read])
    }

    @Test func aResumeInTheTailIsReplayedElseAFreshSnapshot() {
        var h = Harness()
        _ = h.started(3, entries: [.init(1, "snapshot", 1), .init(2, "diff", 2), .init(3, "diff", 3)])
        // Last-Event-ID e1.2: the entry after it, no snapshot, no Redis read.
        let replay = h.handle(.join(client: 8, resume: Request.Resume(epoch: "e1", seq: 2), oneShot: false))
        #expect(Self.delivered(replay)[8]!.dropFirst() == ["diff e1.3"])
        #expect(Self.requests(replay).isEmpty)
        // e1.0 is no longer held, and e0.5 is another epoch: each gets a snapshot, both
        // from one snapshot read.
        #expect(h.handle(.join(client: 9, resume: Request.Resume(epoch: "e1", seq: 0), oneShot: false)).isEmpty)
        #expect(h.handle(.join(client: 10, resume: Request.Resume(epoch: "e0", seq: 5), oneShot: false)).isEmpty)
        let read = h.handle(.tick)
        #expect(Self.commands(read)[2] == ["XREVRANGE", "t:view:\(Self.view.key)", "+", "-", "COUNT", "1"])
        let fresh = Self.delivered(h.handle(.answered(.snapshot, Self.transaction(snapshot: 3, [.init(3, "diff", 3)]))))
        #expect(fresh[9]![1] == #"{"type":"resync","reason":"expired"}"#)
        #expect(fresh[10]![1] == #"{"type":"resync","reason":"epoch"}"#)
        #expect(fresh[9]![2] == String(decoding: Self.snapshotLine(3), as: UTF8.self))
        #expect(fresh[9]!.count == 3)
        #expect(h.machine.memberCount == 4)
    }

    @Test func anEpochChangeIsAResyncAndAGapAFreshSnapshot() {
        var h = Harness()
        _ = h.started()
        _ = h.handle(.tick)
        let epoch = Self.delivered(h.handle(.answered(.read, Self.read([.init(3, "snapshot", 1, epoch: "e2")]))))
        #expect(epoch[7] == [#"{"type":"resync","reason":"epoch"}"#, "snapshot e2.1"])
        _ = h.handle(.tick)
        // e2.2 never came: the member is out of step.
        let gap = h.handle(.answered(.read, Self.read([.init(5, "diff", 3, epoch: "e2")])))
        #expect(Self.delivered(gap)[7] == [#"{"type":"resync","reason":"expired"}"#])
        #expect(Self.requests(gap) == [.snapshot])
        let fresh = Self.delivered(h.handle(.answered(.snapshot, Self.transaction(snapshot: 3, [.init(5, "diff", 3, epoch: "e2")]))))
        #expect(fresh[7] == [String(decoding: Self.snapshotLine(3), as: UTF8.self)]) // no second hello
    }

    @Test func reconnectionsBackOffTo30SecondsAndResetOnceRead() {
        var h = Harness()
        _ = h.started()
        _ = h.handle(.tick)
        let lost = h.handle(.failed(.read, RedisError(.io, operation: "XREAD", message: "timeout")))
        #expect(Self.closed(lost) == [7])
        #expect(lost.filter { if case .reachable(false, _) = $0 { return true } else { return false } }.count == 1)
        var delays: [Double] = []
        for _ in 0..<8 {
            var waited = 0.0
            while !h.retryTick().contains(.connect) { waited += 0.25 }
            delays.append(waited + 0.25)
            let failed = h.handle(.connectFailed(RedisError(.connection, operation: "connect", message: "refused")))
            #expect(!failed.contains { if case .reachable = $0 { return true } else { return false } }) // once per outage
        }
        #expect(delays == [0.5, 1, 2, 4, 8, 16, 30, 30])
        // Back: the delay starts again from 0.5 s after the next failure.
        while !h.retryTick().contains(.connect) {}
        _ = h.handle(.connected)
        _ = h.handle(.answered(.want, [.integer(1)]))
        _ = h.handle(.answered(.announce, [.integer(1)]))
        #expect(h.handle(.answered(.start, Self.transaction(snapshot: 2, []))).contains(.reachable(true, "reading \(Self.view)")))
        _ = h.handle(.failed(.read, RedisError(.io, operation: "XREAD", message: "reset")))
        #expect(h.handle(.tick, after: 0.25).isEmpty)
        #expect(h.handle(.tick, after: 0.25) == [.connect])
    }

    @Test func browsersRetryingDuringAnOutageCostNoConnection() {
        var h = Harness()
        _ = h.started()
        _ = h.handle(.tick)
        _ = h.handle(.failed(.read, RedisError(.io, operation: "XREAD", message: "timeout")))
        // A wave of 500 browsers reconnecting within the first 0.4 s: each told at once.
        var effects: [WatcherEffect] = []
        for client in 100..<600 { effects += h.handle(.join(client: client, resume: nil, oneShot: false), after: 0.0008) }
        effects += h.handle(.tick)
        #expect(Self.closed(effects).count == 500)
        #expect(!effects.contains(.connect))
        #expect(h.handle(.tick, after: 0.15) == [.connect])
    }

    @Test func redisErrorsAreFailuresAndTheViewIsWantedAgainOnReconnection() {
        var h = Harness()
        _ = h.started()
        _ = h.handle(.tick)
        let refused = h.handle(.answered(.read, [.error("NOPERM this user has no permissions")]))
        #expect(refused.contains(.reachable(false, "Redis answered XREAD with an error: NOPERM this user has no permissions")))
        #expect(Self.closed(refused) == [7])
        while !h.retryTick().contains(.connect) {}
        #expect(Self.requests(h.handle(.connected)) == [.want])
    }

    @Test func aOneShotGetsTheSnapshotAndLeaves() {
        var h = Harness()
        _ = h.started(join: nil)
        _ = h.handle(.join(client: 3, resume: nil, oneShot: true))
        let served = Self.delivered(h.handle(.answered(.snapshot, Self.transaction(snapshot: 2, [.init(2, "diff", 2)]))) + h.handle(.tick))
        #expect(served[3]?.count == 2)
        #expect(h.machine.memberCount == 0)
    }

    @Test func aViewWithoutClientsEndsAfterAMinute() {
        var h = Harness()
        _ = h.started()
        _ = h.handle(.leave(client: 7))
        var finished = false
        var elapsed = 0.0
        while !finished && elapsed < 120 {
            let effects = h.handle(.tick, after: 0.5)
            elapsed += 0.5
            finished = effects.contains(.finished)
            if Self.requests(effects) == [.read] { _ = h.handle(.answered(.read, [.null])) }
        }
        #expect(finished)
        #expect(elapsed >= 60 && elapsed <= 61)
        #expect(Self.closed(h.handle(.join(client: 11, resume: nil, oneShot: false))) == [11])
    }
}
