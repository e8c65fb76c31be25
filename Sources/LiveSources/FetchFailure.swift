/// Why a source could not be synchronised: one line, with no secret in it (a URL is
/// only ever named as `scheme://host:port/…`). The source keeps its last good events.
public struct FetchFailure: Error, CustomStringConvertible, Sendable, Equatable {
    /// The class of failure, for tests and for deciding what to show.
    public enum Kind: String, Sendable {
        case refused, dns, timeout, tls, httpStatus, tooManyRedirects, redirectRefused, oversize, headersTooLarge
        case network, notICalendar, truncated, unreadable, missing, parse
    }

    /// What went wrong, as a class.
    ///
    /// `isTransient`: the server could not be reached (it may be later); the other kinds
    /// are answers that are no calendar (a login page, an HTTP error, a cut-off body),
    /// which `source add` refuses rather than keeps.
    public var kind: Kind
    /// The one-line message.
    public var message: String

    /// Creates a failure; `message` must already be free of secrets.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// A message cut to one line of at most 300 characters (a server's text or a parse
    /// error can be long or multi-line).
    static func oneLine(_ text: String) -> String {
        let flat = text.map { $0.isNewline || $0 == "\t" ? " " : $0 }
        let line = String(flat)
        return line.count > 300 ? String(line.prefix(300)) + "…" : line
    }
}

extension FetchFailure.Kind {
    /// Whether the server could not be reached (refused, DNS, timeout, TLS, network),
    /// rather than answered with something that is not a calendar.
    public var isTransient: Bool { [.refused, .dns, .timeout, .tls, .network].contains(self) }
}
