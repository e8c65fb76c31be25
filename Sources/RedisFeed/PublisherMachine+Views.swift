import Threads
import CanonicalJSON
import Diagnostics
import FeedProtocol
import RedisClient

extension PublisherMachine {
    // MARK: - Lines

    mutating func received(_ line: FeedLine, of view: PublishedView) {
        guard var state = views[view.key] else { return } // unfollowed meanwhile
        if line.snapshot != nil { state.latest = line }
        views[view.key] = state
        guard link == .up else { return } // owed: its snapshot goes when Redis is back
        if state.owed {
            republish(view.key)
        } else {
            send(line, of: view, republish: false)
        }
    }

    /// The views that Redis lacks the latest state of, as snapshots.
    mutating func republishOwed() {
        for key in views.keys.sorted() where views[key]!.owed && link == .up { republish(key) }
    }

    private mutating func republish(_ key: String) {
        guard let state = views[key], let latest = state.latest, let snapshot = latest.snapshot else { return }
        let line = FeedLine(type: .snapshot, epoch: latest.epoch, seq: latest.seq, line: snapshot, snapshot: snapshot,
                            protocolVersion: latest.protocolVersion)
        send(line, of: state.view, republish: true)
    }

    /// One stream entry and, when the message has one, the snapshot key, in one transaction.
    private mutating func send(_ line: FeedLine, of view: PublishedView, republish: Bool) {
        var commands = [RedisCommand(["MULTI"])]
        commands.append(RedisCommand(["XADD", settings.keys.stream(view), "MAXLEN", "~", String(settings.streamLength), "*",
                                      "epoch", line.epoch, "seq", String(line.seq), FeedMessage.typeKey, line.type.rawValue,
                                      "protocol", String(line.protocolVersion), "line"])
            .appending(bytes: line.line))
        if let snapshot = line.snapshot {
            commands.append(RedisCommand(["SET", settings.keys.snapshot(view)]).appending(bytes: snapshot))
        }
        commands.append(RedisCommand(["EXEC"]))
        effects.append(.send(.publish(view, seq: line.seq, republish: republish), commands))
    }

    // MARK: - Replies

    mutating func answered(_ request: PublisherRequest, _ replies: [RedisReply]) {
        switch request {
        case .publish(let view, _, let republish):
            if let problem = Self.transactionProblem(replies) {
                views[view.key]?.owed = true
                if !refusing {
                    refusing = true
                    effects.append(.log(.warning, "Redis refused the feed's writes: \(problem); the feed socket is served as before, and each view's snapshot is written again once Redis accepts writes"))
                }
                return
            }
            if refusing {
                refusing = false
                effects.append(.log(.notice, "Redis accepts the feed's writes again"))
            }
            if republish { views[view.key]?.owed = false }
        case .readWanted(let checked):
            readWantedAnswered(checked, replies)
        case .status:
            if let problem = replies.lazy.compactMap(\.errorMessage).first, !refusing {
                refusing = true
                effects.append(.log(.warning, "Redis refused eventd's status: \(problem); the feed socket is served as before"))
            }
        }
    }

    /// What went wrong in a `MULTI`…`EXEC` pipeline's replies, or nil when it committed.
    static func transactionProblem(_ replies: [RedisReply]) -> String? {
        if let error = replies.lazy.compactMap(\.errorMessage).first { return error }
        guard case .array(let results)? = replies.last else { return "EXEC answered \(String(describing: replies.last))" }
        return results.lazy.compactMap(\.errorMessage).first
    }

    // MARK: - The wanted set

    /// Drops expired entries, reads the live ones, and checks that each published view's
    /// snapshot key is still there.
    mutating func readWanted() {
        nextWantedRead = now.monotonic + settings.wantedReadInterval
        let checked = views.keys.sorted().compactMap { views[$0]!.latest == nil ? nil : views[$0]!.view }
        var commands = [RedisCommand(["ZREMRANGEBYSCORE", settings.keys.wanted, "-inf", "(\(now.wallMilliseconds)"]),
                        RedisCommand(["ZRANGEBYSCORE", settings.keys.wanted, "(\(now.wallMilliseconds)", "+inf"])]
        for view in checked { commands.append(RedisCommand(["EXISTS", settings.keys.snapshot(view)])) }
        effects.append(.send(.readWanted(checked: checked), commands))
    }

    private mutating func readWantedAnswered(_ checked: [PublishedView], _ replies: [RedisReply]) {
        guard replies.count == checked.count + 2, let members = replies[1].elements else {
            let problem = replies.lazy.compactMap(\.errorMessage).first ?? "unexpected replies"
            effects.append(.log(.warning, "cannot read the wanted views (\(settings.keys.wanted)): \(problem)"))
            return
        }
        var live: [String: PublishedView] = [:]
        for case .string(let bytes) in members {
            guard let view = PublishedView(wantedMember: bytes) else { continue }
            live[view.key] = view
        }
        let configured = Set(settings.configured.map(\.key))
        for (key, view) in live.sorted(by: { $0.key < $1.key }) where views[key] == nil {
            effects.append(.log(.info, "publishing \(view) (a gateway wants it)"))
            follow(view)
        }
        for key in wanted.subtracting(live.keys).subtracting(configured).sorted() {
            guard let state = views.removeValue(forKey: key) else { continue }
            effects.append(.log(.info, "no longer publishing \(state.view) (no gateway wants it)"))
            effects.append(.unfollow(state.view))
        }
        wanted = Set(live.keys)
        // An emptied Redis (restarted without its data, flushed): snapshot keys gone.
        for (view, reply) in zip(checked, replies.dropFirst(2)) where reply == .integer(0) {
            guard views[view.key] != nil, !views[view.key]!.owed else { continue }
            effects.append(.log(.notice, "the snapshot of \(view.key) is missing from Redis (emptied?): written again"))
            views[view.key]!.owed = true
        }
        republishOwed()
    }

    mutating func follow(_ view: PublishedView) {
        guard views[view.key] == nil else { return }
        views[view.key] = ViewState(view: view)
        effects.append(.follow(view))
    }
}
