import Foundation
import Diagnostics

extension ExitStatus {
    /// The one-line message for `error` (after `PROGRAM: `): the error's own text, its
    /// hint for usage errors, and "internal error" for what nothing expected
    /// (`ExitStatus.isExpected`).
    public static func message(for error: any Error) -> String {
        let text: String
        if let usage = error as? UsageError {
            text = usage.line
        } else if !ExitStatus.isExpected(error) {
            text = "internal error: \(error)"
        } else {
            text = "\(error)"
        }
        // One line, always (docs/data-model.md): messages may quote multi-line SQL or input.
        return text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }
}
