import Foundation
import Diagnostics

extension CommandSpec {
    /// The start of a daemon's `main`: parses the process's arguments and returns what
    /// `configure` makes of them. `--help`, `--version` and `__man` print and exit 0; a
    /// usage or configuration error exits through `fail(with:)`.
    public func configure<Configuration>(_ configure: (ParsedArguments) throws -> Configuration) -> Configuration {
        let parsed: (command: CommandSpec, arguments: ParsedArguments)?
        do { parsed = try dispatch(Array(CommandLine.arguments.dropFirst())) } catch { fail(with: error) }
        guard let arguments = parsed?.arguments else { Foundation.exit(ExitStatus.success.rawValue) }
        do { return try configure(arguments) } catch { fail(with: error) }
    }

    /// Writes `error` as one line (`PROGRAM: message`, after `linePrefix`, such as a
    /// journal level) on standard error and exits with its status.
    public func fail(with error: any Error, linePrefix: String = "") -> Never {
        FileHandle.standardError.write(Data("\(linePrefix)\(name): \(ExitStatus.message(for: error))\n".utf8))
        Foundation.exit(ExitStatus.for(error).rawValue)
    }
}

extension Option {
    /// `--log-level LEVEL`, eventd's and eventd-web's journal threshold.
    public static let logLevel = Option.value(
        "--log-level", "LEVEL", as: LogLevel.self, help: "debug, info, notice, warning or error (default: info).",
        completion: .choices(LogLevel.allCases.reversed().map(\.description)),
        validation: .custom { LogLevel($0) == nil ? "invalid value '\($0)' for --log-level: expected debug, info, notice, warning or error" : nil })
}
