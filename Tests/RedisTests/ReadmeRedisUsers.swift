import Foundation
import TestSupport

/// A redis-server with README's two users of "Many hosts" (`ACL SETUSER`, each limited
/// to the commands it uses) and their password files: a test that runs eventd and
/// eventd-web through them fails when README's lists miss a command.
struct ReadmeRedisUsers {
    /// The server.
    let redis: RedisServerProcess
    /// The directory of `eventd.pw` and `web.pw`.
    let passwords: String

    /// README's `ACL SETUSER` lines, as redis-cli arguments.
    static func acls() throws -> [[String]] {
        let readme = try String(contentsOf: Products.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let prefix = "redis-cli -p 6380 "
        return readme.split(separator: "\n").filter { $0.hasPrefix(prefix + "ACL SETUSER") }.map { line in
            line.dropFirst(prefix.count).split(separator: " ").map { $0.replacingOccurrences(of: "'", with: "") }
        }
    }

    /// Starts redis-server and makes the users and their password files (`remove()` deletes the files).
    static func start() async throws -> ReadmeRedisUsers {
        let redis = try await RedisServerProcess()
        let acls = try acls()
        guard acls.count == 2 else { throw HarnessError("README has \(acls.count) ACL SETUSER lines, not 2") }
        for acl in acls {
            let answer = try await redis.cli(acl)
            guard answer == "OK" else { throw HarnessError("redis-cli \(acl.prefix(3).joined(separator: " ")): \(answer)") }
        }
        let passwords = DatabaseFiles.scratchPath("redis-pw")
        try FileManager.default.createDirectory(atPath: passwords, withIntermediateDirectories: true)
        try "pw1\n".write(toFile: passwords + "/eventd.pw", atomically: true, encoding: .utf8)
        try "pw2\n".write(toFile: passwords + "/web.pw", atomically: true, encoding: .utf8)
        return ReadmeRedisUsers(redis: redis, passwords: passwords)
    }

    /// Deletes the password files.
    func remove() { try? FileManager.default.removeItem(atPath: passwords) }

    /// eventd's options to publish as README's `eventd` user.
    var eventdArguments: [String] { ["--publish", redis.url(user: "eventd"), "--redis-password-file", passwords + "/eventd.pw"] }
    /// eventd-web's options to read as README's `eventd-web` user.
    var gatewayArguments: [String] { ["--upstream", redis.url(user: "eventd-web"), "--redis-password-file", passwords + "/web.pw"] }
}
