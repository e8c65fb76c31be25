import Foundation
import Diagnostics

/// Writes `eventctl: MESSAGE` to standard error.
func printError(_ message: String) {
    // One line, always (docs/data-model.md): messages may quote multi-line input.
    let line = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    // Messages quote calendar text (warnings name the file's content): made safe too.
    FileHandle.standardError.write(Data(("eventctl: " + line.terminalSafe + "\n").utf8))
}

/// Writes a line to standard error, without the prefix.
func printStandardError(_ message: String) {
    FileHandle.standardError.write(Data((message.terminalSafe + "\n").utf8))
}
