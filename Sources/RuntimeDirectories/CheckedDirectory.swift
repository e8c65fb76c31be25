#if canImport(Glibc)
import Glibc
#endif

/// A directory checked against a `DirectoryPolicy` and held open, so that what was
/// checked is what gets used: `lstat` on the path, then `open(O_DIRECTORY|O_NOFOLLOW)`
/// and `fstat` on the descriptor (the same inode, checked again), and after use
/// `verifyStillInPlace()` proves the path still names that inode. One owner of the
/// descriptor, closed in `deinit`.
public final class CheckedDirectory {
    /// The directory's path.
    public let path: String
    /// The open directory (`O_DIRECTORY|O_NOFOLLOW|O_CLOEXEC`).
    public let fd: Int32
    private let device: UInt64
    private let inode: UInt64

    /// Checks `path` against `policy`; when it is missing and `create` is set, makes it
    /// (and missing parents) with mode 0700 first. Returns nil when it is missing and
    /// `create` is not set. Throws `UnsafeDirectoryError` when the policy is broken,
    /// `POSIXError`-carrying `UnsafeDirectoryError`s when it cannot be made or opened.
    public static func open(_ path: String, policy: DirectoryPolicy, create: Bool) throws -> CheckedDirectory? {
        var before = stat()
        if lstat(path, &before) != 0 {
            guard errno == ENOENT else { throw failure(path, "cannot be inspected: \(lastError())") }
            guard create else { return nil }
            try makeDirectories(path)
            guard lstat(path, &before) == 0 else { throw failure(path, "cannot be inspected: \(lastError())") }
        }
        if let problem = policy.problem(with: before) {
            throw UnsafeDirectoryError(path: path, problem: problem, fix: policy.fix(for: path, status: before))
        }
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw failure(path, "cannot be opened: \(lastError())") }
        var after = stat()
        guard fstat(fd, &after) == 0 else {
            let message = lastError()
            close(fd)
            throw failure(path, "cannot be inspected: \(message)")
        }
        // Swapped between the two looks: whoever did it can write to the parent.
        guard after.st_dev == before.st_dev, after.st_ino == before.st_ino else {
            close(fd)
            throw UnsafeDirectoryError(path: path, problem: "was replaced while it was being checked",
                                       fix: "check who else can write to its parent directory")
        }
        if let problem = policy.problem(with: after) {
            close(fd)
            throw UnsafeDirectoryError(path: path, problem: problem, fix: policy.fix(for: path, status: after))
        }
        return CheckedDirectory(path: path, fd: fd, device: UInt64(after.st_dev), inode: UInt64(after.st_ino))
    }

    private init(path: String, fd: Int32, device: UInt64, inode: UInt64) {
        self.path = path
        self.fd = fd
        self.device = device
        self.inode = inode
    }

    deinit { close(fd) }

    /// Throws unless `path` still names the directory that was checked (call it after
    /// creating something inside through the path, such as binding a socket).
    public func verifyStillInPlace() throws {
        var now = stat()
        guard lstat(path, &now) == 0, UInt64(now.st_dev) == device, UInt64(now.st_ino) == inode else {
            throw UnsafeDirectoryError(path: path, problem: "was replaced while in use",
                                       fix: "check who else can write to its parent directory")
        }
    }

    /// `mkdir -p` with mode 0700 for every directory it makes.
    private static func makeDirectories(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0, errno != EEXIST {
                throw failure(path, "cannot be created (\(prefix): \(lastError()))")
            }
        }
    }

    private static func failure(_ path: String, _ problem: String) -> UnsafeDirectoryError {
        UnsafeDirectoryError(path: path, problem: problem, fix: "check the path and its permissions")
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}

/// Who may own a directory that eventd keeps its socket or database in, and what
/// others may do with it. A directory that fails its policy is never used: whoever can
/// write to it can replace the socket with their own (and read what clients send) or
/// swap the database.
public enum DirectoryPolicy: Sendable, Equatable {
    /// One user's own directory (`/tmp/eventd-$UID`, `$XDG_RUNTIME_DIR/eventd`,
    /// `$XDG_STATE_HOME/eventd`): owned by `uid`, and group and others may neither
    /// read nor write it. Created with mode 0700.
    case privateTo(uid: UInt32)
    /// A directory chosen with `--socket`/`--db` or made by systemd (`/run/eventd`,
    /// mode 0755): owned by one of `owners`, and group and others may not write to it
    /// unless it is sticky (as `/tmp` is: then only an entry's owner may remove it).
    case shared(owners: Set<UInt32>)

    /// Why `status` (from `lstat`/`fstat`) breaks this policy, or nil when it does not.
    public func problem(with status: stat) -> String? {
        switch status.st_mode & S_IFMT {
        case S_IFDIR: break
        case S_IFLNK: return "is a symbolic link"
        default: return "is not a directory"
        }
        let mode = status.st_mode & 0o7777
        switch self {
        case .privateTo(let uid):
            if status.st_uid != uid { return "belongs to \(Self.describe(uid: status.st_uid)), not to \(Self.describe(uid: uid))" }
            if mode & 0o077 != 0 { return "has mode \(Self.octal(mode)): group or others can reach it (it must be 0700)" }
        case .shared(let owners):
            if !owners.contains(status.st_uid) {
                let allowed = owners.sorted().map { Self.describe(uid: $0) }.joined(separator: " or ")
                return "belongs to \(Self.describe(uid: status.st_uid)), not to \(allowed)"
            }
            if mode & 0o022 != 0, mode & S_ISVTX == 0 {
                return "has mode \(Self.octal(mode)): group or others can write to it"
            }
        }
        return nil
    }

    /// What to do about a directory that breaks this policy.
    public func fix(for path: String, status: stat) -> String {
        let ours: Bool
        switch self {
        case .privateTo(let uid): ours = status.st_uid == uid
        case .shared(let owners): ours = owners.contains(status.st_uid)
        }
        if ours, status.st_mode & S_IFMT == S_IFDIR {
            if case .privateTo = self { return "run `chmod 700 \(path)`" }
            return "run `chmod go-w \(path)`"
        }
        return "remove it (ask its owner or root if you cannot) or choose another path (--socket, --db, XDG_RUNTIME_DIR)"
    }

    /// `uid 1000 (alice)`, or `uid 1000` when the system has no such user.
    static func describe(uid: UInt32) -> String {
        guard let name = UserDatabase.name(of: uid) else { return "uid \(uid)" }
        return "uid \(uid) (\(name))"
    }

    static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// A directory that eventd or eventctl refuses to use (docs/data-model.md): the one-line
/// message says what is wrong and how to fix it. Exit 74 from eventd; eventctl's
/// daemon commands report it as the daemon being unavailable (69).
public struct UnsafeDirectoryError: Error, CustomStringConvertible, Sendable {
    /// The directory.
    public var path: String
    /// What is wrong with it ("belongs to uid 4242 ...").
    public var problem: String
    /// How to fix it.
    public var fix: String

    public init(path: String, problem: String, fix: String) { (self.path, self.problem, self.fix) = (path, problem, fix) }

    public var description: String { "refusing to use \(path): it \(problem); \(fix)" }
}
