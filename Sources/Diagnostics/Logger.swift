import Foundation
import Synchronization

/// Syslog levels, as journald reads them from a `<N>` prefix.
public enum LogLevel: Int, Comparable, Sendable, CaseIterable {
    case error = 3, warning = 4, notice = 5, info = 6, debug = 7

    public init?(name: String) {
        switch name {
        case "debug": self = .debug
        case "info": self = .info
        case "notice": self = .notice
        case "warning": self = .warning
        case "error": self = .error
        default: return nil
        }
    }

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue > b.rawValue }
}

extension LogLevel: LosslessStringConvertible {
    /// A level from its name (`debug` … `error`).
    public init?(_ description: String) { self.init(name: description) }

    /// The level's name, as `--log-level` takes it.
    public var description: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .notice: "notice"
        case .warning: "warning"
        case .error: "error"
        }
    }
}

/// One line per event on standard error, each prefixed with its syslog level (eventd and
/// eventd-web), made safe for a terminal (`TerminalText`).
public final class Logger: Sendable {
    private let threshold: LogLevel
    private let lock = Mutex(())

    public init(level: LogLevel) { threshold = level }

    public func log(_ level: LogLevel, _ message: @autoclosure () -> String) {
        guard level >= threshold else { return }
        // One line, and nothing a terminal (eventd in the foreground) would obey:
        // messages may quote calendar text or request bytes.
        let text = message().terminalSafe
        let line = "<\(level.rawValue)>\(text)\n"
        let bytes = Array(line.utf8)
        lock.withLock { _ in
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
                if n <= 0 { if errno == EINTR { continue }; break }
                offset += n
            }
        }
    }

    public func error(_ m: @autoclosure () -> String) { log(.error, m()) }
    public func warning(_ m: @autoclosure () -> String) { log(.warning, m()) }
    public func notice(_ m: @autoclosure () -> String) { log(.notice, m()) }
    public func info(_ m: @autoclosure () -> String) { log(.info, m()) }
    public func debug(_ m: @autoclosure () -> String) { log(.debug, m()) }
}
