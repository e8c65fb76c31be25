import Diagnostics
import FeedProtocol
import RedisClient
import Synchronization
import Threads
#if canImport(Glibc)
import Glibc
#endif

/// One view's reader in a gateway: a thread with its own connection that keeps the
/// view in the wanted set (`ZADD`, announced on the channel when new, refreshed every
/// 20 s with a 60 s lifetime), reads the stream with `XREAD BLOCK`, and serves joins
/// between reads. It ends 60 s after its last client left, or when Redis goes away (its
/// clients are told; their reconnections start a new one).
final class ViewWatcher: Sendable {
    private struct Inbox {
        var joins: [(client: Int, resume: Request.Resume?, oneShot: Bool)] = []
        var leaves: [Int] = []
        var running = true
    }

    private let inbox = Mutex(Inbox())
    private let thread = Mutex<WorkerThread<Void>?>(nil)
    let view: PublishedView

    /// How long one `XREAD` blocks: joins wait at most this long.
    static let blockMilliseconds = 250
    static let wantedRefresh = 20.0
    static let wantedLifetime = 60.0
    static let idleGrace = 60.0

    init(view: PublishedView, target: RedisPublisher.Target, keys: FeedKeys, upstream: RedisUpstream) {
        self.view = view
        let worker = WorkerThread(name: "redis-view") { [self] in
            run(target: target, keys: keys, upstream: upstream)
        }
        thread.withLock { $0 = worker }
    }

    var isRunning: Bool { inbox.withLock { $0.running } }

    func join(_ client: Int, resume: Request.Resume?, oneShot: Bool) {
        inbox.withLock { $0.joins.append((client, resume, oneShot)) }
    }

    func leave(_ client: Int) { inbox.withLock { $0.leaves.append(client) } }

    private func run(target: RedisPublisher.Target, keys: FeedKeys, upstream: RedisUpstream) {
        var fanout = ViewFanout()
        var oneShots = Set<Int>()
        var lastWanted = -Double.infinity
        var idleSince: Double?
        do {
            let redis = try RedisConnection(url: target.url, password: target.password,
                                            connectTimeout: target.ioTimeout, ioTimeout: target.ioTimeout + Double(Self.blockMilliseconds) / 1000)
            // Wanted at once, and announced: eventd starts publishing it.
            try want(redis, keys: keys, announce: true)
            lastWanted = Self.now()
            var snapshot = try waitForSnapshot(redis, keys: keys, fanout: &fanout)
            upstream.reachable(true)
            while true {
                let (joins, leaves, running) = inbox.withLock { i in
                    defer { i.joins.removeAll(); i.leaves.removeAll() }
                    return (i.joins, i.leaves, i.running)
                }
                guard running else { return }
                for client in leaves { fanout.leave(client); oneShots.remove(client) }
                var fresh = false
                for join in joins {
                    if let resume = join.resume, let lines = fanout.resume(join.client, after: resume) {
                        upstream.send(join.client, .bytes(Self.joined(lines)))
                        continue
                    }
                    if !fresh { snapshot = try readSnapshot(redis, keys: keys) ?? snapshot; fresh = true }
                    let lines = fanout.join(join.client, snapshot: snapshot, resume: join.resume)
                    upstream.send(join.client, .bytes(Self.joined(lines)))
                    if join.oneShot { oneShots.insert(join.client) }
                }
                for client in oneShots { fanout.leave(client) }
                oneShots.removeAll()

                let now = Self.now()
                if fanout.memberCount == 0 {
                    if let since = idleSince, now - since > Self.idleGrace { return finish(upstream, members: []) }
                    if idleSince == nil { idleSince = now }
                } else {
                    idleSince = nil
                }
                if now - lastWanted >= Self.wantedRefresh, fanout.memberCount > 0 {
                    try want(redis, keys: keys, announce: false)
                    lastWanted = now
                }
                let reply = try redis.call(RedisCommand(["XREAD", "COUNT", "512", "BLOCK", String(Self.blockMilliseconds),
                                                         "STREAMS", keys.stream(view), fanout.position.description]))
                let (lines, lost) = fanout.received(StreamEntry.readEntries(reply))
                for (client, out) in lines { upstream.send(client, .bytes(Self.joined(out))) }
                if !lost.isEmpty {
                    snapshot = try readSnapshot(redis, keys: keys) ?? snapshot
                    for client in lost {
                        upstream.send(client, .bytes(Self.joined(fanout.join(client, snapshot: snapshot, resume: nil, hello: false))))
                    }
                }
            }
        } catch {
            upstream.reachable(false, RedisErrorText(text: "\(error)"))
            finish(upstream, members: fanout.memberIDs)
        }
    }

