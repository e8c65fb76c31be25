import Foundation
import Testing
import CanonicalJSON
import TestSupport

/// The real eventd and eventd-web on a temporary socket and a loopback port: the event
/// stream, resume, the limits and status codes over real sockets, eventd going away.
@Suite(.serialized) struct GatewayEndToEndTests {
    static let events = [
        TestEvent("a@x", "20261129T150000Z", "20261129T160000Z", "Alpha"),
        TestEvent("b@x", "20261130T090000Z", "20261130T100000Z", "Beta"),
    ]
    static let view = "tz=UTC&days=7"

    @Test func aStreamGetsTheSnapshotThenADiffAfterAnImportAndResumesByLastEventID() async throws {
        try await DaemonHarness.with(running: Self.events) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon)
            let stream = try await web.stream(query: Self.view)
            let snapshot = try await stream.next("snapshot")
            var state = try FeedState(snapshot: try snapshot.json())
            #expect(snapshot.id == "\(state.epoch).\(state.seq)")
            #expect(stream.retry == 2000)
            #expect(state.item(uid: "a@x") != nil)

            // An import that renames one event and adds another: one diff, applied by the
            // reference algorithm, whose digest matches.
            try await daemon.importCalendar(icsCalendar([
                TestEvent("a@x", "20261129T150000Z", "20261129T160000Z", "Alpha renamed"),
                TestEvent("b@x", "20261130T090000Z", "20261130T100000Z", "Beta"),
                TestEvent("c@x", "20261201T090000Z", "20261201T100000Z", "Gamma"),
            ]))
            let diff = try await stream.next("diff")
            try state.apply(try diff.json())
            #expect(diff.id == "\(state.epoch).\(state.seq)")
            #expect(state.item(uid: "a@x")?.item["summary"] == "Alpha renamed")
            #expect(state.item(uid: "c@x") != nil)
            stream.connection.close()

            // A browser that reconnects with the last id it saw before the import gets the
            // retained diff, not a snapshot.
            let resumed = try await web.stream(query: Self.view, lastEventID: snapshot.id)
            let replayed = try await resumed.next("diff")
            #expect(replayed.id == diff.id)
            #expect(replayed.data == diff.data)
            #expect(!resumed.events.contains { $0.event == "snapshot" })

