import Threads

/// Request heads still arriving, bounded by progress (slow loris): a head must keep up a
/// minimum rate after a short grace and arrive within `headTimeout`; each address has
/// at most `maxPendingHeadsPerAddress` pending and all of them `maxPendingHeads`, a new
/// connection past either bound evicting the oldest one, so a new client is always read.
extension Gateway {
    /// A browser connected from `peer` (`GatewayListener.peerHost`).
    public mutating func accept(_ id: ClientID, peer: String, refusal: String? = nil) {
        let victims = headsToEvict(forNewFrom: peer)
        if let oldest = victims.perAddress {
            evictHead(oldest, because: "\(config.maxPendingHeadsPerAddress) request heads already arriving from its address")
        }
        if let oldest = victims.total, oldest != victims.perAddress {
            evictHead(oldest, because: "\(config.maxPendingHeads) request heads already arriving")
        }
        clients[id] = GatewayClient(now: now, headLimit: config.headLimit, peer: peer)
        clients[id]!.accountRefusal = refusal
        heads.append(id)
    }

    /// The heads a new connection from `peer` would evict: the oldest from its address
    /// when that address is at its limit, the oldest of all when all are. The loop reads
    /// them once more before accepting, since their bytes may have arrived since it last
    /// looked (a burst of browsers from one address, or a proxy, is not an attack).
    public func headsToEvict(forNewFrom peer: String) -> (perAddress: ClientID?, total: ClientID?) {
        var fromPeer = 0
        var oldestFromPeer: ClientID?
        for head in heads where clients[head]?.peer == peer {
            if oldestFromPeer == nil { oldestFromPeer = head }
            fromPeer += 1
        }
        return (fromPeer >= config.maxPendingHeadsPerAddress ? oldestFromPeer : nil,
                heads.count >= config.maxPendingHeads ? heads.first : nil)
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
            problem = "request head not complete within \(Int(config.headTimeout.seconds)) s"
        } else if elapsed >= config.headGrace, Double(c.headBytes) < config.minHeadRate * elapsed.seconds {
            problem = "request head slower than \(Int(config.minHeadRate)) bytes a second"
        } else {
            return
        }
        effects.append(.log(.debug, "browser \(id): 408 \(problem)"))
        headEnded(id)
        answer(id, responses.text(.requestTimeout, "request head not complete in time"))
    }
}
