import Foundation
import Glibc

/// Where a reminder goes: the desktop's notification server on the session bus, or
/// `notify-send` when the bus cannot be reached.
public protocol Notifier {
    /// Shows `reminder`; throws when it could not be shown.
    func show(_ reminder: Reminder) throws
}

/// A reminder that could not be shown by any way tried.
public struct NotifyFailure: Error, CustomStringConvertible, Sendable {
    public var description: String
}

/// `org.freedesktop.Notifications` through sd-bus; `notify-send` if that fails.
public final class DesktopNotifier: Notifier {
    public enum Way: String, Sendable, CaseIterable {
        case auto, dbus
        case notifySend = "notify-send"
    }

    private let way: Way
    private var bus: SessionBus?
    private let notifySend: String?

    public init(way: Way = .auto, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.way = way
        notifySend = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { $0 + "/notify-send" }.first { access($0, X_OK) == 0 }
    }

    public func show(_ reminder: Reminder) throws {
        var failures: [String] = []
        if way != .notifySend {
            do {
                // Connect lazily and again after a failure: the session may start after us.
                let bus = try self.bus ?? SessionBus()
                _ = try bus.notify(app: "eventd", icon: "x-office-calendar", summary: reminder.title, body: reminder.body,
                                   urgency: reminder.urgent ? 2 : 1)
                self.bus = bus
                return
            } catch {
                bus = nil
                failures.append("session bus: \(error)")
            }
        }
        if way != .dbus {
            if let notifySend {
                let exit = Self.run(notifySend, ["--app-name=eventd", "--icon=x-office-calendar",
                                                 "--urgency=\(reminder.urgent ? "critical" : "normal")", "--", reminder.title, reminder.body])
                if exit == 0 { return }
                failures.append("notify-send exited with \(exit)")
            } else {
                failures.append("notify-send not found")
            }
        }
        throw NotifyFailure(description: failures.joined(separator: "; "))
    }

    /// Runs a program and returns its exit status (-1 when it could not start or was killed).
    static func run(_ path: String, _ arguments: [String]) -> Int32 {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, path, nil, nil, argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 { if errno != EINTR { return -1 } }
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }
}
