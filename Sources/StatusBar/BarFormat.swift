import CanonicalJSON
import Diagnostics

/// The output formats of `eventctl subscribe` for status bars.
public enum BarFormat: String, Sendable, CaseIterable {
    /// Waybar's custom module with `return-type: json`: one JSON object per line.
    case waybar
    /// The i3bar/swaybar protocol: a header line, then an endless JSON array of block lists.
    case i3bar
    /// One plain line per update (polybar, tmux, lemonbar, scripts).
    case line

    /// The i3bar header and the array's opening, written once before the first blocks.
    static let i3barHeader = [#"{"version":1}"#, "["]

    /// The body of one update: the text a bar gets for `glance` (without `,` or newline).
    func body(_ glance: BarGlance, stale: Bool) -> String {
        let text = Self.oneLine(glance.text)
        let kind = stale ? "stale" : glance.kind.rawValue
        switch self {
        case .line:
            return stale && !text.isEmpty ? text + " (stale)" : text
        case .waybar:
            let object: JSONValue = [
                "text": .string(Self.pango(text)),
                "tooltip": .string(Self.tooltip(glance, stale: stale)),
                "class": .string(kind),
                "alt": .string(glance.alt),
                "percentage": .int(Int64(glance.percentage)),
            ]
            return object.canonicalString()
        case .i3bar:
            var block: [String: JSONValue] = [
                "name": "eventd",
                "instance": .string(kind),
                "full_text": .string(text),
                "short_text": .string(Self.oneLine(glance.shortText)),
                "markup": "none",
            ]
            if let color = Self.i3barColors[kind] { block["color"] = .string(color) }
            return JSONValue.array([.object(block)]).canonicalString()
        }
    }

    /// Colours of the i3bar block by class (i3bar has no classes; none: the bar's own).
    static let i3barColors = ["now": "#A3BE8C", "soon": "#EBCB8B", "stale": "#808080"]

    /// The tooltip in Pango markup: the rest of today, then tomorrow.
    static func tooltip(_ glance: BarGlance, stale: Bool) -> String {
        var lines: [String] = []
        if stale { lines.append("<i>eventd is not reachable: the last known state</i>") }
        func add(_ title: String, _ entries: [BarGlance.Entry], empty: String) {
            lines.append("<b>\(title)</b>")
            if entries.isEmpty { lines.append(empty) }
            for e in entries {
                var line = pango(oneLine(e.time)) + "  " + pango(oneLine(e.summary))
                if let location = e.location { line += " <i>" + pango(oneLine(location)) + "</i>" }
                lines.append(line)
            }
        }
        add("Today", glance.today, empty: "Nothing else today")
        add("Tomorrow", glance.tomorrow, empty: "Nothing tomorrow")
        return lines.joined(separator: "\n")
    }

    /// Text from a calendar made one safe line: line breaks become spaces, control
    /// characters visible, bidi overrides replaced (`TerminalText`), so a summary can
    /// neither break the bar's line protocol nor spoof its neighbours.
    static func oneLine(_ text: String) -> String { TerminalText.sanitized(text) }

    /// Escaped for Pango markup, which Waybar applies to `text` and `tooltip`.
    static func pango(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "'": out += "&#39;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
