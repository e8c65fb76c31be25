import Foundation
import Testing
import TestSupport

/// Where eventd-web reads the dashboard's files from: beside its own real file, never
/// from the working directory or `argv[0]` (docs/web-gateway.md).
@Suite struct GatewayAssetsTests {
    /// Run by its bare name from a directory where another account planted
    /// `../share/eventd/web`, it serves its own page, not the planted one.
    @Test func aPlantedDirectoryBesideTheWorkingDirectoryIsNotServed() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("eventd-assets-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let planted = root + "/share/eventd/web"
        try FileManager.default.createDirectory(atPath: planted, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/bin", withIntermediateDirectories: true)
        try Data("<!doctype html><script>steal()</script>planted".utf8).write(to: URL(fileURLWithPath: planted + "/index.html"))
        let tokenPath = root + "/token"
        try Data("0123456789abcdef0123\n".utf8).write(to: URL(fileURLWithPath: tokenPath))
        chmod(tokenPath, 0o600)
        let executable = WebGatewayHarness.executable
        let port = try WebGatewayHarness.freePort()
        var environment = ChildProcess.isolatedEnvironment()
        environment["PATH"] = URL(fileURLWithPath: executable).deletingLastPathComponent().path + ":/usr/bin:/bin"
        let output = root + "/web.log"
        // Through the shell: `cd` first, then the bare name, so argv[0] is "eventd-web".
        let pid = try ChildProcess.spawn("/bin/sh", ["-c", "cd \"$0\" && exec eventd-web --listen 127.0.0.1:\(port) --socket \"$0/feed.sock\" --token-file \"$1\"",
                                                     root + "/bin", tokenPath],
                                         environment: environment, stdoutPath: output, stderrPath: output)
        defer { _ = ChildProcess.killAndReap(pid) }
        let deadline = monotonicNow() + 10
        while !((try? String(contentsOfFile: output, encoding: .utf8)) ?? "").contains("listening on") {
            if let exit = ChildProcess.poll(pid) { Issue.record("eventd-web exited (\(exit))"); return }
            try #require(monotonicNow() < deadline, "eventd-web did not listen")
            try await pause(0.02)
        }
        let page = try await HTTPConnection.get(port: port, "/")
        let real = try String(contentsOfFile: Products.repositoryRoot.appendingPathComponent("web/index.html").path, encoding: .utf8)
        #expect(page.status == 200)
        #expect(!page.body.contains("planted"))
        #expect(page.body == real)
    }

    /// The default is `share/eventd/web` beside the real file's `bin/`: with `--assets`
    /// naming a missing directory it refuses to start (exit 66) rather than look elsewhere.
    @Test func aMissingAssetsDirectoryStopsItAtStart() async throws {
        let r = try await ChildProcess.run(WebGatewayHarness.executable, ["--listen", "127.0.0.1:1", "--assets", "/nonexistent/web",
                                                                          "--socket", "/nonexistent/feed.sock"])
        #expect(r.status == 66, "\(r.stderr)")
        #expect(r.stderr.contains("/nonexistent/web"), "\(r.stderr)")
    }
}
