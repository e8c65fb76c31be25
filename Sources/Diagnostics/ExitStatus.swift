/// Exit statuses of docs/data-model.md (sysexits.h).
public enum ExitStatus: Int32, Sendable {
    case success = 0
    case usage = 64
    case dataError = 65
    case noInput = 66
    case unavailable = 69
    case software = 70
    case ioError = 74
}
