import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Someone else's directory where eventd would put its socket or database
/// (docs/data-model.md): eventd refuses it (74), eventctl's daemon commands refuse it (69), and
/// eventctl refuses to talk to a socket served by another uid (`SO_PEERCRED`).
extension HostileInputTests {
    @Suite struct DirectorySquatting {
        /// A uid no account uses (nothing owns files as it here), different per run.
        static let squatter = UInt32(61_000 + Int(getpid() % 1000))
        static let victim = squatter + 1000

        /// One way to prepare `$XDG_RUNTIME_DIR/eventd` (or the state directory) before
        /// eventd or eventctl looks at it, and what the refusal must say.
        struct Squat: CustomStringConvertible, Sendable {
            var name: String
            var says: String
            var prepare: @Sendable (String) throws -> Void
            var description: String { name }
        }

        static let squats: [Squat] = [
            Squat(name: "another uid's, mode 0777", says: "belongs to uid \(squatter)") { path in
                try makeDirectory(path, mode: 0o777, owner: squatter)
            },
            Squat(name: "another uid's, mode 0700", says: "belongs to uid \(squatter)") { path in
                try makeDirectory(path, mode: 0o700, owner: squatter)
            },
            Squat(name: "ours, mode 0777", says: "has mode 0777") { path in
                try makeDirectory(path, mode: 0o777, owner: getuid())
            },
            Squat(name: "ours, mode 0750", says: "has mode 0750") { path in
                try makeDirectory(path, mode: 0o750, owner: getuid())
            },
            Squat(name: "a symlink to a private directory", says: "symbolic link") { path in
                let target = path + "-target"
                try makeDirectory(target, mode: 0o700, owner: getuid())
                guard symlink(target, path) == 0 else { throw HarnessError("symlink: \(errno)") }
            },
            Squat(name: "a regular file", says: "not a directory") { path in
                guard FileManager.default.createFile(atPath: path, contents: Data()) else { throw HarnessError("create \(path)") }
            },
        ]

        static func makeDirectory(_ path: String, mode: mode_t, owner: UInt32) throws {
            guard mkdir(path, 0o700) == 0, chmod(path, mode) == 0, chown(path, owner, owner) == 0 else {
                throw HarnessError("cannot prepare \(path): \(String(cString: strerror(errno)))")
            }
        }

        /// A scratch home: `runtime` ($XDG_RUNTIME_DIR) and `state` ($XDG_STATE_HOME), both 0700.
        struct Home {
            let root: String
            var runtime: String { root + "/runtime" }
            var state: String { root + "/state" }
            init() throws {
                root = try makeTemporaryDirectory("squat")
                for dir in [runtime, state] { try makeDirectory(dir, mode: 0o700, owner: getuid()) }
            }
            var environment: [String: String] {
                ChildProcess.isolatedEnvironment(["XDG_RUNTIME_DIR": runtime, "XDG_STATE_HOME": state,
                                                  "EVENTD_FAKE_NOW": DaemonHarness.defaultNow])
            }
            func remove() { try? FileManager.default.removeItem(atPath: root) }

            /// eventctl with `arguments`, in this home.
            func eventctl(_ arguments: [String]) async throws -> ProcessResult {
                try await ChildProcess.run(DaemonHarness.eventctl, arguments, environment: environment, timeout: 10)
            }

            /// `squat` prepares `directory`, then eventd starts here: it must refuse (74).
            func expectEventdRefuses(_ squat: Squat, directory: String) async throws -> ProcessResult {
                try squat.prepare(directory)
                let eventd = try await ChildProcess.run(DaemonHarness.eventd, ["--tz", "UTC"], environment: environment, timeout: 10)
                DirectorySquatting.expectRefusal(eventd, status: 74, path: directory, says: squat.says, "eventd, \(squat)")
                return eventd
            }
        }

        /// A calendar of one event, written to `team.ics` in `directory`; its path.
        static func writeTeamCalendar(in directory: String) throws -> String {
            let ics = directory + "/team.ics"
            try icsCalendar([TestEvent("a", "20261130T090000Z", nil, "A")]).write(toFile: ics, atomically: true, encoding: .utf8)
            return ics
        }

