import Diagnostics

extension Option {
    /// `--log-level LEVEL`, eventd's and eventd-web's journal threshold.
    public static let logLevel = Option.value(
        "--log-level", "LEVEL", as: LogLevel.self, help: "debug, info, notice, warning or error (default: info).",
        completion: .choices(LogLevel.allCases.reversed().map(\.description)),
        validation: .custom { LogLevel($0) == nil ? "invalid value '\($0)' for --log-level: expected debug, info, notice, warning or error" : nil })
}
