import Foundation
import TestSupport

// MARK: - ExternalTool

/// Runs helper programs (`python3`, `sha256sum`) from tests, through TestSupport's
/// `ChildProcess` (input and output through files, so large ones cannot deadlock).
enum ExternalTool {
    /// The output of a finished process.
    struct Output {
        var status: Int32
        var stdout: [UInt8]
        var stderr: String
    }

    /// The first executable named `name` in `/usr/bin`, then `$PATH`.
    static func find(_ name: String) -> String? { Products.which(name, preferring: ["/usr/bin"]) }

    /// Path of `python3`, if installed.
    static let python3: String? = find("python3")

    /// Path of `sha256sum`, if installed.
    static let sha256sum: String? = find("sha256sum")

    /// Runs `executable` with `arguments`, feeding `input` on standard input.
    static func run(_ executable: String, _ arguments: [String], input: [UInt8] = []) throws -> Output {
        let r = try ChildProcess.runBlocking(executable, arguments, stdin: input, timeout: 600)
        return Output(status: r.status, stdout: r.stdoutBytes, stderr: r.stderr)
    }
}
