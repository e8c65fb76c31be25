import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Knobs shared by every reliability test.
enum Rel {
    /// `EVENTD_STRESS_SCALE` (default 1: the bounded run of `make test`; `make stress` sets 20).
    static let scale: Int = {
        let raw = ProcessInfo.processInfo.environment["EVENTD_STRESS_SCALE"] ?? ""
        return max(1, Int(raw) ?? Int(Double(raw) ?? 1))
    }()

    /// Prints one `reliability: <test>: key=value ...` line (the figures a test measured).
    static func report(_ test: String, _ fields: [(String, Any)]) {
        let line = "reliability: \(test): " + fields.map { "\($0.0)=\(format($0.1))" }.joined(separator: " ")
        print(line)
        fflush(nil)
        // Also appended to $EVENTD_RELIABILITY_REPORT (scripts/stress.sh collects them there).
        if let file = ProcessInfo.processInfo.environment["EVENTD_RELIABILITY_REPORT"], !file.isEmpty {
            let fd = open(file, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            if fd >= 0 {
                let bytes = Array((line + "\n").utf8)
                _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
            }
        }
    }

    private static func format(_ value: Any) -> String {
        if let d = value as? Double { return String(format: "%.3f", d) }
        return "\(value)"
    }

    /// The seed of a test's random choices: `EVENTD_STRESS_SEED` (to repeat a run), else random.
    static func seed() -> UInt64 {
        if let s = ProcessInfo.processInfo.environment["EVENTD_STRESS_SEED"].flatMap(UInt64.init) { return s }
        return UInt64.random(in: 1...UInt64.max)
    }
}

/// A failure that ends a test body.
struct RelError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
