import CanonicalJSON
import FeedProtocol
import Threads

extension Gateway {
    /// Answers a complete request head: method, access and body checks, then the
    /// endpoint (docs/web-gateway.md).
    mutating func route(_ request: HTTPRequest, from id: ClientID) {
        guard request.method == "GET" || request.method == "HEAD" else {
            return refuse(id, .methodNotAllowed, "only GET and HEAD are served", request: request, extra: [("Allow", "GET, HEAD")])
        }
        if request.headerCount("content-length") > 1 {
            // RFC 9112 6.3: two lengths are a framing error (and a smuggling attempt).
            return refuse(id, .badRequest, "more than one Content-Length header", request: request)
        }
        if request.header("transfer-encoding") != nil || (request.header("content-length").map { $0 != "0" } ?? false) {
            return refuse(id, .badRequest, "request bodies are not accepted", request: request)
        }
        // Another local account: refused whatever it sends (`PeerPolicy`).
        if let refusal = clients[id]?.accountRefusal { return refuse(id, .forbidden, refusal, request: request) }
        if let refusal = busy() { return refuse(id, .serviceUnavailable, refusal, request: request, extra: [("Retry-After", "5")]) }
        if let (status, message) = config.access.refusal(request) {
            let extra: [(String, String)] = status == .unauthorized ? [("WWW-Authenticate", "Bearer")] : []
            return refuse(id, status, message, request: request, extra: extra)
        }
        switch request.path {
        case "/api/events":
            openStream(request, for: id)
        case "/api/snapshot":
            do {
                startOneShot(.snapshot(try ViewQuery.view(request)), request: request, for: id)
            } catch {
                refuse(id, .badRequest, error.description, request: request)
            }
        case "/api/status":
            startOneShot(.status, request: request, for: id)
        case "/healthz":
            startOneShot(.health, request: request, for: id)
        default:
            let name = request.path == "/" ? "index.html" : String(request.path.dropFirst())
            guard let asset = assets.file(named: name) else {
                return refuse(id, .notFound, "not found", request: request)
            }
            answerAsset(asset, request: request, for: id)
        }
    }

    /// A file of the dashboard: gzipped when the browser takes it, with its validator;
    /// `no-cache` (stored, but asked again each time), and 304 when the browser's copy is
    /// current, so a reload costs a few hundred bytes and a change is never missed.
    private mutating func answerAsset(_ asset: StaticAssets.File, request: HTTPRequest, for id: ClientID) {
        let zipped = asset.gzipped != nil && Self.acceptsGzip(request.header("accept-encoding"))
        let etag = asset.etag(gzipped: zipped)
        var fields = [("ETag", etag), ("Cache-Control", "no-cache"), ("Vary", "Accept-Encoding")]
        if let held = request.header("if-none-match"),
           held.split(separator: ",").contains(where: { ["*", etag].contains(Self.opaqueTag($0)) }) {
            effects.append(.log(.debug, "browser \(id): 304 \(request.path)"))
            // No body and no Content-Length (it would have to be the 200's).
            return answerWithinBudget(id, responses.head(.notModified, fields + [("Connection", "close")]), head: true)
        }
        if zipped { fields.append(("Content-Encoding", "gzip")) }
        effects.append(.log(.debug, "browser \(id): 200 \(request.path)"))
        answerWithinBudget(id, responses.complete(.ok, contentType: asset.contentType, body: zipped ? asset.gzipped! : asset.bytes,
                                                  head: request.isHead, extra: fields),
                           head: request.isHead)
    }

    /// An entity tag of an `If-None-Match` list without spaces or its weak mark (the
    /// comparison is weak, RFC 9110 13.1.2).
    static func opaqueTag(_ item: Substring) -> String {
        let tag = item.trimmingCharacters(in: .whitespaces)
        return tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
    }

