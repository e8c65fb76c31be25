import Foundation
import CommandLineKit
import Diagnostics
import RuntimeDirectories

/// The token eventd-web makes when no `--token-file` is given (docs/web-gateway.md,
/// Access): 32 random bytes as 64 hex digits in `token` in the runtime directory —
/// `$RUNTIME_DIRECTORY` (systemd's), else `$XDG_RUNTIME_DIR/eventd-web`, else
/// `/tmp/eventd-web-$UID` — checked as eventd checks its socket's directory, the file
/// 0600. A file already there (a restart) is kept, so open pages keep their cookie.
enum DefaultToken {
    /// The file's name in the directory.
    static let fileName = "token"

    /// Why the token could not be made or read (exit 74, like an unsafe directory).
    struct Failure: Error, CustomStringConvertible, ExitStatusProviding {
        var description: String
        var exitStatus: ExitStatus { .ioError }
    }

    /// The runtime directory and the rules it must meet.
    static func directory(environment: [String: String], uid: UInt32) -> (path: String, policy: DirectoryPolicy) {
        // systemd made it for this service (RuntimeDirectory=; mode 0755 by default).
        if let given = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first, given.hasPrefix("/") {
            return (String(given), .shared(owners: [uid]))
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return (runtime + "/eventd-web", .privateTo(uid: uid))
        }
        return ("/tmp/eventd-web-\(uid)", .privateTo(uid: uid))
    }

    /// The token in the checked runtime directory, made first when missing.
    static func load(environment: [String: String], uid: UInt32) throws -> (token: String, path: String) {
        let (path, policy) = directory(environment: environment, uid: uid)
        guard let directory = try CheckedDirectory.open(path, policy: policy, create: true) else {
            throw Failure(description: "cannot create \(path)")
        }
        let file = path + "/" + fileName
        if let kept = try existing(in: directory, uid: uid) { return (kept, file) }
        let token = fresh()
        // Another eventd-web of this user made it meanwhile: use that one.
        guard try write(token, in: directory, file: file) else {
            guard let theirs = try existing(in: directory, uid: uid) else { throw Failure(description: "cannot make the token in \(path)") }
            return (theirs, file)
        }
        try directory.verifyStillInPlace()
        return (token, file)
    }

    /// The token a previous run left, when it is ours, 0600 and well formed.
    private static func existing(in directory: CheckedDirectory, uid: UInt32) throws -> String? {
        let fd = openat(directory.fd, fileName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            guard errno == ENOENT else { throw failure("open", directory.path) }
            return nil
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw failure("fstat", directory.path) }
        guard st.st_mode & S_IFMT == S_IFREG, st.st_uid == uid, st.st_mode & 0o077 == 0, st.st_size <= 256 else {
            // Not ours to trust: replace it.
            guard unlinkat(directory.fd, fileName, 0) == 0 else { throw failure("unlink", directory.path) }
            return nil
        }
        var bytes = [UInt8](repeating: 0, count: 256)
        let count = read(fd, &bytes, bytes.count)
        guard count >= 0 else { throw failure("read", directory.path) }
        let text = String(decoding: bytes.prefix(count), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count == 64, text.utf8.allSatisfy({ isHexDigit($0) }) else {
            guard unlinkat(directory.fd, fileName, 0) == 0 else { throw failure("unlink", directory.path) }
            return nil
        }
        return text
    }

    /// 32 bytes from the system's generator (getrandom(2) on Linux) as hex.
    static func fresh() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
    }

    /// Creates the file (`O_EXCL`, mode 0600 set explicitly, never from the umask);
    /// false when it exists already.
    private static func write(_ token: String, in directory: CheckedDirectory, file: String) throws -> Bool {
        let fd = openat(directory.fd, fileName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            if errno == EEXIST { return false }
            throw failure("create", file)
        }
        defer { close(fd) }  // after the fsync below, close has nothing left to report
        guard fchmod(fd, 0o600) == 0 else { throw failure("chmod", file) }
        let bytes = Array((token + "\n").utf8)
        guard Glibc.write(fd, bytes, bytes.count) == bytes.count, fsync(fd) == 0 else { throw failure("write", file) }
        return true
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

    private static func failure(_ operation: String, _ path: String) -> Failure {
        Failure(description: "cannot \(operation) the token in \(path): \(String(cString: strerror(errno)))")
    }
}
