/// Request heads still arriving, bounded by progress (slow loris): a head must keep up a
/// minimum rate after a short grace and arrive within `headTimeout`; each address has
/// at most `maxPendingHeadsPerAddress` pending and all of them `maxPendingHeads`, a new
/// connection past either bound evicting the oldest one, so a new client is always read.
extension Gateway {
    /// A browser connected from `peer` (`GatewayListener.peerHost`).
    public mutating func accept(_ id: ClientID, peer: String) {
        var fromPeer: [ClientID] = []
        for head in heads where clients[head]?.peer == peer { fromPeer.append(head) }
        if fromPeer.count >= config.maxPendingHeadsPerAddress, let oldest = fromPeer.first {
            evictHead(oldest, because: "\(config.maxPendingHeadsPerAddress) request heads already arriving from its address")
        }
        if heads.count >= config.maxPendingHeads, let oldest = heads.first {
            evictHead(oldest, because: "\(config.maxPendingHeads) request heads already arriving")
        }
        clients[id] = GatewayClient(now: now, headLimit: config.headLimit, peer: peer)
        heads.append(id)
    }

    /// Closes a connection whose head is arriving, to make room for a newer one. (Logged
    /// at debug: under attack there are many, and the log must not grow with them.)
    private mutating func evictHead(_ id: ClientID, because reason: String) {
        remove(id, reason: "evicted: \(reason)")
    }

    /// Notes that `id`'s head is no longer arriving (complete, refused, or closed).
    mutating func headEnded(_ id: ClientID) {
        if let index = heads.firstIndex(of: id) { heads.remove(at: index) }
    }

    /// 408 for a head too slow, by rate or in all; called by `tick`.
    mutating func checkHeadProgress(_ id: ClientID, _ c: GatewayClient) {
        let elapsed = now - c.accepted
        let problem: String
        if elapsed >= config.headTimeout {
            problem = "request head not complete within \(Int(config.headTimeout)) s"
        } else if elapsed >= config.headGrace, Double(c.headBytes) < config.minHeadRate * elapsed {
            problem = "request head slower than \(Int(config.minHeadRate)) bytes a second"
        } else {
            return
        }
        effects.append(.log(.debug, "browser \(id): 408 \(problem)"))
        headEnded(id)
        answer(id, responses.text(.requestTimeout, "request head not complete in time"))
    }
}
