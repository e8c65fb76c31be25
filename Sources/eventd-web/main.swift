import CLinux
import Foundation
import CommandErrors
import CommandLineKit
import Diagnostics
import Digests
import ServerOptions
import Threads
import WebGateway

// eventd-web: declarations and wiring; the gateway is `WebGateway.Gateway` and its loop.
// The lifecycle first: it blocks the signals it takes before any other thread starts.
let lifecycle = Lifecycle()
CryptoLibrary.initialiseWithoutExitCleanup()
let environment = ProcessInfo.processInfo.environment
let (loop, log) = WebOptions.spec.configure(table: .servers) { arguments in
    let log = Logger(level: WebOptions.logLevel(arguments))
    let systemd = GatewayListener.fromSystemd(environment: environment)
    let (config, madeToken) = try WebOptions.configuration(arguments, environment: environment, systemdSocket: systemd)
    let upstream = try UpstreamOptions.upstream(arguments, log: log, lifecycle: lifecycle)
    let assets = try StaticAssets(directory: WebOptions.assetsDirectory(arguments))
    let listenFD = try systemd?.fd ?? GatewayListener.create(config.listen)
    signal(SIGPIPE, SIG_IGN)
    // Answers and feed lines of 256 KiB and more from mmap, unmapped when written: glibc
    // otherwise raises this threshold to the largest block freed, and a budget's worth of
    // snapshot answers then fragmented the heap (peaks 1.3-1.7x the budget, idle RSS
    // growing with each round of unread answers).
    _ = mallopt(M_MMAP_THRESHOLD, 256 << 10)
    GatewayLoop.raiseDescriptorLimit()
    log.log(.info, "eventd-web \(ProductVersion.number): listening on \(config.listen)\(systemd == nil ? "" : " (the socket systemd passed)"); dashboard at \(config.listen.url)")
    // Once, on standard output and never in the log: the address that lets a browser in.
    if let madeToken {
        print(WebOptions.dashboardLine(config.listen, token: madeToken))
        fflush(nil)  // standard output may be a file or a pipe: out now, not at exit
    }
    return (try GatewayLoop(gateway: Gateway(config: config, assets: assets, now: MonotonicInstant.now()), listenFD: listenFD, log: log,
                            upstream: upstream), log)
}
// The loop runs on this thread, as the last service started: the lifecycle's stop ends
// its streams, and `run` returns once their last words are written (at most
// `GatewayLoop.drainDeadline`); then the Redis watchers, if any, stop. The lifecycle's
// thread ends the process.
let gateway = HostedService(name: "gateway", stopDeadline: GatewayLoop.drainDeadline + .milliseconds(300), stop: loop.stopper)
lifecycle.started(gateway)
_ = ServiceThread<Never>(name: "lifecycle") { _ in
    let reason = lifecycle.waitForStop()
    log.log(.notice, "received \(reason), stopping")
    lifecycle.stopServicesOrExit(log: log)
    log.log(.notice, "stopped")
    exit(ExitStatus.success.rawValue)
}
do { try gateway.run { try loop.run() } } catch { WebOptions.spec.fail(with: error, table: .servers) }
while true { pause() }
