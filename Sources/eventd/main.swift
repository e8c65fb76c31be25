import Foundation
import Agenda
import Feed
import Support

// eventd: argument parsing and wiring; the daemon itself is `Feed.Daemon`.
let arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessInfo.processInfo.environment
let configuration: DaemonConfiguration
switch EventdOptions.parse(arguments, environment: environment) {
case .help:
    print(EventdOptions.help)
    exit(0)
case .version:
    print("eventd 0.1.0")
    exit(0)
case .failure(let error):
    FileHandle.standardError.write(Data("eventd: \(error.message)\(error.hint.map { " (\($0))" } ?? "")\n".utf8))
    exit(ExitStatus.usage.rawValue)
case .run(let config):
    configuration = config
}

let daemon = Daemon(config: configuration, environment: environment)
let done = DispatchSemaphore(value: 0)
nonisolated(unsafe) var status: Int32 = 0
Task.detached {
    do {
        try await daemon.run()
    } catch {
        FileHandle.standardError.write(Data("<3>eventd: \(error)\n".utf8))
        status = (error is SocketSetupError) ? ExitStatus.unavailable.rawValue : ExitStatus.software.rawValue
        if "\(error)".contains("SQLite") || "\(error)".contains("database") { status = ExitStatus.ioError.rawValue }
    }
    done.signal()
}
done.wait()
exit(status)