    /// Whether an `Accept-Encoding` value takes gzip (not with `q=0`).
    static func acceptsGzip(_ value: String?) -> Bool {
        guard let value else { return false }
        return value.lowercased().split(separator: ",").contains { item in
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.first == "gzip" || parts.first == "x-gzip" || parts.first == "*" else { return false }
            let q = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return q > 0
        }
    }

    private mutating func refuse(_ id: ClientID, _ status: HTTPStatus, _ message: String, request: HTTPRequest,
                                 extra: [(String, String)] = []) {
        effects.append(.log(.info, "browser \(id): \(status.rawValue) \(request.method) \(request.path): \(message)"))
        // A value quoted back (`?days=TOKEN`) is the asker's own, but no answer carries it.
        answer(id, responses.text(status, config.access.scrubbed(message), head: request.isHead, extra: extra))
    }

    /// `/api/events`: the stream's head at once, then eventd's messages as events.
    private mutating func openStream(_ request: HTTPRequest, for id: ClientID) {
        let view: ViewFields, version: Int64
        do { (view, version) = (try ViewQuery.view(request), try ViewQuery.protocolVersion(request)) } catch {
            return refuse(id, .badRequest, error.description, request: request)
        }
        if request.isHead { return answer(id, responses.eventStreamHead()) }
        clients[id]!.phase = .stream(view: view)
        let subscribe = ViewQuery.subscribe(view: view, lastEventID: request.header("last-event-id"), protocolVersion: version)
        clients[id]!.upstream = .connecting(request: subscribe.line)
        send(responses.eventStreamHead() + ServerSentEvent.retry(milliseconds: config.retryMilliseconds), to: id)
        effects.append(.connectUpstream(id))
        effects.append(.log(.debug, "browser \(id): event stream \(AccessPolicy.redacted(request.target)) (\(streamCount) open)"))
    }

    /// `/api/snapshot`, `/api/status`, `/healthz`: one request to eventd, one answer.
    private mutating func startOneShot(_ kind: GatewayClient.OneShot, request: HTTPRequest, for id: ClientID) {
        clients[id]!.phase = .oneShot(kind, head: request.isHead, deadline: now + config.upstreamTimeout)
        clients[id]!.upstream = .connecting(request: kind.request.line)
        effects.append(.connectUpstream(id))
    }

    /// The answer to a one-shot request from eventd's message.
    func oneShotAnswer(_ kind: GatewayClient.OneShot, message: FeedMessage?, head: Bool) -> [UInt8] {
        switch (kind, message) {
        case (.health, .pong?):
            return responses.text(.ok, "ok", head: head)
        case (.health, _):
            return responses.text(.serviceUnavailable, "eventd did not answer the ping", head: head)
        case (.snapshot, .snapshot(let snapshot)?):
            // What `eventctl agenda --json` prints: digest, sections, view.
            var w = JSONWriter(reservingCapacity: 256)
            w.beginObject()
            w.key("digest"); w.string(snapshot.digest)
            w.key("sections"); w.raw(snapshot.sectionsBytes)
            w.key("view"); w.value(snapshot.view.json)
            w.endObject()
            return json(.ok, bytes: w.takeBytes(), head: head)
        case (.status, .status?):
            return json(.ok, Self.redacted(status: message!.json), head: head)
        case (_, .error(let error)?):
            let status: HTTPStatus = error.code == .invalidView ? .badRequest : .badGateway
            return json(status, message!.json, head: head)
        default:
            return responses.text(.badGateway, "unexpected answer from eventd", head: head)
        }
    }

    /// eventd's status without what a browser has no business knowing (FeedProtocol's rule).
    static func redacted(status: JSONValue) -> JSONValue { FeedMessage.redacted(status: status) }

    func json(_ status: HTTPStatus, _ value: JSONValue, head: Bool) -> [UInt8] {
        json(status, bytes: value.canonicalBytes(), head: head)
    }

    /// A JSON answer whose body (without its newline) is written already.
    func json(_ status: HTTPStatus, bytes: [UInt8], head: Bool) -> [UInt8] {
        responses.complete(status, contentType: "application/json", body: bytes + [10], head: head)
    }
}
