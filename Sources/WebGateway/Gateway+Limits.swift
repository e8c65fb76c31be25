import Threads

/// One limit and one memory budget for every answer in flight (docs/web-gateway.md):
/// at most `maxStreams` answers at once (event streams, snapshots, status, files, until
/// written), and at most `outputBudget` bytes queued for all browsers together, with
/// the feed lines still arriving for them. A request over the first, or an answer that
/// would go over the second, gets 503 at once; a browser that reads nothing is dropped
/// after `stallTimeout`.
extension Gateway {
    /// Output queued past which memory is given back once it drains (`releaseMemory`).
    static let releaseMark = 16 << 20

    /// Answers in flight now.
    public var answersInFlight: Int { clients.values.reduce(0) { $0 + ($1.isAnswering ? 1 : 0) } }

    /// Why a new request cannot be answered now, if it cannot.
    func busy() -> String? {
        if answersInFlight >= config.maxStreams {
            return "too many answers in flight (limit \(config.maxStreams)); try again later"
        }
        if queuedBytes + framingBytes >= config.outputBudget {
            return "too much output waiting for browsers; try again later"
        }
        return nil
    }

    /// Queues a complete answer, or a 503 when it would take the output queued for all
    /// browsers over the budget.
    mutating func answerWithinBudget(_ id: ClientID, _ bytes: [UInt8], head: Bool) {
        guard queuedBytes + framingBytes + bytes.count <= config.outputBudget else {
            effects.append(.log(.info, "browser \(id): 503 an answer of \(bytes.count) bytes would go over the output budget"))
            return answer(id, overBudget(head: head))
        }
        answer(id, bytes)
    }

    /// The 503 of an answer over the budget.
    func overBudget(head: Bool) -> [UInt8] {
        responses.text(.serviceUnavailable, "too much output waiting for browsers; try again later", head: head, extra: [("Retry-After", "5")])
    }

    /// Ends the reading of a feed line still arriving for `id` when the lines held and
    /// the output queued for all browsers go over the budget: a one-shot request gets
    /// 503, a stream ends with a retry hint.
    mutating func checkFramingBudget(_ id: ClientID) {
        guard let c = clients[id], c.upstream.buffered > 0, queuedBytes + framingBytes > config.outputBudget else { return }
        effects.append(.log(.info, "browser \(id): a feed line of over \(c.upstream.buffered) bytes would go over the output budget"))
        if case .oneShot(_, let head, _) = c.phase { return answer(id, overBudget(head: head)) }
        upstreamEnded(id, reason: "eventd-web is too busy (output budget used up)")
    }
}

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
                remove(id, reason: "read nothing for \(Int(config.stallTimeout.seconds)) s")
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
