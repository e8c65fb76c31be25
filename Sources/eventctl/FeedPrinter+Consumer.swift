import FeedClientKit
import FeedProtocol

/// `eventctl subscribe --format ndjson|pretty`: the subscription's effects printed.
extension FeedPrinter: SubscriptionDriver.Consumer {
    mutating func handle(_ effect: SubscriptionMachine.Effect) {
        switch effect {
        case .line(let line):
            heard = true
            raw(line)
        case .snapshot(let state):
            snapshot(state)
        case .diff(let message, let state):
            diff(message, state: state)
        case .digestMismatch(let seq):
            printError("digest mismatch at seq \(seq); subscribing again")
        case .resync(let reason):
            if format == .pretty { printStandardError("resync (\(reason)): a fresh snapshot follows") }
        case .lost(let reason):
            if heard { printStandardError("eventctl: \(reason); reconnecting and resuming") }
            heard = false
        case .stale:
            printStandardError("eventctl: nothing from the daemon for a while; reconnecting and resuming")
            heard = false
        default:
            break
        }
    }

    func secondsUntilWake() -> Double? { nil }
    func wake() {}
}
