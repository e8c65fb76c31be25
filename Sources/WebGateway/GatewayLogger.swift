import Glibc

/// One line per event on standard error, prefixed with its syslog level (`<6>`), as
/// journald reads it. Used from the loop's thread only.
public final class GatewayLogger {
    private let threshold: GatewayLogLevel

    /// A logger that writes lines at `threshold` or more important.
    public init(threshold: GatewayLogLevel) { self.threshold = threshold }

    /// Writes one line (newlines in `message` become spaces).
    public func log(_ level: GatewayLogLevel, _ message: String) {
        guard level >= threshold else { return }
        let text = "<\(level.rawValue)>" + message.map { $0.isNewline ? " " : $0 }.map(String.init).joined() + "\n"
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
            if n <= 0 { if errno == EINTR { continue }; break }
            offset += n
        }
    }
}
