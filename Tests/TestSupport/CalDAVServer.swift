import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Radicale (from `.venv`, `make venv`) on a free loopback port with a temporary
/// storage, and the tools of a CalDAV round trip: a calendar, PUT and DELETE of events
/// (`scripts/caldav_test_client.py`), and `vdirsyncer sync` into a vdir.
public final class CalDAVServer: @unchecked Sendable {
    // `@unchecked Sendable`: set in `init`; `stop` is called by the owning test only.
    public let directory: String
    public let port: Int
    /// The vdir vdirsyncer keeps in step with the calendar `/test/cal/`.
    public let vdir: String
    private var pid: pid_t?
    private let venv = Products.repositoryRoot.appendingPathComponent(".venv/bin").path

    /// Whether Radicale and vdirsyncer are installed in `.venv`.
    public static var isAvailable: Bool {
        let bin = Products.repositoryRoot.appendingPathComponent(".venv/bin").path
        return ["radicale", "vdirsyncer"].allSatisfy { FileManager.default.isExecutableFile(atPath: bin + "/" + $0) }
    }

    public init() throws {
        directory = NSTemporaryDirectory() + "eventd-caldav-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        vdir = directory + "/vdir"
        for sub in ["", "/vdir", "/status", "/collections"] {
            try FileManager.default.createDirectory(atPath: directory + sub, withIntermediateDirectories: true)
        }
        port = try freeLoopbackPort()
        let log = directory + "/radicale.log"
        pid = try ChildProcess.spawn(venv + "/radicale",
                                     ["--server-hosts", "127.0.0.1:\(port)", "--auth-type", "none",
                                      "--storage-filesystem-folder", directory + "/collections"],
                                     environment: ChildProcess.isolatedEnvironment(), stdoutPath: log, stderrPath: log)
        let deadline = Date().addingTimeInterval(15)
        while !((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("ready") {
            if Date() > deadline { stop(); throw HarnessError("radicale did not start") }
            usleep(50_000)
        }
        try """
        [general]
        status_path = "\(directory)/status/"

        [pair cal]
        a = "remote"
        b = "local"
        collections = null

        [storage remote]
        type = "caldav"
        url = "http://127.0.0.1:\(port)/test/cal/"
        username = "test"
        password = "test"

        [storage local]
        type = "filesystem"
        path = "\(vdir)/"
        fileext = ".ics"
        """.write(toFile: directory + "/vdirsyncer.conf", atomically: true, encoding: .utf8)
    }

    deinit { stop() }

    public func stop() {
        if let pid { _ = ChildProcess.killAndReap(pid) }
        pid = nil
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Creates the calendar `/test/cal/`.
    public func makeCalendar() async throws { try await client(["mkcalendar", url("")]) }

    /// PUTs `ics` as `/test/cal/NAME`.
    public func put(_ name: String, _ ics: String) async throws {
        let file = directory + "/put-" + name
        try ics.write(toFile: file, atomically: true, encoding: .utf8)
        try await client(["put", url(name), file])
    }

    /// DELETEs `/test/cal/NAME`.
    public func delete(_ name: String) async throws { try await client(["delete", url(name)]) }

    /// `vdirsyncer discover` (first time) and `sync`.
    public func sync() async throws {
        let config = ["-c", directory + "/vdirsyncer.conf"]
        if !FileManager.default.fileExists(atPath: directory + "/status/cal.collections") {
            try check(try await ChildProcess.run(venv + "/vdirsyncer", config + ["discover", "cal"],
                                                 environment: ChildProcess.isolatedEnvironment(), timeout: 60), "vdirsyncer discover")
        }
        try check(try await ChildProcess.run(venv + "/vdirsyncer", config + ["sync"],
                                             environment: ChildProcess.isolatedEnvironment(), timeout: 60), "vdirsyncer sync")
    }

    private func url(_ name: String) -> String { "http://127.0.0.1:\(port)/test/cal/" + name }

    private func client(_ arguments: [String]) async throws {
        let script = Products.repositoryRoot.appendingPathComponent("scripts/caldav_test_client.py").path
        try check(try await ChildProcess.run(venv + "/python", [script] + arguments,
                                             environment: ChildProcess.isolatedEnvironment(), timeout: 20), arguments[0])
    }

    private func check(_ result: ProcessResult, _ what: String) throws {
        guard result.succeeded else { throw HarnessError("\(what) failed: \(result.stdout) \(result.stderr)") }
    }
}

/// A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, then closed).
public func freeLoopbackPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw HarnessError("socket failed") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
            bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
        }
    }
    guard bound else { throw HarnessError("bind failed") }
    return Int(UInt16(bigEndian: address.sin_port))
}
