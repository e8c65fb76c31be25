/// Durations as people and calendars write them: `30s`, `15m`, `2h`, `1d`, and
/// ISO 8601 / RFC 5545 `PT15M`, `P1D`, `P1W`, `PT1H30M`.
public enum DurationText {
    /// Seconds, or nil when `text` is neither form (or not positive).
    public static func seconds(_ text: String) -> Int64? {
        if let iso = iso8601(text) { return iso }
        guard let unit = text.last, let number = Int64(text.dropLast()), number > 0, number < 1_000_000 else { return nil }
        switch unit {
        case "s": return number
        case "m": return number * 60
        case "h": return number * 3600
        case "d": return number * 86_400
        default: return nil
        }
    }

    /// An ISO 8601 duration (`P[nW][nD][T[nH][nM][nS]]`, a leading `+` allowed), seconds;
    /// nil when malformed, negative or zero.
    public static func iso8601(_ text: String) -> Int64? {
        var chars = Substring(text.uppercased())
        if chars.first == "+" { chars = chars.dropFirst() }
        guard chars.first == "P", chars.count > 1 else { return nil }
        chars = chars.dropFirst()
        var total: Int64 = 0
        var number: Int64?
        var inTime = false
        for c in chars {
            if let digit = c.wholeNumberValue {
                let n = (number ?? 0) * 10 + Int64(digit)
                guard n < 100_000_000 else { return nil }
                number = n
                continue
            }
            if c == "T" {
                guard !inTime, number == nil else { return nil }
                inTime = true
                continue
            }
            guard let n = number else { return nil }
            switch (c, inTime) {
            case ("W", false): total += n * 604_800
            case ("D", false): total += n * 86_400
            case ("H", true): total += n * 3600
            case ("M", true): total += n * 60
            case ("S", true): total += n
            default: return nil
            }
            number = nil
        }
        guard number == nil, total > 0 else { return nil }
        return total
    }
}
