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
            // Keys in code-point order: the canonical line, as every JSON line of the project.
            var w = JSONWriter()
            w.beginObject()
            w.key("alt"); w.string(glance.alt)
            w.key("class"); w.string(kind)
            w.key("percentage"); w.int(glance.percentage)
            w.key("text"); w.string(Self.pango(text))
            w.key("tooltip"); w.string(Self.tooltip(glance, stale: stale))
            w.endObject()
            return w.string
        case .i3bar:
            var w = JSONWriter()
            w.beginArray()
            w.beginObject()
            if let color = Self.i3barColors[kind] { w.key("color"); w.string(color) }
            w.key("full_text"); w.string(text)
            w.key("instance"); w.string(kind)
            w.key("markup"); w.string("none")
            w.key("name"); w.string("eventd")
            w.key("short_text"); w.string(Self.oneLine(glance.shortText))
            w.endObject()
            w.endArray()
            return w.string
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
