import Foundation
import CommandLineKit
import Feed
import Diagnostics
import Digests

// eventd: declarations and wiring; parsing is CommandLineKit's, the daemon is `Feed.Daemon`.
CryptoLibrary.initialiseWithoutExitCleanup()
let environment = ProcessInfo.processInfo.environment
let configuration = EventdOptions.spec.configure { try EventdOptions.configuration($0, environment: environment) }

let daemon = Daemon(config: configuration, environment: environment)
// The daemon runs on the cooperative pool; this thread waits, and the task ends the
// process with the status of how the daemon ended (no state shared between them).
Task.detached {
    do {
        try await daemon.run()
        exit(ExitStatus.success.rawValue)
    } catch {
        EventdOptions.spec.fail(with: error, linePrefix: "<3>")
    }
}
DispatchSemaphore(value: 0).wait()
