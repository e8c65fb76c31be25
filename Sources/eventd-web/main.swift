import Foundation
import CommandLineKit
import Diagnostics
import Digests
import WebGateway

// eventd-web: declarations and wiring; the gateway is `WebGateway.Gateway` and its loop.
CryptoLibrary.initialiseWithoutExitCleanup()
let environment = ProcessInfo.processInfo.environment
do {
    guard let (_, arguments) = try WebOptions.spec.dispatch(Array(CommandLine.arguments.dropFirst()), version: WebOptions.version) else {
        exit(ExitStatus.success.rawValue)
    }
    let systemd = GatewayListener.fromSystemd(environment: environment)
    let config = try WebOptions.configuration(arguments, environment: environment, systemdSocket: systemd)
    let assets = try StaticAssets(directory: WebOptions.assetsDirectory(arguments))
    let listenFD = try systemd?.fd ?? GatewayListener.create(config.listen)
    signal(SIGPIPE, SIG_IGN)
    GatewayLoop.raiseDescriptorLimit()
    let log = Logger(level: WebOptions.logLevel(arguments))
    log.log(.info, "eventd-web \(WebOptions.version): listening on \(config.listen)\(systemd == nil ? "" : " (the socket systemd passed)"); dashboard at \(config.listen.url); eventd at \(config.socketPath)")
    let loop = try GatewayLoop(gateway: Gateway(config: config, assets: assets, now: GatewayLoop.monotonicNow()), listenFD: listenFD, log: log)
    try loop.run()
} catch {
    FileHandle.standardError.write(Data("eventd-web: \(ExitStatus.message(for: error))\n".utf8))
    exit(ExitStatus.for(error).rawValue)
}
