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
