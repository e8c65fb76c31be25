import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real system account made for one test (`useradd --system`, no home, no shell) and
/// removed after it; commands run as it through util-linux's `setpriv` (its own group,
/// no supplementary groups). Needs root, as CI runs.
public struct LocalUser: Sendable {
    /// Whether this process may make users and switch to them.
    public static var isPossible: Bool {
        getuid() == 0 && ["/usr/bin/setpriv", "/usr/sbin/useradd", "/usr/sbin/userdel"].allSatisfy {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// The account's name (`eventd-test-XXXX`).
    public let name: String
    /// Its uid (also its gid: `useradd` makes a group of the same name).
    public let uid: UInt32
    /// Its group's id.
    public let gid: UInt32

    /// Makes a user, runs `body`, and removes the user whatever happens.
    public static func with<T>(_ body: (LocalUser) async throws -> T) async throws -> T {
        let name = "eventd-test-" + String(UInt16.random(in: 0...UInt16.max), radix: 16)
        let made = try await ChildProcess.run("/usr/sbin/useradd", ["--system", "--no-create-home", "--user-group",
                                                                    "--shell", "/usr/sbin/nologin", name])
        guard made.succeeded, let entry = getpwnam(name) else { throw HarnessError("useradd \(name): \(made.stderr)") }
        let user = LocalUser(name: name, uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid)
        do {
            let result = try await body(user)
            _ = try? await ChildProcess.run("/usr/sbin/userdel", [name])
            return result
        } catch {
            _ = try? await ChildProcess.run("/usr/sbin/userdel", [name])
            throw error
        }
    }

    /// Runs `executable arguments` as this user, from `/`.
    public func run(_ executable: String, _ arguments: [String], timeout: Double = 15) async throws -> ProcessResult {
        try await ChildProcess.run("/usr/bin/setpriv", ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--", executable] + arguments,
                                   environment: ChildProcess.isolatedEnvironment(), workingDirectory: "/", timeout: timeout)
    }
}
