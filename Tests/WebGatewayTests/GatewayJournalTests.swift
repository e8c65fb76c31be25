import Foundation
import Testing
import TestSupport

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
