import AgendaText
import FeedProtocol
import Diagnostics

/// One line of the watched agenda, before it meets a width: styled pieces of text and
/// the identity the animator follows (an event's item id, a date's header id).
public struct AgendaRow: Sendable, Equatable {
    /// What the line is.
    public enum Kind: Sendable, Equatable {
        case header
        case event
        /// An all-day or multi-day event: drawn as a bar across the line.
        case banner
        /// The rule between today's past and coming events.
        case nowRule
        /// Why a section or the view shows nothing.
        case placeholder
        /// An empty line between sections.
        case gap
    }

    /// How a piece of text looks; the screen maps each to attributes and colours.
    public enum Style: Sendable, Hashable {
        case plain, dim, bold, rule, warning
        /// The mark of the event under way.
        case progress
        /// In the calendar's colour (`CalendarPalette`).
        case calendar(String)
        /// A banner's text: reversed in the calendar's colour.
        case banner(String)
        /// A day of the month grid, as marked.
        case day(MonthGrid.Marks)
    }

    /// A piece of text in one style; calendar text is already made inert (`TerminalText`).
    public struct Span: Sendable, Equatable {
        public var text: String
        public var style: Style
        public init(_ text: String, _ style: Style = .plain) {
            self.text = text
            self.style = style
        }
    }

    /// The row's identity across layouts: the item's id, `h:DATE` for a header, `now`,
    /// `p:…` for a placeholder, `g:…` for a gap.
    public var id: String
    public var kind: Kind
    public var spans: [Span]
    /// The rest of the line is filled with this (the now rule), else with spaces.
    public var fill: Character?
    /// The feed's item behind an event row (for details).
    public var item: FeedItem?
    /// A header's section kind (`watch`'s t finds today's by it).
    public var section: SectionKind?
    /// Dimmed as past (today's events that have ended).
    public var past: Bool

    public init(id: String, kind: Kind, spans: [Span], fill: Character? = nil, item: FeedItem? = nil, past: Bool = false,
                section: SectionKind? = nil) {
        self.id = id
        self.section = section
        self.kind = kind
        self.spans = spans
        self.fill = fill
        self.item = item
        self.past = past
    }

    /// Whether the selection can rest on this row.
    public var selectable: Bool { kind == .event || kind == .banner }

    /// The row's text without styles.
    public var plainText: String { spans.map(\.text).joined() }

    /// The spans cut and padded to exactly `columns` columns (`DisplayWidth`): the text
    /// never runs past the edge, and the last piece that fits ends in `…`.
    public func fitted(to columns: Int) -> [Span] {
        var out: [Span] = []
        var used = 0
        for span in spans where used < columns {
            let room = columns - used
            let (cut, width) = DisplayWidth.truncate(span.text, to: room)
            out.append(Span(cut, span.style))
            used += width
            if cut != span.text { break }
        }
        if used < columns {
            let pad = String(repeating: fill.map(String.init) ?? " ", count: columns - used)
            out.append(Span(pad, fill == nil ? .plain : .rule))
        }
        return out
    }
}

extension AgendaRow {
    /// Calendar text as a span: controls and bidi overrides shown inert.
    static func text(_ value: String?, _ style: Style = .plain) -> Span {
        Span(TerminalText.sanitized(value ?? ""), style)
    }
}