            // A snapshot over plain GET is what the stream's state is.
            let plain = try await web.get("/api/snapshot?\(Self.view)")
            #expect(plain.status == 200)
            let body = try JSONValue.parse(plain.body)
            #expect(body["digest"]?.stringValue == state.digest)
        }
    }

    @Test func eventdGoingAwayEndsStreamsWithARetryHintAndARestartIsAResync() async throws {
        try await DaemonHarness.with(running: Self.events) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon)
            #expect(try await web.get("/healthz").status == 200)
            let stream = try await web.stream(query: Self.view)
            let snapshot = try await stream.next("snapshot")
            _ = await daemon.stop()
            let ended = try await stream.waitForEnd()
            #expect(ended.last?.event == "offline")
            #expect(stream.retry == 2000)
            #expect(try await web.get("/healthz").status == 503)
            let refused = try await web.stream(query: Self.view, lastEventID: snapshot.id)
            #expect(try await refused.waitForEnd().map(\.event) == ["offline"])

            try await daemon.start()
            let again = try await web.stream(query: Self.view, lastEventID: snapshot.id)
            let resync = try await again.next("resync")
            #expect(try resync.json()["reason"] == "epoch")
            let fresh = try await again.next("snapshot")
            #expect(fresh.id != snapshot.id)
            #expect(try await web.get("/healthz").status == 200)
        }
    }

    @Test func sigtermEndsEveryStreamWithItsLastWordsAndExitsZeroWithinTwoSeconds() async throws {
        try await DaemonHarness.with(running: Self.events) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon)
            let first = try await web.stream(query: Self.view)
            let second = try await web.stream(query: "tz=Europe/Berlin&days=3")
            _ = try await first.next("snapshot")
            _ = try await second.next("snapshot")
            let signalled = monotonicNow()
            #expect(kill(web.pid, SIGTERM) == 0)
            let exit = try await daemon.waitOther(web.pid, timeout: 2)
            #expect(exit == .exited(0), "eventd-web should exit 0 on SIGTERM, got \(exit.map { "\($0)" } ?? "still running")")
            #expect(monotonicNow() - signalled < 2, "stopping took \(monotonicNow() - signalled) s")
            // Each stream ended with a retry hint and an `offline` event, then the
            // connection's end: the page's EventSource reconnects by itself.
            for stream in [first, second] {
                let ended = try await stream.waitForEnd(timeout: 1)
                #expect(ended.last?.event == "offline")
                #expect(try ended.last?.json()["reason"] == "eventd-web is stopping")
                #expect(stream.retry == 2000)
            }
            #expect(web.log.contains("received SIGTERM, stopping"))
            #expect(web.log.contains("stopped"))
        }
    }

    @Test func limitsAndRefusalsOverRealSockets() async throws {
        try await DaemonHarness.with(running: Self.events) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon, arguments: ["--max-streams", "1"],
                                                        environment: ["EVENTD_WEB_HEAD_TIMEOUT": "1"])
            // 405, 404, 403 (DNS rebinding), 400 (no Host), 200 with the headers.
            #expect(try await web.get("/", method: "POST").status == 405)
            #expect(try await web.get("/nope").status == 404)
            #expect(try await web.get("/", host: "attacker.example:\(web.port)").status == 403)
            let page = try await web.get("/")
            #expect(page.status == 200)
            #expect(page.header("content-security-policy")?.hasPrefix("default-src 'self'") == true)
            #expect(page.header("x-content-type-options") == "nosniff")
            #expect(page.header("referrer-policy") == "no-referrer")
            // The page's files are revalidated (issue 56); data answers are never stored.
            #expect(page.header("cache-control") == "no-cache" && page.header("etag") != nil)
            #expect(try await web.get("/nope").header("cache-control") == "no-store")
            #expect(page.header("access-control-allow-origin") == nil)
            #expect(page.header("date")?.hasSuffix(" GMT") == true, "\(page.text.prefix(400))")
            #expect(page.body.contains("<script type=\"module\" src=\"app.js\">"))
            let status = try await web.get("/api/status")
            #expect(status.status == 200)
            #expect(!status.body.contains(daemon.directory))
            #expect(try JSONValue.parse(status.body)["events"] != nil)

            // 431: a head over 16 KiB.
            let big = try HTTPConnection(port: web.port)
            try big.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(web.port)\r\nX-Big: " + String(repeating: "a", count: 17_000) + "\r\n\r\n")
            try await big.waitForClose(timeout: 10)
            #expect(big.status == 431)

            // Slow loris: half a head, then nothing; answered 408 and closed (1 s here).
            let slow = try HTTPConnection(port: web.port)
            try slow.send("GET / HTTP/1.1\r\nHost: 127.0.0.1")
            try await slow.waitForClose(timeout: 10)
            #expect(slow.status == 408)

            // 503: one stream at most.
            let first = try await web.stream(query: Self.view)
            _ = try await first.next("snapshot")
            let second = try await web.get("/api/events?\(Self.view)")
            #expect(second.status == 503)
            #expect(second.header("retry-after") == "5")
            first.connection.close()
            // The slot frees once the gateway sees the close.
            #expect(try await eventually(timeout: 5) {
                let s = try EventStreamClientProbe.status(port: web.port, query: Self.view, headers: web.authorization)
                return s == 200
            })
        }
    }

    @Test func aTokenFileGuardsEveryRequest() async throws {
        try await DaemonHarness.with(running: Self.events) { daemon in
            let token = "a-long-enough-token-0123456789"
            let path = daemon.directory + "/token"
            try (token + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, 0o600)
            let web = try await WebGatewayHarness.start(for: daemon, arguments: ["--token-file", path])
            #expect(try await web.get("/healthz").status == 401)
            #expect(try await web.get("/healthz", headers: ["Authorization: Bearer nope-nope-nope-nope"]).status == 401)
            #expect(try await web.get("/healthz", headers: ["Authorization: Bearer \(token)"]).status == 200)
            // The page is served to a reload without the token; it keeps the token itself.
            let page = try await web.get("/?token=\(token)")
            #expect(page.status == 200 && page.header("set-cookie") == nil && page.header("location") == nil)
            // The API takes the header only: not a URL, not a cookie.
            #expect(try await web.get("/api/status?token=\(token)").status == 401)
            #expect(try await web.get("/api/status", headers: ["Cookie: eventd_web_token=\(token)"]).status == 401)
            let stream = try await web.stream(query: Self.view, headers: ["Authorization: Bearer \(token)"])
            _ = try await stream.next("snapshot")

            // A world-readable token file is refused at start, with the usage status.
            chmod(path, 0o644)
            let r = try await ChildProcess.run(WebGatewayHarness.executable, ["--listen", "127.0.0.1:1", "--socket", daemon.socketPath,
                                                                              "--token-file", path])
            #expect(r.status == 64)
            #expect(r.stderr.contains("readable by everyone"))
            // So is one another account could write (and so choose the token).
            for mode: mode_t in [0o620, 0o602, 0o660] {
                chmod(path, mode)
                let writable = try await ChildProcess.run(WebGatewayHarness.executable, ["--listen", "127.0.0.1:1", "--socket", daemon.socketPath,
                                                                                         "--token-file", path])
                #expect(writable.status == 64, "\(String(mode, radix: 8))")
                #expect(writable.stderr.contains("writable by others"), "\(writable.stderr)")
            }
            // Not loopback without a token: refused.
            let open = try await ChildProcess.run(WebGatewayHarness.executable, ["--listen", "0.0.0.0:1", "--socket", daemon.socketPath])
            #expect(open.status == 64)
            #expect(open.stderr.contains("needs --token-file"))
        }
    }
}

