/// What a shell should offer for an option's value or a positional argument.
public enum Completion: Sendable, Equatable {
    /// Free text: nothing to offer.
    case none
    /// A file; with an extension (`ics`), only such files (and directories to descend).
    case file(extension: String? = nil)
    /// A directory.
    case directory
    /// A calendar name from the database (`eventctl calendars`).
    case calendar
    /// An IANA time zone name.
    case timeZone
    /// One of these words; parsing also accepts only these.
    case choices([String])

    /// The fixed words of `.choices`, else nil.
    public var choices: [String]? {
        if case .choices(let words) = self { return words }
        return nil
    }
}
