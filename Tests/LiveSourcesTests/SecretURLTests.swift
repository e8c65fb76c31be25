import Foundation
import Testing
import TestSupport

/// Issue 52, points 6 and 7: a URL's secrets stay out of the process list (`source add -`,
/// `--url-file`) and out of the source's name.
@Suite struct SecretURLTests {
    static let secret = "k2nMr3D5c5k4kLPF"
    static let password = "pw-s3cretpass"

    @Test func aURLFromStandardInputOrAFileKeepsItsSecrets() async throws {
        let server = try LocalHTTPServer()
        try server.serve(Self.secret, Fixture.calendar(2))
        let url = server.url("/files/\(Self.secret)?export").replacingOccurrences(of: "://", with: "://me:\(Self.password)@")
        try await DaemonHarness.with { daemon in
            let piped = try await ChildProcess.run(DaemonHarness.eventctl,
                                                   ["--db", daemon.dbPath, "--socket", daemon.socketPath, "source", "add", "-", "--calendar", "pw"],
                                                   environment: daemon.daemonEnvironment(), directory: daemon.directory,
                                                   stdin: Array("\(url)\n".utf8))
            #expect(piped.status == 0, "\(piped.stderr)")
            let file = daemon.directory + "/url"
            try Data("\(url)\n".utf8).write(to: URL(fileURLWithPath: file))
            let fromFile = try await daemon.eventctl(["source", "add", "--url-file", file])
            #expect(fromFile.status == 0, "\(fromFile.stderr)")
            let list = try await daemon.eventctl(["source", "list"])
            #expect(list.stdout.contains("pw") && list.stdout.contains("files"), "\(list.stdout)")
            for output in [piped.stdout, piped.stderr, fromFile.stdout, fromFile.stderr, list.stdout, list.stderr] {
                #expect(!output.contains(Self.password) && !output.contains(Self.secret), "\(output)")
            }
            // Usage: --url-file with a target, or nothing on standard input.
            #expect(try await daemon.eventctl(["source", "add", "x", "--url-file", file]).status == 64)
            let empty = try await ChildProcess.run(DaemonHarness.eventctl, ["--db", daemon.dbPath, "source", "add", "-"],
                                                   environment: daemon.daemonEnvironment(), directory: daemon.directory, stdin: [])
            #expect(empty.status == 64, "\(empty.stderr)")
        }
    }
}
