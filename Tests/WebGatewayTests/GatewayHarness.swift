import Threads
@testable import WebGateway

/// Drives a `Gateway` in-process with a fake clock: what a browser sends, what eventd
/// sends, what the socket takes; collects the effects and each browser's output.
struct GatewayHarness {
    var gateway: Gateway
    var now = MonotonicInstant(sinceStart: .seconds(1000))
    var effects: [GatewayEffect] = []
    /// Everything written to each browser so far (the harness's socket takes all).
    var written: [ClientID: [UInt8]] = [:]
    var nextID = 1

    static let host = "127.0.0.1:8787"
    static let assets = StaticAssets(files: ["index.html": .init(bytes: Array("<!doctype html>".utf8), contentType: "text/html; charset=utf-8"),
                                             "app.js": .init(bytes: Array("export {}".utf8), contentType: "text/javascript; charset=utf-8")])

    init(token: String? = nil, allowHosts: [String] = [], configure: (inout GatewayConfiguration) -> Void = { _ in }) {
        var config = GatewayConfiguration(socketPath: "/nonexistent",
                                          access: AccessPolicy(listen: .defaultAddress, allowHosts: allowHosts, token: token))
        configure(&config)
        gateway = Gateway(config: config, assets: Self.assets, now: now)
    }

    @discardableResult
    mutating func handle(_ event: GatewayEvent) -> [GatewayEffect] {
        let result = gateway.handle(event, at: now)
        effects += result
        return result
    }

    /// Accepts a browser and returns its id.
    mutating func connect() -> ClientID {
        let id = nextID
        nextID += 1
        handle(.browser(.accepted(id)))
        return id
    }

    /// Sends raw bytes from a browser.
    @discardableResult
    mutating func send(_ text: String, from id: ClientID) -> [GatewayEffect] {
        handle(.browser(.received(id, Array(text.utf8)[...])))
    }

    /// A request with the right Host (and extra header lines).
    mutating func request(_ target: String, method: String = "GET", headers: [String] = [], host: String? = GatewayHarness.host) -> ClientID {
        let id = connect()
        var text = "\(method) \(target) HTTP/1.1\r\n"
        if let host { text += "Host: \(host)\r\n" }
        for h in headers { text += h + "\r\n" }
        send(text + "\r\n", from: id)
        return id
    }

    /// Lets the socket take everything queued for `id`; returns the text taken.
    @discardableResult
    mutating func drain(_ id: ClientID) -> String {
        guard let queue = gateway.output(id), !queue.isEmpty else { return "" }
        var bytes: [UInt8] = []
        var offset = queue.offset
        for message in queue.pending { bytes += message[offset...]; offset = 0 }
        written[id, default: []] += bytes
        handle(.browser(.wrote(id, count: bytes.count)))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// All text written to `id` so far (after draining what waits).
    mutating func output(_ id: ClientID) -> String {
        drain(id)
        return String(decoding: written[id] ?? [], as: UTF8.self)
    }

    /// The status code of the response written to `id`.
    mutating func status(_ id: ClientID) -> Int? {
        let text = output(id)
        guard text.hasPrefix("HTTP/1.1 ") else { return nil }
        return Int(text.dropFirst(9).prefix(3))
    }

    /// eventd's side: the connection comes up and sends these lines.
    mutating func upstream(_ id: ClientID, lines: [String]) {
        handle(.upstreamReceived(id, Array(lines.map { $0 + "\n" }.joined().utf8)[...]))
    }

    mutating func advance(_ seconds: Double) {
        now = now + .seconds(seconds)
        handle(.tick)
    }

    static let hello = #"{"type":"hello","epoch":"e1","protocol":1,"server":"eventd/0.1.0"}"#
    static let snapshot = #"{"type":"snapshot","digest":"d1","epoch":"e1","sections":[],"seq":4,"view":{"days":7}}"#
    static let diff = #"{"type":"diff","base_seq":4,"changes":{},"digest":"d2","epoch":"e1","seq":5}"#
}
