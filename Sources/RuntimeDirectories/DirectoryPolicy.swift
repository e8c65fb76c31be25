#if canImport(Glibc)
import Glibc
#endif

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
