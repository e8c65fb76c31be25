/// A user's wording for the bar's text, with named fields in braces, as khal's
/// `--format` has them: `{start} {summary} ({minutes_until} min)`. `{{` and `}}` are
/// literal braces.
public struct BarTemplate: Sendable, Equatable {
    /// The fields a template can name.
    public enum Field: String, Sendable, CaseIterable {
        case summary, start, end, location, calendar
        /// Whole minutes until the start (rounded up; 0 once started).
        case minutesUntil = "minutes_until"
        /// Whole minutes until the end (rounded up).
        case minutesLeft = "minutes_left"
    }

    enum Piece: Sendable, Equatable {
        case text(String)
        case field(Field)
    }

    let pieces: [Piece]

    /// Why a template cannot be used.
    public struct Invalid: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public init(_ text: String) throws(Invalid) {
        var pieces: [Piece] = []
        var literal = ""
        var i = text.startIndex
        while i < text.endIndex {
            let c = text[i]
            let next = text.index(after: i)
            if (c == "{" || c == "}"), next < text.endIndex, text[next] == c {
                literal.append(c)
                i = text.index(after: next)
                continue
            }
            if c == "}" { throw Invalid(description: "unmatched '}' in template '\(text)' (write '}}' for a brace)") }
            guard c == "{" else {
                literal.append(c)
                i = next
                continue
            }
            guard let close = text[next...].firstIndex(of: "}") else {
                throw Invalid(description: "unclosed '{' in template '\(text)' (write '{{' for a brace)")
            }
            let name = String(text[next..<close])
            guard let field = Field(rawValue: name) else {
                let known = Field.allCases.map(\.rawValue).joined(separator: ", ")
                throw Invalid(description: "unknown field '{\(name)}' in template (known: \(known))")
            }
            if !literal.isEmpty { pieces.append(.text(literal)); literal = "" }
            pieces.append(.field(field))
            i = text.index(after: close)
        }
        if !literal.isEmpty { pieces.append(.text(literal)) }
        self.pieces = pieces
    }

    /// The text with each field replaced by `value(field)`.
    func render(_ value: (Field) -> String) -> String {
        var out = ""
        for piece in pieces {
            switch piece {
            case .text(let t): out += t
            case .field(let f): out += value(f)
            }
        }
        return out
    }
}
