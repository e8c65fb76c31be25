/// One content line, `NAME;PARAM=VALUE;…:VALUE`, read far enough to set a parameter.
struct ContentLine {
    var name: String
    /// Each parameter as written (`TZID="A, B"`), in order.
    var parameters: [String]
    var value: String

    /// Splits `text` at `;` and the first `:` outside double quotes; nil without a `:`.
    init?(_ text: String) {
        var parts: [String] = [], current = "", quoted = false, valueStart: String.Index?
        for index in text.indices {
            let c = text[index]
            if c == "\"" { quoted.toggle() }
            if !quoted, c == ":" { valueStart = text.index(after: index); break }
            if !quoted, c == ";" { parts.append(current); current = "" } else { current.append(c) }
        }
        guard let valueStart else { return nil }
        parts.append(current)
        name = parts[0].uppercased()
        parameters = Array(parts.dropFirst())
        value = String(text[valueStart...])
    }

    /// The value of parameter `key`, without quotes.
    func parameter(_ key: String) -> String? {
        for p in parameters {
            guard let eq = p.firstIndex(of: "="), p[..<eq].uppercased() == key else { continue }
            var v = p[p.index(after: eq)...]
            if v.count >= 2, v.first == "\"", v.last == "\"" { v = v.dropFirst().dropLast() }
            return String(v)
        }
        return nil
    }

    /// Sets parameter `key` (quoted when the value needs it), replacing it if present.
    mutating func setParameter(_ key: String, _ value: String) {
        let written = key + "=" + (value.contains { ",;:".contains($0) } ? "\"" + value + "\"" : value)
        if let i = parameters.firstIndex(where: { $0.uppercased().hasPrefix(key + "=") }) {
            parameters[i] = written
        } else {
            parameters.append(written)
        }
    }

    /// A DATE-TIME value without `Z` (floating), or a period or list starting with one.
    var isFloatingDateTime: Bool {
        guard parameter("VALUE").map({ $0.uppercased() != "DATE" }) ?? true else { return false }
        let first = value.split(whereSeparator: { $0 == "," || $0 == "/" }).first ?? ""
        return first.count == 15 && first.contains("T") && !first.hasSuffix("Z")
    }

    var text: String { ([name] + parameters).joined(separator: ";") + ":" + value }
}
