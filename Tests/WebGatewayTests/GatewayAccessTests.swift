import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 35, point 1, against the real binaries: a default eventd-web lets in only whoever
/// can read its token; the page is served to anyone, the data only with the header;
/// `--no-auth` only on a Unix socket, whose mode eventd-web sets itself.
@Suite struct GatewayAccessTests {
    @Test(.enabled(if: LocalUser.isPossible, "needs root, setpriv and useradd"))
    func anotherLocalUserGets403FromADefaultGatewayEvenWithTheToken() async throws {
        try await DaemonHarness.with(running: GatewayEndToEndTests.events) { daemon in
            // As a user without systemd would run it: the token in $XDG_RUNTIME_DIR/eventd-web.
            let runtime = try makeTemporaryDirectory("web-xdg")
            defer { try? FileManager.default.removeItem(atPath: runtime) }
            chmod(runtime, 0o755)
            let web = try await WebGatewayHarness.start(for: daemon, environment: ["RUNTIME_DIRECTORY": "", "XDG_RUNTIME_DIR": runtime])
            let file = runtime + "/eventd-web/token"
            var st = stat()
            #expect(stat(file, &st) == 0 && st.st_mode & 0o7777 == 0o600 && st.st_uid == getuid())
            #expect(stat(runtime + "/eventd-web", &st) == 0 && st.st_mode & 0o7777 == 0o700)
            let token = try #require(web.token)
            #expect(try String(contentsOfFile: file, encoding: .utf8).contains(token))
            #expect(try await web.get("/api/snapshot?days=30").status == 200)

            try await LocalUser.with { other in
                // Another account is refused (403) whatever it sends: no token, or the
                // user's own token (issue 52: one that leaked works for no one else).
                for target in ["/api/snapshot?days=30", "/api/events?days=1", "/api/status", "/"] {
                    let url = "http://127.0.0.1:\(web.port)\(target)"
                    let asked = try await other.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", url])
                    #expect(asked.stdout == "403", "\(target): \(asked.stdout) \(asked.stderr)")
                    let withToken = try await other.run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}",
                                                                          "-H", "Authorization: Bearer \(token)", url])
                    #expect(withToken.stdout == "403", "\(target) with the token: \(withToken.stdout) \(withToken.stderr)")
                }
                let read = try await other.run("/bin/cat", [file])
                #expect(!read.succeeded && !read.stdout.contains(token))
            }
        }
    }

    @Test func thePageIsServedAndTheDataNeedsTheHeader() async throws {
        try await DaemonHarness.with(running: GatewayEndToEndTests.events) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon)
            let token = try #require(web.token)
            #expect(token.count == 64)
            // The page and its files, with or without ?token=: no redirect, no cookie.
            for target in ["/?days=3&token=\(token)&tz=UTC", "/", "/app.js", "/feed.js"] {
                let page = try await HTTPConnection.get(port: web.port, target)
                #expect(page.status == 200 && page.header("set-cookie") == nil && page.header("location") == nil, "\(target)")
                #expect(!page.body.contains(token))
            }
            // The data: with the header only.
            for target in ["/api/status", "/api/snapshot?days=3", "/healthz"] {
                #expect(try await web.get(target).status == 200, "\(target)")
                #expect(try await HTTPConnection.get(port: web.port, target).status == 401, "\(target) without the token")
                #expect(try await HTTPConnection.get(port: web.port, target, headers: ["Cookie: eventd_web_token=\(token)"]).status == 401,
                        "\(target) with the old cookie")
            }
            _ = try await web.stream(query: GatewayEndToEndTests.view).next("snapshot")
            #expect(try EventStreamClientProbe.status(port: web.port, query: GatewayEndToEndTests.view, headers: []) == 401)
        }
    }

    /// Issue 43, point 8: another account that can reach eventd's socket fills its
    /// `--max-clients` with idle connections; eventd's own user (its gateway, eventctl)
    /// still gets in through the reserved slots, so `/healthz` stays 200.
    @Test(.enabled(if: LocalUser.isPossible, "needs root, setpriv and useradd"))
    func anotherAccountHoldingEveryConnectionDoesNotTakeTheWebDown() async throws {
        try await DaemonHarness.with(running: GatewayEndToEndTests.events, arguments: ["--max-clients", "24"]) { daemon in
            let web = try await WebGatewayHarness.start(for: daemon)
            #expect(try await web.get("/healthz").status == 200)
            chmod(daemon.directory, 0o755)
            chmod(daemon.socketPath, 0o666)
            try await LocalUser.with { other in
                let holder = """
                    import socket, sys, time
                    held, refused = [], 0
                    for _ in range(int(sys.argv[2])):
                        s = socket.socket(socket.AF_UNIX)
                        s.connect(sys.argv[1])
                        refused += '"overloaded"' in s.makefile().readline()
                        held.append(s)
                    print("held", len(held) - refused, "refused", refused, flush=True)
                    time.sleep(60)
                    """
                let output = daemon.directory + "/holder.out"
                let pid = try daemon.spawnOther("/usr/bin/setpriv", ["--reuid=\(other.uid)", "--regid=\(other.gid)", "--clear-groups", "--",
                                                                     "/usr/bin/python3", "-c", holder, daemon.socketPath, "30"],
                                                environment: ChildProcess.isolatedEnvironment(), output: output)
                defer { kill(pid, SIGKILL); _ = waitpid(pid, nil, 0) }
                let held = try await eventually(timeout: 20) {
                    ((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").contains("held")
                }
                let said = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
                #expect(held, "\(said)")
                // The other account got what --max-clients allows (eventd-web's own idle
                // connections count too), and no more.
                let counts = said.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
                #expect(counts.count == 2 && counts[0] <= 24 && counts[1] >= 6, "\(said)")
                for _ in 0..<3 {
                    #expect(try await web.get("/healthz").status == 200)
                    #expect(try await web.get("/api/snapshot?days=3").status == 200)
                }
            }
        }
    }

    @Test func noAuthOnlyOnAUnixSocketWhoseModeIsSetNotUmasked() async throws {
        try await DaemonHarness.with(running: GatewayEndToEndTests.events) { daemon in
            let refused = try await ChildProcess.run(WebGatewayHarness.executable, ["--listen", "127.0.0.1:1", "--no-auth",
                                                                                    "--socket", daemon.socketPath])
            #expect(refused.status == 64)
            #expect(refused.stderr.contains("--no-auth needs --listen unix:PATH"))
            for umask in ["0000", "0077", "0777"] {
                let path = daemon.directory + "/web-\(umask).sock"
                let log = daemon.directory + "/web-\(umask).log"
                let command = "umask \(umask); exec \(WebGatewayHarness.executable) --listen unix:\(path) --no-auth --socket \(daemon.socketPath)"
                let pid = try daemon.spawnOther("/bin/sh", ["-c", command], environment: ChildProcess.isolatedEnvironment(), output: log)
                _ = try await eventually(timeout: 10, every: 0.05) {
                    ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("listening on")
                }
                var st = stat()
                #expect(stat(path, &st) == 0 && st.st_mode & 0o7777 == 0o660, "umask \(umask): \(String(st.st_mode & 0o7777, radix: 8))")
                kill(pid, SIGTERM)
                _ = try await daemon.waitOther(pid, timeout: 5)
            }
        }
    }
}