    /// Stops taking joins and tells `members` and every join waiting that the upstream
    /// is gone (their browsers are told, and reconnect).
    private func finish(_ upstream: RedisUpstream, members: [Int]) {
        let joins = inbox.withLock { i -> [Int] in
            i.running = false
            return i.joins.map(\.client)
        }
        upstream.ended(self, key: view.key)
        for client in members + joins {
            upstream.forget(client, of: view.key)
            upstream.send(client, .closed)
        }
    }

    private func want(_ redis: RedisConnection, keys: FeedKeys, announce: Bool) throws {
        let expiry = Self.wallMilliseconds() + Int64(Self.wantedLifetime * 1000)
        var commands = [RedisCommand(["ZADD", keys.wanted, String(expiry), view.canonical])]
        if announce { commands.append(RedisCommand(["PUBLISH", keys.wanted, view.canonical])) }
        for reply in try redis.pipeline(commands) {
            if let message = reply.errorMessage { throw RedisError(.reply, operation: "ZADD", message: message) }
        }
    }

    /// The snapshot key and the stream, read in one transaction: the snapshot stands at
    /// the stream's last entry.
    private func waitForSnapshot(_ redis: RedisConnection, keys: FeedKeys, fanout: inout ViewFanout) throws -> ViewFanout.Snapshot {
        let deadline = Self.now() + 30
        while true {
            let replies = try redis.pipeline([RedisCommand(["MULTI"]), RedisCommand(["GET", keys.snapshot(view)]),
                                              RedisCommand(["XRANGE", keys.stream(view), "-", "+"]), RedisCommand(["EXEC"])])
            if let results = replies.last?.elements, results.count == 2, case .string(let line) = results[0],
               let snapshot = Self.snapshot(line, at: StreamEntry.entries(results[1]).last?.id ?? .zero) {
                let entries = StreamEntry.entries(results[1])
                fanout.start(entries: entries, at: entries.last?.id ?? .zero)
                return snapshot
            }
            if let problem = replies.lazy.compactMap(\.errorMessage).first {
                throw RedisError(.reply, operation: "EXEC", message: problem)
            }
            // Not published yet: eventd heard the announcement and is computing it.
            if Self.now() > deadline { throw RedisError(.unexpectedReply, operation: "GET", message: "eventd published no snapshot of \(view) in 30 s") }
            usleep(50_000)
        }
    }

    /// The latest snapshot and the stream's last entry, in one transaction.
    private func readSnapshot(_ redis: RedisConnection, keys: FeedKeys) throws -> ViewFanout.Snapshot? {
        let replies = try redis.pipeline([RedisCommand(["MULTI"]), RedisCommand(["GET", keys.snapshot(view)]),
                                          RedisCommand(["XREVRANGE", keys.stream(view), "+", "-", "COUNT", "1"]), RedisCommand(["EXEC"])])
        guard let results = replies.last?.elements, results.count == 2, case .string(let line) = results[0] else { return nil }
        return Self.snapshot(line, at: StreamEntry.entries(results[1]).first?.id ?? .zero)
    }

    static func snapshot(_ line: [UInt8], at: StreamID) -> ViewFanout.Snapshot? {
        guard case .snapshot(let s)? = try? FeedMessage.decode(line) else { return nil }
        return ViewFanout.Snapshot(line: line, epoch: s.epoch, seq: s.seq, at: at)
    }

    static func joined(_ lines: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(lines.reduce(0) { $0 + $1.count + 1 })
        for line in lines { bytes += line; bytes.append(10) }
        return bytes
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    static func wallMilliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }
}
