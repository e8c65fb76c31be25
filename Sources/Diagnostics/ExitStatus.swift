/// Exit statuses of docs/data-model.md (sysexits.h).
public enum ExitStatus: Int32, Sendable, CaseIterable {
    case success = 0
    case usage = 64
    case dataError = 65
    case noInput = 66
    case unavailable = 69
    case software = 70
    case ioError = 74

    /// What the status means, for every program (the man pages' EXIT STATUS lists it,
    /// with what each program adds).
    public var meaning: String {
        switch self {
        case .success: return "Success."
        case .usage: return "Usage error: an unknown subcommand or option, a missing or invalid value."
        case .dataError: return "Bad input data."
        case .noInput: return "Missing input: a file or the database is missing or unreadable."
        case .unavailable: return "Unavailable: a daemon or a socket cannot be reached, trusted or set up."
        case .software: return "Internal error."
        case .ioError: return "I/O error."
        }
    }
}
