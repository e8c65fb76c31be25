import Foundation

/// Writes `eventctl: MESSAGE` to standard error.
func printError(_ message: String) {
    // One line, always (SPEC.md section 5): messages may quote multi-line input.
    let line = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    FileHandle.standardError.write(Data(("eventctl: " + line + "\n").utf8))
}

/// Writes a line to standard error, without the prefix.
func printStandardError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
