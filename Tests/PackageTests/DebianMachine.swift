import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// This machine as the package test sees it: its package manager, its accounts, its
/// systemd, and programs run as root, as a user, or with the Swift toolchain hidden.
enum DebianMachine {
    static var dpkg: String? { Products.which("dpkg") }
    static var isRoot: Bool { getuid() == 0 }
    /// Whether systemd is the init system (else postinst can only enable, not start).
    static var systemdRuns: Bool { FileManager.default.fileExists(atPath: "/run/systemd/system") }
    /// The toolchain whose runtime the development binaries load.
    static let toolchain = "/opt/swift"

    /// Runs a command as root, logging it and how long it took; the environment (with
    /// `extra`) keeps apt and debconf quiet and non-interactive.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], stdin: [UInt8]? = nil, timeout: Double = 300,
                    directory: URL? = nil, environment extra: [String: String] = [:]) throws -> ProcessResult {
        var environment = ChildProcess.isolatedEnvironment(extra)
        environment["DEBIAN_FRONTEND"] = "noninteractive"
        environment["APT_LISTCHANGES_FRONTEND"] = "none"
        let r = try ChildProcess.runBlocking(executable, arguments, environment: environment,
                                             workingDirectory: directory?.path, stdin: stdin, timeout: timeout)
        let command = ([(executable as NSString).lastPathComponent] + arguments).joined(separator: " ")
        print("package test: \(command): \(r.exit) in \(String(format: "%.1f", r.seconds)) s")
        return r
    }

    /// `argv` run in a mount namespace of its own where an empty directory hides the
    /// Swift toolchain (util-linux's unshare makes the namespace's mounts private), with
    /// an empty environment but for PATH, TZ and NO_COLOR (no LD_LIBRARY_PATH, no XDG
    /// directories of root's), as `user` if given (setpriv: its uid, gid and groups).
    static func withoutToolchain(_ argv: [String], asUser user: String? = nil, stdin: [UInt8]? = nil) throws -> ProcessResult {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-swift-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let switchUser = user.map { ["/usr/bin/setpriv", "--reuid=\($0)", "--regid=\($0)", "--init-groups", "--"] } ?? []
        let script = #"mount --bind "$0" "$1" && shift && exec "$@""#
        let environment = ["/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "TZ=UTC", "NO_COLOR=1"]
        return try run("/usr/bin/unshare", ["--mount", "--", "/bin/sh", "-c", script, empty.path, toolchain]
                       + switchUser + environment + argv, stdin: stdin, directory: URL(fileURLWithPath: "/"))
    }

    /// The package's status (`install ok installed`, `deinstall ok config-files`), or "" when dpkg does not know it.
    static func packageStatus(_ package: String) throws -> String {
        let r = try ChildProcess.runBlocking("/usr/bin/dpkg-query", ["-W", "-f=${Status}", package])
        return r.succeeded ? r.stdout : ""
    }

    /// Whether any of the package is on the machine: installed, half-installed, or its
    /// configuration files left by `remove`.
    static func packagePresent(_ package: String) throws -> Bool {
        let status = try packageStatus(package)
        return !status.isEmpty && !status.hasSuffix(" not-installed")
    }

    static func packageVersion(_ package: String) throws -> String {
        try ChildProcess.runBlocking("/usr/bin/dpkg-query", ["-W", "-f=${Version}", package]).stdout
    }

    static func userExists(_ name: String) -> Bool { getpwnam(name) != nil }
    static func groupExists(_ name: String) -> Bool { getgrnam(name) != nil }

    /// A file's owner's name and permission bits.
    static func owner(_ path: String) -> (user: String, mode: Int)? {
        var st = stat()
        guard stat(path, &st) == 0, let pw = getpwuid(st.st_uid) else { return nil }
        return (String(cString: pw.pointee.pw_name), Int(st.st_mode & 0o7777))
    }

    static func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }

    /// The libraries `ldd` resolves for `binary`, and the lines it could not resolve.
    static func sharedLibraries(_ binary: String) throws -> (resolved: [String], unresolved: [String]) {
        let r = try ChildProcess.runBlocking("/usr/bin/ldd", [binary])
        var resolved: [String] = [], unresolved: [String] = []
        for line in r.stdout.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if line.contains("not found") {
                unresolved.append(String(line))
            } else if let arrow = fields.firstIndex(of: "=>"), arrow + 1 < fields.count, fields[arrow + 1].hasPrefix("/") {
                resolved.append(String(fields[arrow + 1]))
            } else if let first = fields.first, first.hasPrefix("/") {
                resolved.append(String(first))
            }
        }
        return (resolved, unresolved)
    }

    /// The Debian package that owns `path` (trying its /usr-merged twin too), or nil.
    static func owningPackage(_ path: String) throws -> String? {
        let real = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let twins = [path, real].flatMap { p in [p, p.hasPrefix("/usr/") ? String(p.dropFirst(4)) : "/usr" + p] }
        for candidate in twins {
            let r = try ChildProcess.runBlocking("/usr/bin/dpkg-query", ["-S", candidate])
            if r.succeeded, let owner = r.stdout.split(separator: ":").first { return String(owner) }
        }
        return nil
    }
}