/// The status code of a one-off `/api/events` request, read as soon as its head comes.
enum EventStreamClientProbe {
    static func status(port: UInt16, query: String, headers: [String]) throws -> Int? {
        let connection = try HTTPConnection(port: port)
        try connection.send("GET /api/events?\(query) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n")
        _ = waitUntil(timeout: 2) { connection.poll(); return connection.status != nil || connection.closedByPeer }
        return connection.status
    }
}

/// eventd-web on a socket systemd passes (`systemd-socket-activate`, as the .socket unit).
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-socket-activate"),
                "systemd-socket-activate is not installed (Debian package systemd)"))
struct GatewaySocketActivationTests {
    @Test func servesThePassedSocket() async throws {
        try await DaemonHarness.with(running: GatewayEndToEndTests.events) { daemon in
            let port = try WebGatewayHarness.freePort()
            let log = daemon.directory + "/activated-web.log"
            let runtime = daemon.directory + "/activated-runtime"
            // --listen names another port: the passed socket and its address win.
            _ = try daemon.spawnOther("/usr/bin/systemd-socket-activate",
                                      ["-l", "127.0.0.1:\(port)", "-E", "RUNTIME_DIRECTORY=\(runtime)", WebGatewayHarness.executable, "--socket", daemon.socketPath,
                                       "--listen", "127.0.0.1:1"],
                                      environment: ChildProcess.isolatedEnvironment(), output: log)
            // The first connection starts eventd-web, which makes its token then: 401.
            var first: HTTPConnection?
            _ = try await eventually(timeout: 10, every: 0.05) {
                first = try? await HTTPConnection.get(port: port, "/healthz", timeout: 5)
                return first != nil
            }
            #expect(first?.status == 401)
            let token = try String(contentsOfFile: runtime + "/token", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            let health = try? await HTTPConnection.get(port: port, "/healthz", headers: ["Authorization: Bearer \(token)"], timeout: 5)
            #expect(health?.status == 200, "\(health?.text ?? "no answer"); log: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            let log2 = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            #expect(log2.contains("listening on 127.0.0.1:\(port) (the socket systemd passed)"), "\(log2)")
            // The Host check follows the passed socket's address, not --listen's.
            #expect(try await HTTPConnection.get(port: port, "/healthz", host: "127.0.0.1:1").status == 403)
        }
    }
}
