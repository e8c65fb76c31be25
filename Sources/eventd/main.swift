import Foundation
import CommandErrors
import CommandLineKit
import Feed
import Diagnostics
import Digests
import FeedClientKit
import RedisRelay
import ServerOptions
import Threads

// eventd: declarations and wiring; parsing is CommandLineKit's, the daemon is `Feed.Daemon`.
// The lifecycle first: it blocks the signals it takes before any other thread starts.
let lifecycle = Lifecycle()
CryptoLibrary.initialiseWithoutExitCleanup()
let environment = ProcessInfo.processInfo.environment
let (configuration, publishing) = EventdOptions.spec.configure(table: .servers) {
    (try EventdOptions.configuration($0, environment: environment), try PublishOptions.publishing($0))
}
let log = Logger(level: configuration.logLevel)
let daemon = Daemon(config: configuration, environment: environment)
do { try daemon.start(in: lifecycle) } catch { EventdOptions.spec.fail(with: error, table: .servers, linePrefix: "<3>") }
// --publish: a subscriber of the daemon's own socket per published view, feeding Redis
// from threads of its own (the feed loop never waits for Redis); stopped first.
if let publishing {
    if let warning = RedisOptions.openServerWarning(publishing.target) { log.warning(warning) }
    let relay = RedisRelay(connector: FeedSocketConnector(path: configuration.socketPath, trustedPeers: [getuid()]),
                           target: publishing.target, settings: publishing.settings, logger: log)
    // The relay's own stop ends its threads (its subscribers, then the publisher).
    lifecycle.started("relay") { relay.stop() }
}
#if DEBUG
// Debug builds only, for the tests of a stuck stop (a second signal, the overall
// deadline): a service, stopped first, whose stop never ends.
if environment["EVENTD_TEST_STUCK_STOP"] != nil {
    lifecycle.started("stuck stop (test)", stopDeadline: .seconds(60)) { while true { sleep(60) } }
}
#endif
let reason = lifecycle.waitForStop(reload: { daemon.reload() })
log.notice(reason.hasPrefix("SIG") ? "received \(reason), stopping" : "\(reason), stopping")
lifecycle.stopServicesOrExit(log: log)
if let failure = daemon.failure { EventdOptions.spec.fail(with: failure, table: .servers, linePrefix: "<3>") }
log.notice("stopped")
exit(ExitStatus.success.rawValue)
