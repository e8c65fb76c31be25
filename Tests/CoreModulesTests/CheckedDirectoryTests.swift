import Foundation
import Testing
import RuntimeDirectories
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `DirectoryPolicy` and `CheckedDirectory`: the rules for the socket's and the
/// database's directories (docs/data-model.md), on real directories.
@Suite struct CheckedDirectoryTests {
    let root: String
    let me = getuid()
    static let stranger: UInt32 = 61_999

    init() throws { root = try makeTemporaryDirectory("checked") }

    func make(_ name: String, mode: mode_t, owner: UInt32? = nil) -> String {
        let path = root + "/" + name
        mkdir(path, 0o700)
        chmod(path, mode)
        if let owner { chown(path, owner, owner) }
        return path
    }

    func refusal(_ path: String, _ policy: DirectoryPolicy) -> String? {
        do {
            _ = try CheckedDirectory.open(path, policy: policy, create: false)
            return nil
        } catch let e as UnsafeDirectoryError {
            return e.description
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test func aMissingDirectoryIsMadePrivateWithItsParents() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/a/b/eventd"
        let dir = try #require(try CheckedDirectory.open(path, policy: .privateTo(uid: me), create: true))
        for p in [root + "/a", root + "/a/b", path] {
            var st = stat()
            #expect(lstat(p, &st) == 0 && st.st_mode & 0o777 == 0o700 && st.st_uid == me, "\(p)")
        }
        try dir.verifyStillInPlace()
        #expect(try CheckedDirectory.open(root + "/missing", policy: .privateTo(uid: me), create: false) == nil)
    }

    @Test func privateDirectoriesMustBeOwnedAndClosed() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let policy = DirectoryPolicy.privateTo(uid: me)
        #expect(refusal(make("ok", mode: 0o700), policy) == nil)
        for mode: mode_t in [0o777, 0o750, 0o710, 0o705, 0o701, 0o1777] {
            let reason = refusal(make("m\(String(mode, radix: 8))", mode: mode), policy)
            #expect(reason?.contains("group or others can reach it") == true, "mode \(String(mode, radix: 8)): \(reason ?? "accepted")")
            #expect(reason?.contains("chmod 700") == true)
        }
        if me == 0 {
            let reason = refusal(make("theirs", mode: 0o700, owner: Self.stranger), policy)
            #expect(reason?.contains("belongs to uid \(Self.stranger)") == true, "\(reason ?? "accepted")")
        }
        let target = make("target", mode: 0o700)
        symlink(target, root + "/link")
        #expect(refusal(root + "/link", policy)?.contains("symbolic link") == true)
        FileManager.default.createFile(atPath: root + "/file", contents: Data())
        #expect(refusal(root + "/file", policy)?.contains("not a directory") == true)
    }

    @Test func sharedDirectoriesMayBeReadButNotWrittenByOthers() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let policy = DirectoryPolicy.shared(owners: [me, 0])
        for mode: mode_t in [0o700, 0o755, 0o750, 0o1777, 0o1770] {
            #expect(refusal(make("ok\(String(mode, radix: 8))", mode: mode), policy) == nil, "mode \(String(mode, radix: 8))")
        }
        for mode: mode_t in [0o777, 0o775, 0o757] {
            let reason = refusal(make("w\(String(mode, radix: 8))", mode: mode), policy)
            #expect(reason?.contains("can write to it") == true, "mode \(String(mode, radix: 8)): \(reason ?? "accepted")")
        }
        if me == 0 {
            let reason = refusal(make("theirs", mode: 0o755, owner: Self.stranger), policy)
            #expect(reason?.contains("belongs to uid \(Self.stranger)") == true)
            #expect(refusal(make("service", mode: 0o755, owner: Self.stranger), .shared(owners: [me, 0, Self.stranger])) == nil)
        }
    }

    @Test func aDirectorySwappedAfterTheCheckIsNoticed() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = make("swapped", mode: 0o700)
        let dir = try #require(try CheckedDirectory.open(path, policy: .privateTo(uid: me), create: false))
        try dir.verifyStillInPlace()
        rename(path, root + "/elsewhere")
        _ = make("swapped", mode: 0o700)
        #expect(throws: UnsafeDirectoryError.self) { try dir.verifyStillInPlace() }
    }

    @Test func pathsKnowWhereTheyCameFromAndWhichRulesApply() {
        let service: UInt32 = 990
        let perUser = RuntimePaths.resolve(environment: ["HOME": "/home/a"], uid: 1000)
        #expect(perUser.socket == "/tmp/eventd-1000/feed.sock" && perUser.socketOrigin == .perUser)
        #expect(perUser.databaseOrigin == .perUser)
        #expect(perUser.socketDirectoryPolicy(uid: 1000, systemUID: service) == .privateTo(uid: 1000))
        #expect(perUser.databaseDirectoryPolicy(uid: 1000) == .privateTo(uid: 1000))
        #expect(perUser.trustedPeers(uid: 1000, systemUID: service) == [1000, 0])

        let xdg = RuntimePaths.resolve(environment: ["XDG_RUNTIME_DIR": "/run/user/1000", "XDG_STATE_HOME": "/s"], uid: 1000)
        #expect(xdg.socket == "/run/user/1000/eventd/feed.sock" && xdg.socketOrigin == .perUser)
        #expect(RuntimePaths.directory(of: xdg.socket) == "/run/user/1000/eventd")

        let system = RuntimePaths.resolve(environment: ["EVENTD_SOCKET": "/run/eventd/feed.sock"], uid: 1000)
        #expect(system.socketOrigin == .explicit && system.socketIsSystemService)
        #expect(system.socketDirectoryPolicy(uid: 1000, systemUID: service) == .shared(owners: [1000, 0, service]))
        #expect(system.trustedPeers(uid: 1000, systemUID: service) == [1000, 0, service])

        let chosen = RuntimePaths.resolve(socket: "/srv/x/feed.sock", environment: [:], uid: 1000)
        #expect(chosen.socketDirectoryPolicy(uid: 1000, systemUID: service) == .shared(owners: [1000, 0]))
        #expect(chosen.trustedPeers(uid: 1000, systemUID: service) == [1000, 0])

        let systemd = RuntimePaths.resolve(environment: ["RUNTIME_DIRECTORY": "/run/eventd", "STATE_DIRECTORY": "/var/lib/eventd"], uid: service)
        #expect(systemd.socketOrigin == .systemd && systemd.databaseOrigin == .systemd)
        #expect(systemd.databaseDirectoryPolicy(uid: service) == .shared(owners: [service, 0]))
        #expect(RuntimePaths.directory(of: "feed.sock") == "." && RuntimePaths.directory(of: "/feed.sock") == "/")
    }
}
