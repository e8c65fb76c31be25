extension Gateway {
    /// Deadlines and keep-alives, once a second or so.
    mutating func tick() {
        // The budget's worth of answers, once written or dropped, leaves the heap full
        // of free pages that glibc keeps: given back once the output is nearly gone.
        if releaseOwed, queuedBytes + framingBytes < Self.releaseMark / 16 {
            releaseOwed = false
            effects.append(.releaseMemory)
        }
        for (id, c) in clients {
            // A browser with data waiting that takes nothing for the stall timeout goes:
            // its queue is bounded, but its descriptor and subscription are not free.
            if !c.outbox.isEmpty, now - c.lastDrain >= config.stallTimeout {
                remove(id, reason: "read nothing for \(Int(config.stallTimeout)) s")
                effects.append(.log(.info, "browser \(id) disconnected: stalled"))
                continue
            }
            switch c.phase {
            case .head:
                checkHeadProgress(id, c)
            case .oneShot(_, let head, let deadline):
                if now >= deadline {
                    answer(id, responses.text(.gatewayTimeout, "eventd did not answer in time", head: head))
                }
            case .stream:
                if c.outbox.isEmpty, now - c.lastSent >= config.keepAliveInterval {
                    send(ServerSentEvent.keepAlive, to: id)
                }
            case .answered:
                break
            case .lingering(let since):
                if now - since >= config.lingerTimeout { remove(id, reason: nil) }
            }
        }
    }
}
