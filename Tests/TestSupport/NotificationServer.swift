import Foundation
#if canImport(Glibc)
import Glibc
#endif
import CanonicalJSON

/// A private D-Bus session bus (`dbus-daemon --session`) with a small notification
/// server on it (`scripts/notification_listener.py`, jeepney from `.venv`) that records
/// every `Notify` call: what `eventctl remind` shows, without a desktop.
public final class NotificationServer: @unchecked Sendable {
    // `@unchecked Sendable`: set in `init`; `stop` is called by the owning test only.
    public let directory: String
    /// The bus's address, for `DBUS_SESSION_BUS_ADDRESS`.
    public let address: String
    private var pids: [pid_t] = []
    private var record: String { directory + "/notifications.ndjson" }

    public init() throws {
        directory = NSTemporaryDirectory() + "eventd-bus-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let addressFile = directory + "/address"
        pids.append(try ChildProcess.spawn("/usr/bin/dbus-daemon", ["--session", "--nofork", "--print-address=1"],
                                           environment: ChildProcess.isolatedEnvironment(),
                                           stdoutPath: addressFile, stderrPath: directory + "/dbus.log"))
        let deadline = Date().addingTimeInterval(10)
        var found = ""
        while found.isEmpty {
            found = ((try? String(contentsOfFile: addressFile, encoding: .utf8)) ?? "").split(separator: "\n").first.map(String.init) ?? ""
            if found.isEmpty, Date() > deadline {
                pids.forEach { ChildProcess.killAndReap($0) }
                throw HarnessError("dbus-daemon did not print its address")
            }
            if found.isEmpty { usleep(20_000) }
        }
        address = found
        let python = Products.repositoryRoot.appendingPathComponent(".venv/bin/python").path
        let script = Products.repositoryRoot.appendingPathComponent("scripts/notification_listener.py").path
        pids.append(try ChildProcess.spawn(python, [script, "--address", address, "--out", record],
                                           environment: ChildProcess.isolatedEnvironment(),
                                           stdoutPath: directory + "/listener.log", stderrPath: directory + "/listener.log"))
        while !FileManager.default.fileExists(atPath: record + ".ready") {
            if Date() > deadline {
                let log = (try? String(contentsOfFile: directory + "/listener.log", encoding: .utf8)) ?? ""
                stop()
                throw HarnessError("the notification listener did not start: \(log)")
            }
            usleep(20_000)
        }
    }

    /// Every notification received so far, in order.
    public var notifications: [JSONValue] {
        ((try? String(contentsOfFile: record, encoding: .utf8)) ?? "").split(separator: "\n")
            .compactMap { try? JSONValue.parse(Array($0.utf8), maxDepth: 8) }
    }

    public func stop() {
        for pid in pids.reversed() { ChildProcess.killAndReap(pid) }
        pids = []
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit { stop() }
}
