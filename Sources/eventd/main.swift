import Foundation
import CommandLineKit
import Feed
import Diagnostics
import Digests

// eventd: declarations and wiring; parsing is CommandLineKit's, the daemon is `Feed.Daemon`.
CryptoLibrary.initialiseWithoutExitCleanup()
let environment = ProcessInfo.processInfo.environment
let configuration: DaemonConfiguration
do {
    guard let (_, arguments) = try EventdOptions.spec.dispatch(Array(CommandLine.arguments.dropFirst())) else {
        exit(ExitStatus.success.rawValue)
    }
    configuration = try EventdOptions.configuration(arguments, environment: environment)
} catch {
    FileHandle.standardError.write(Data("eventd: \(ExitStatus.message(for: error))\n".utf8))
    exit(ExitStatus.for(error).rawValue)
}

let daemon = Daemon(config: configuration, environment: environment)
// The daemon runs on the cooperative pool; this thread waits, and the task ends the
// process with the status of how the daemon ended (no state shared between them).
Task.detached {
    do {
        try await daemon.run()
        exit(ExitStatus.success.rawValue)
    } catch {
        FileHandle.standardError.write(Data("<3>eventd: \(ExitStatus.message(for: error))\n".utf8))
        exit(ExitStatus.for(error).rawValue)
    }
}
DispatchSemaphore(value: 0).wait()
