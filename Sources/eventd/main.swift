import Foundation
import CommandLineKit
import Feed
import Diagnostics
import Digests
import FeedClientKit
import RedisRelay

// eventd: declarations and wiring; parsing is CommandLineKit's, the daemon is `Feed.Daemon`.
CryptoLibrary.initialiseWithoutExitCleanup()
let environment = ProcessInfo.processInfo.environment
let (configuration, publishing) = EventdOptions.spec.configure {
    (try EventdOptions.configuration($0, environment: environment), try PublishOptions.publishing($0))
}

let daemon = Daemon(config: configuration, environment: environment)
// --publish: a subscriber of the daemon's own socket per published view, feeding Redis
// from threads of its own (the feed loop never waits for Redis). Lives as long as the process.
let relay = publishing.map { p in
    RedisRelay(connector: FeedSocketConnector(path: configuration.socketPath, trustedPeers: [getuid()]),
               target: p.target, settings: p.settings, logger: Logger(level: configuration.logLevel))
}
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