        /// A refusal: the exit status, and one line on standard error that names the
        /// directory and what is wrong with it.
        static func expectRefusal(_ result: ProcessResult, status: Int32, path: String, says: String, _ what: String) {
            #expect(result.exit == .exited(status), "\(what): \(result.exit): \(result.stderr)")
            let lines = result.stderrLines
            #expect(lines.count == 1, "\(what): not one line: \(result.stderr)")
            #expect(result.stderr.contains(path) && result.stderr.contains(says), "\(what): unclear: \(result.stderr)")
        }

        @Test(arguments: squats)
        func aSquattedSocketDirectoryIsRefused(_ squat: Squat) async throws {
            let home = try Home()
            defer { home.remove() }
            let directory = home.runtime + "/eventd"
            let eventd = try await home.expectEventdRefuses(squat, directory: directory)
            #expect(!FileManager.default.fileExists(atPath: directory + "/feed.sock"), "eventd bound a socket in \(squat)")
            for command in [["status"], ["subscribe", "--days", "1"]] {
                let run = try await home.eventctl(command)
                Self.expectRefusal(run, status: 69, path: directory, says: squat.says, "eventctl \(command[0]), \(squat)")
            }
            // import succeeds (the calendar is stored) but does not talk to the socket.
            let imported = try await home.eventctl(["import", try Self.writeTeamCalendar(in: home.root)])
            #expect(imported.succeeded, "import, \(squat): \(imported.stderr)")
            #expect(imported.stderr.contains("did not ask the daemon to refresh") && imported.stderr.contains(squat.says),
                    "import, \(squat): \(imported.stderr)")
            Hostile.report("aSquattedSocketDirectoryIsRefused(\(squat))", ["eventd": "\(eventd.exit)", "message": eventd.stderr.trimmingCharacters(in: .newlines)])
        }

        @Test(arguments: squats.prefix(4))
        func aSquattedDatabaseDirectoryIsRefused(_ squat: Squat) async throws {
            let home = try Home()
            defer { home.remove() }
            let directory = home.state + "/eventd"
            _ = try await home.expectEventdRefuses(squat, directory: directory)
            let imported = try await home.eventctl(["import", try Self.writeTeamCalendar(in: home.root)])
            Self.expectRefusal(imported, status: 74, path: directory, says: squat.says, "eventctl import, \(squat)")
            #expect(!FileManager.default.fileExists(atPath: directory + "/events.db"), "a database was made in \(squat)")
        }

        /// Missing directories are made private (0700), and then everything works.
        @Test func missingDirectoriesAreMadePrivate() async throws {
            let home = try Home()
            defer { home.remove() }
            let env = home.environment
            let imported = try await home.eventctl(["import", try Self.writeTeamCalendar(in: home.root)])
            #expect(imported.succeeded && imported.stderr.isEmpty, "\(imported.stderr)")
            let daemon = DaemonHarness(directory: home.root, db: home.state + "/eventd/events.db",
                                       socket: home.runtime + "/eventd/feed.sock", log: home.root + "/eventd.log")
            let pid = try daemon.spawnOther(DaemonHarness.eventd, ["--tz", "UTC"], environment: env, output: daemon.logPath)
            defer { kill(pid, SIGTERM); _ = ChildProcess.waitBlocking(pid, timeout: 5) }
            var status: ProcessResult?
            _ = try await eventually(timeout: 10, every: 0.1) {
                status = try await home.eventctl(["status"])
                return status?.succeeded == true
            }
            #expect(status?.stdout.contains("1 events") == true, "status: \(status?.stdout ?? "none") \(status?.stderr ?? "") \(daemon.log)")
            for dir in [home.state + "/eventd", home.runtime + "/eventd"] {
                var st = stat()
                #expect(lstat(dir, &st) == 0 && st.st_mode & 0o777 == 0o700 && st.st_uid == getuid(), "\(dir): mode \(String(st.st_mode & 0o777, radix: 8))")
            }
        }
    }
}
