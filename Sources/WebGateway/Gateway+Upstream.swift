import CanonicalJSON
import FeedProtocol

extension Gateway {
    mutating func upstreamConnected(_ id: ClientID) {
        guard case .connecting(let request) = clients[id]?.upstream else { return }
        clients[id]!.upstream = .open(LineFramer(limit: config.maxFeedLine), helloSeen: false)
        // eventd reads requests before it has sent `hello` just as well: no round trip.
        effects.append(.sendUpstream(id, request))
    }

    mutating func upstreamReceived(_ bytes: ArraySlice<UInt8>, for id: ClientID) {
        guard case .open(var framer, var helloSeen) = clients[id]?.upstream else { return }
        // The client's copy goes while the framer grows: two references to its buffer
        // would copy the whole unfinished line on every read (quadratic in its size).
        clients[id]!.upstream = .none
        let before = framer.buffered
        let lines: [[UInt8]]
        do {
            lines = try framer.feed(bytes)
        } catch {
            framingBytes += framer.buffered - before
            clients[id]!.upstream = .open(framer, helloSeen: helloSeen)
            return upstreamEnded(id, reason: "a feed line over \(config.maxFeedLine) bytes")
        }
        framingBytes += framer.buffered - before
        clients[id]!.upstream = .open(framer, helloSeen: helloSeen)
        defer { checkFramingBudget(id) }
        for line in lines {
            guard clients[id] != nil, case .open = clients[id]!.upstream else { return }
            if helloSeen, case .stream = clients[id]!.phase {
                forward(line, to: id)
                continue
            }
            let message = parsed(line)
            if !helloSeen {
                guard case .hello? = message else {
                    // `overloaded` (eventd's connection limit) or something that is not eventd.
                    var reason = "no hello from eventd"
                    if case .error(let error)? = message { reason = error.message }
                    return upstreamEnded(id, reason: "eventd refused the connection", detail: reason)
                }
                helloSeen = true
                clients[id]!.upstream = .open(framer, helloSeen: true)
                // A stream passes it on: a page resuming where nothing changed gets no
                // other event until a heartbeat, and needs to know eventd is there.
                if case .stream = clients[id]!.phase { forward(line, to: id) }
                continue
            }
            guard case .oneShot(let kind, let head, _) = clients[id]!.phase else { return }
            answerWithinBudget(id, oneShotAnswer(kind, message: message, head: head), head: head)
        }
    }

    /// The message of a feed line. eventd encodes each diff once and sends the same
    /// bytes to every subscriber of the view, so the last line parsed is kept: a diff
    /// for a thousand streams is parsed once (comparing bytes costs far less).
    mutating func parsed(_ line: [UInt8]) -> FeedMessage? {
        if let last = lastParsed, last.line == line { return last.message }
        let message = try? FeedMessage.decode(line)
        lastParsed = (line, message)
        return message
    }

    /// Lines from this long on are scanned for what an event needs (`FeedEnvelope`),
    /// not parsed: linear, without building values, and not kept as `lastParsed`.
    static let scannedLineLength = 1 << 20

    /// One feed message as one event (docs/web-gateway.md).
    private mutating func forward(_ line: [UInt8], to id: ClientID) {
        let head = line.count >= Self.scannedLineLength ? FeedEnvelope(line) : parsed(line).map(FeedEnvelope.init)
        guard let head, head.type.utf8.allSatisfy({ HTTPHeadParser.isTokenByte($0) }) else {
            return upstreamEnded(id, reason: "a feed line that is not a message")
        }
        // Snapshots and diffs are feed positions: the browser resumes from the last one.
        let isPosition = head.kind == .snapshot || head.kind == .diff
        let eventID = isPosition ? head.position.map { ServerSentEvent.id(epoch: $0.epoch, seq: $0.seq) } : nil
        let event = ServerSentEvent.frame(event: head.type, id: eventID, data: line[...])
        guard queuedBytes + framingBytes + event.count <= config.outputBudget else {
            return upstreamEnded(id, reason: "eventd-web is too busy (output budget used up)")
        }
        send(event, to: id)
        if head.kind == .error, head.code == ErrorCode.invalidView.rawValue {
            // The same request would fail again: end the stream, the page shows why.
            answer(id, ServerSentEvent.retry(milliseconds: 60_000))
        }
    }

    /// eventd went away or never answered: a stream ends with a retry hint (the
    /// browser's EventSource reconnects by itself, resuming from its last id); a
    /// one-shot request gets 503 or 502. The browser reads `reason` alone; `detail`
    /// (eventd's own words when it refused) goes only to the log. Neither names the
    /// socket's path nor a user.
    mutating func upstreamEnded(_ id: ClientID, reason: String, detail: String? = nil) {
        guard let c = clients[id], c.hasUpstream else { return }
        var isStream = false
        if case .stream = c.phase { isStream = true }
        effects.append(.log(.info, "browser \(id): \(isStream ? "stream ends" : "no answer"): \(reason)" + (detail.map { " (\($0))" } ?? "")))
        switch c.phase {
        case .stream:
            endStream(id, reason: reason)
        case .oneShot(_, let head, _):
            let helloSeen: Bool
            if case .open(_, let seen) = c.upstream { helloSeen = seen } else { helloSeen = false }
            let status: HTTPStatus = helloSeen ? .badGateway : .serviceUnavailable
            answer(id, responses.text(status, reason, head: head))
        default:
            dropUpstream(id)
        }
    }

    /// Ends an event stream with its last words, a retry hint and an `offline` event:
    /// the browser's EventSource reconnects by itself, resuming from its last id.
    mutating func endStream(_ id: ClientID, reason: String) {
        let data = JSONValue.object([FeedMessage.typeKey: "offline", "reason": .string(reason)]).canonicalBytes()
        answer(id, ServerSentEvent.retry(milliseconds: config.retryMilliseconds)
                    + ServerSentEvent.frame(event: "offline", id: nil, data: data[...]))
    }

    /// eventd-web is stopping: each stream ends (`endStream`), heads and lingering
    /// connections close; one-shot answers still come, within their deadline.
    mutating func shutDown() {
        stopping = true
        for id in clients.keys.sorted() {
            switch clients[id]!.phase {
            case .stream: endStream(id, reason: "eventd-web is stopping")
            case .head, .lingering: remove(id, reason: "eventd-web is stopping")
            case .oneShot, .answered: break
            }
        }
    }

    /// Whether every answer has gone out (a stopping gateway waits for this).
    public var isDrained: Bool {
        clients.values.allSatisfy { if case .lingering = $0.phase { return true } else { return false } }
    }
}
