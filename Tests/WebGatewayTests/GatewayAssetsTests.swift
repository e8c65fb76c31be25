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

/// Issue 52, point 11: the journal (which the adm group reads) never gets the token.
@Suite struct GatewayJournalTests {
    @Test func theAddressInTheJournalHasNoToken() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("eventd-journal-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: root) }
        for journal in [false, true] {
            let output = root + "/out-\(journal)"
            FileManager.default.createFile(atPath: output, contents: nil)
            var st = stat()
            try #require(stat(output, &st) == 0)
            var environment = ChildProcess.isolatedEnvironment(["RUNTIME_DIRECTORY": root + "/runtime"])
            // As systemd says where the journal stream is: the device and inode of stdout.
            if journal { environment["JOURNAL_STREAM"] = "\(st.st_dev):\(st.st_ino)" }
            let port = try WebGatewayHarness.freePort()
            let pid = try ChildProcess.spawn(WebGatewayHarness.executable, ["--listen", "127.0.0.1:\(port)", "--socket", root + "/feed.sock"],
                                             environment: environment, stdoutPath: output, stderrPath: output + ".err")
            defer { _ = ChildProcess.killAndReap(pid) }
            let deadline = monotonicNow() + 10
            var text = ""
            while !text.contains("token file: "), monotonicNow() < deadline {
                try await pause(0.02)
                text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            }
            let token = try String(contentsOfFile: root + "/runtime/token", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(token.count == 64)
            #expect(text.contains("token file: "), "\(text)")
            #expect(text.contains(token) == !journal, "journal \(journal): \(text)")
            if journal { #expect(text.contains("?token=$(cat "), "\(text)") }
        }
    }
}
