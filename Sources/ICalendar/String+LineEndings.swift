extension String {
    /// The text without carriage returns: CRLF (and lone CR) line endings become LF.
    public func removingCarriageReturns() -> String {
        var out = String.UnicodeScalarView()
        for scalar in unicodeScalars where scalar != "\r" { out.append(scalar) }
        return String(out)
    }

    /// The text with CRLF line endings and a final line break (iCalendar's form).
    public func withCRLFLineEndings() -> String {
        var lines = removingCarriageReturns()
        if !lines.hasSuffix("\n") { lines += "\n" }
        return lines.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { $0 + "\r\n" }.joined()
    }
}
