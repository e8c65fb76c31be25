import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Two real local users (uids with no account, switched to with util-linux's `setpriv`,
/// which needs root: CI runs as root): one squats the other's `/tmp/eventd-$UID`, or
/// serves a socket of its own where the other's eventctl looks.
extension HostileInputTests.DirectorySquatting {
    static let canSwitchUsers = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

    /// eventd and eventctl copied into a new directory where any uid can run them (the
    /// build directory may be inside a private home).
    static func publicBinaries() throws -> (directory: String, eventd: String, eventctl: String) {
        let directory = try makeTemporaryDirectory("squat-bin")
        let copies = (directory: directory, eventd: directory + "/eventd", eventctl: directory + "/eventctl")
        for (from, to) in [(DaemonHarness.eventd, copies.eventd), (DaemonHarness.eventctl, copies.eventctl)] {
            try FileManager.default.copyItem(atPath: from, toPath: to)
            chmod(to, 0o755)
        }
        chmod(directory, 0o755)
        return copies
    }

    /// `executable arguments` as `uid` (its own group, no supplementary groups).
    static func asUser(_ uid: UInt32, _ executable: String, _ arguments: [String]) -> (String, [String]) {
        ("/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "--", executable] + arguments)
    }

    static func run(as uid: UInt32, _ executable: String, _ arguments: [String],
                    environment: [String: String]) async throws -> ProcessResult {
        let (program, args) = asUser(uid, executable, arguments)
        return try await ChildProcess.run(program, args, environment: environment, workingDirectory: "/", timeout: 15)
    }

    /// The environment of a user without logind: no `XDG_RUNTIME_DIR`, so the socket
    /// goes to `/tmp/eventd-$UID` (docs/data-model.md).
    static func noLogindEnvironment(home: String) -> [String: String] {
        var env = ChildProcess.isolatedEnvironment(["HOME": home, "EVENTD_FAKE_NOW": DaemonHarness.defaultNow])
        for key in ["XDG_RUNTIME_DIR", "XDG_STATE_HOME"] { env[key] = nil }
        return env
    }

    @Test(.enabled(if: canSwitchUsers))
    func anotherUserSquatsTheTmpDirectory() async throws {
        let binaries = try Self.publicBinaries()
        let home = try makeTemporaryDirectory("squat-victim")
        let directory = "/tmp/eventd-\(Self.victim)"
        try? FileManager.default.removeItem(atPath: directory)
        defer {
            for path in [binaries.directory, home, directory] { try? FileManager.default.removeItem(atPath: path) }
        }
        chown(home, Self.victim, Self.victim)
        let env = Self.noLogindEnvironment(home: home)

        // The squatter makes the victim's directory first, as any local user can.
        let squat = try await Self.run(as: Self.squatter, "/bin/mkdir", ["-m", "0777", directory], environment: env)
        #expect(squat.succeeded, "\(squat.stderr)")
        let eventd = try await Self.run(as: Self.victim, binaries.eventd, ["--tz", "UTC"], environment: env)
        Self.expectRefusal(eventd, status: 74, path: directory, says: "belongs to uid \(Self.squatter)", "the victim's eventd")
        #expect(!FileManager.default.fileExists(atPath: directory + "/feed.sock"))
        let status = try await Self.run(as: Self.victim, binaries.eventctl, ["status"], environment: env)
        Self.expectRefusal(status, status: 69, path: directory, says: "belongs to uid \(Self.squatter)", "the victim's eventctl status")

        // Without the squatter: the victim's own private directory, which the squatter
        // cannot even look into.
        try FileManager.default.removeItem(atPath: directory)
        let (program, args) = Self.asUser(Self.victim, binaries.eventd, ["--tz", "UTC"])
        let log = home + "/eventd.log"
        let pid = try ChildProcess.spawn(program, args, environment: env, stdoutPath: log, stderrPath: log, workingDirectory: "/")
        defer { kill(pid, SIGTERM); _ = ChildProcess.waitBlocking(pid, timeout: 5) }
        var own: ProcessResult?
        _ = try await eventually(timeout: 10, every: 0.1) {
            own = try await Self.run(as: Self.victim, binaries.eventctl, ["status"], environment: env)
            return own?.succeeded == true
        }
        #expect(own?.succeeded == true, "the victim's eventctl status: \(own?.stderr ?? "") \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        var st = stat()
        #expect(lstat(directory, &st) == 0 && st.st_uid == Self.victim && st.st_mode & 0o7777 == 0o700,
                "\(directory): uid \(st.st_uid) mode \(String(st.st_mode & 0o7777, radix: 8))")
        let peek = try await Self.run(as: Self.squatter, binaries.eventctl, ["--socket", directory + "/feed.sock", "status"], environment: env)
        #expect(peek.exit == .exited(69), "the squatter reached the victim's socket: \(peek.exit) \(peek.stdout)")
        Hostile.report("anotherUserSquatsTheTmpDirectory", ["victim": Self.victim, "squatter": Self.squatter,
                                                             "eventd": "\(eventd.exit)", "eventctl": "\(status.exit)",
                                                             "message": eventd.stderr.trimmingCharacters(in: .newlines)])
    }

    /// A socket in a shared sticky directory (as `/tmp` is), served by another uid's
    /// eventd: the directory passes, the peer's uid (`SO_PEERCRED`) does not.
    @Test(.enabled(if: canSwitchUsers))
    func aSocketServedByAnotherUidIsRefused() async throws {
        let binaries = try Self.publicBinaries()
        let shared = try makeTemporaryDirectory("squat-shared")
        defer { for path in [binaries.directory, shared] { try? FileManager.default.removeItem(atPath: path) } }
        chmod(shared, 0o1777)
        let impostorHome = shared + "/impostor"
        try Self.makeDirectory(impostorHome, mode: 0o700, owner: Self.squatter)
        let socket = shared + "/feed.sock"
        let env = Self.noLogindEnvironment(home: impostorHome)
        let (program, args) = Self.asUser(Self.squatter, binaries.eventd,
                                          ["--socket", socket, "--db", impostorHome + "/events.db", "--tz", "UTC"])
        let log = shared + "/impostor.log"
        let pid = try ChildProcess.spawn(program, args, environment: env, stdoutPath: log, stderrPath: log, workingDirectory: "/")
        defer { kill(pid, SIGTERM); _ = ChildProcess.waitBlocking(pid, timeout: 5) }
        let listening = try await eventually(timeout: 10) { FileManager.default.fileExists(atPath: socket) }
        #expect(listening, "the impostor did not start: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")

        let says = "served by uid \(Self.squatter)"
        for command in [["status"], ["subscribe", "--days", "1"]] {
            let run = try await ChildProcess.run(binaries.eventctl, ["--socket", socket] + command, environment: env, timeout: 10)
            Self.expectRefusal(run, status: 69, path: socket, says: says, "eventctl \(command[0])")
        }
        let ics = try Self.writeTeamCalendar(in: shared)
        let imported = try await ChildProcess.run(binaries.eventctl, ["--socket", socket, "--db", shared + "/mine.db", "import", ics],
                                                  environment: env, timeout: 10)
        #expect(imported.succeeded && imported.stderr.contains(says), "import: \(imported.exit) \(imported.stderr)")
        Hostile.report("aSocketServedByAnotherUidIsRefused", ["impostor": Self.squatter])
    }
}
