import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 35, point 5, against the real binaries: no answer, event or log line shows the
/// socket's path, a squatter's name or the token, at any log level (the harness runs
/// eventd-web at debug).
@Suite struct GatewayLeakTests {
    /// `/healthz`, `/api/status` and a stream's `offline` event while eventd cannot be reached.
    static func answersWhileEventdIsAway(_ web: WebGatewayHarness) async throws -> [String] {
        let health = try await web.get("/healthz")
        let status = try await web.get("/api/status")
        #expect(health.status == 503 && status.status == 503)
        let stream = try await web.stream(query: GatewayEndToEndTests.view)
        let offline = try await stream.waitForEnd().filter { $0.event == "offline" }
        #expect(offline.count == 1)
        return [health.text, status.text, stream.connection.text]
    }

    @Test func eventdAwayShowsNoPath() async throws {
        try await DaemonHarness.with(running: GatewayEndToEndTests.events) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon)
            _ = await daemon.stop()
            for answer in try await Self.answersWhileEventdIsAway(web) {
                #expect(!answer.contains(daemon.directory) && !answer.contains("feed.sock"), "\(answer)")
                #expect(answer.contains("eventd is unavailable"), "\(answer)")
            }
            // The one line that names a path on purpose: where the token is, printed at
            // start for the user (the runtime directory, which the harness puts in its own).
            let log = web.log.split(separator: "\n").filter { !$0.hasPrefix("token file: ") }.joined(separator: "\n")
            #expect(!log.contains(daemon.directory) && !log.contains("feed.sock"), "\(web.log)")
            #expect(log.contains("eventd is unavailable"), "\(web.log)")
        }
    }

    @Test(.enabled(if: LocalUser.isPossible, "needs root, setpriv and useradd"))
    func aSquattedDirectoryShowsNeitherPathNorUser() async throws {
        try await DaemonHarness.with(running: GatewayEndToEndTests.events) { daemon in
            try await LocalUser.with { squatter in
                let directory = try makeTemporaryDirectory("web-squat")
                defer { try? FileManager.default.removeItem(atPath: directory) }
                chown(directory, squatter.uid, squatter.gid)
                chmod(directory, 0o777)
                let web = try await WebGatewayHarness.start(for: daemon, arguments: ["--socket", directory + "/feed.sock"])
                for answer in try await Self.answersWhileEventdIsAway(web) {
                    #expect(!answer.contains(directory) && !answer.contains(squatter.name) && !answer.contains("uid"), "\(answer)")
                }
                #expect(!web.log.contains(directory) && !web.log.contains(squatter.name), "\(web.log)")
            }
        }
    }

    @Test func theDebugLogNeverShowsTheToken() async throws {
        try await DaemonHarness.with(running: GatewayEndToEndTests.events) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon)   // --log-level debug
            let token = try #require(web.token)
            let bearer = ["Authorization: Bearer \(token)"]
            #expect(try await HTTPConnection.get(port: web.port, "/?days=3&token=\(token)").status == 200)
            #expect(try await HTTPConnection.get(port: web.port, "/app.js?token=\(token)").status == 200)
            #expect(try await HTTPConnection.get(port: web.port, "/nope?token=\(token)").status == 404)
            #expect(try await HTTPConnection.get(port: web.port, "/\(token)").status == 404)
            #expect(try await HTTPConnection.get(port: web.port, "/api/status?token=\(token)").status == 401)
            #expect(try await HTTPConnection.get(port: web.port, "/api/snapshot?\(token)=1", headers: bearer).status == 400)
            #expect(try await HTTPConnection.get(port: web.port, "/api/snapshot?days=x&token=\(token)", headers: bearer).status == 400)
            #expect(try await web.get("/api/snapshot?days=3&token=\(token)").status == 200)
            _ = try await web.stream(query: GatewayEndToEndTests.view + "&token=\(token)").next("snapshot")
            _ = try await web.stream(query: GatewayEndToEndTests.view, headers: bearer).next("snapshot")
            try await pause(0.2)
            // Standard output (the one `dashboard:` line) and the debug log share the file.
            let lines = web.log.split(separator: "\n").filter { $0.contains(token) }
            #expect(lines.count == 1 && lines.first?.hasPrefix("dashboard: ") == true, "\(lines)")
            #expect(web.log.contains("token=REDACTED"), "the stream's target is logged, redacted")
        }
    }

    @Test func twoContentLengthsAre400AndQueryErrorsEchoNoControlBytes() async throws {
        try await DaemonHarness.with(running: GatewayEndToEndTests.events) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon)
            let twice = try await web.get("/healthz", headers: ["Content-Length: 0", "Content-Length: 0"])
            #expect(twice.status == 400 && twice.body.contains("more than one Content-Length"))
            #expect(try await web.get("/healthz", headers: ["Content-Length: 0"]).status == 200)
            // %1B[31m and a forged line in a name, %07 in a value: quoted, not sent raw.
            for target in ["/api/snapshot?x%1B%5B31m%0D%0Aforged=1", "/api/events?days=1%07", "/api/snapshot?a%C2%9Bb%5C=1"] {
                let answer = try await web.get(target)
                #expect(answer.status == 400, "\(target)")
                let controls = answer.body.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" || (0x7F..<0xA0).contains($0.value) }
                #expect(controls.isEmpty, "\(target): \(answer.body.debugDescription)")
                #expect(answer.body.contains("\\x"), "\(answer.body.debugDescription)")
            }
            #expect(!web.log.contains("\u{1B}") && !web.log.contains("\u{07}"))
        }
    }
}
