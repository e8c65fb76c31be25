import Foundation
import Synchronization
import CanonicalJSON
import FeedClientKit
import FeedProtocol
import Threads

/// What the subscription thread tells the screen's loop.
enum FeedNews: Sendable {
    /// A fresh (`snapshot`: a (re)subscription's) or advanced local copy (its digest
    /// checked by the machine).
    case state(FeedClientState, snapshot: Bool)
    /// The calendars' own colours from eventd's status (`CalendarColorReader`).
    case colors([String: CalendarPalette.RGB])
    /// The connection is gone (or never came): the last copy is all there is.
    case lost(String)
    /// The daemon is heard again (the first line of a new connection).
    case heard
    /// The subscription ended: the daemon refused it, or the socket is not to be trusted.
    case ended(any Error)
}

/// Runs one subscription (`SubscriptionDriver`, the project's machine: resume after a
/// reconnect, resync on a gap, digest checks) on a thread of its own, posting what the
/// screen needs to a mailbox that wakes the loop. A new view (other days) starts a new
/// forwarder; the old one's thread ends at its next message (a heartbeat at the latest).
final class FeedForwarder: Sendable {
    private let retired = Atomic<Bool>(false)

    /// Starts the thread subscribing to `view`.
    init(view: ViewFields, open: @escaping @Sendable () throws -> FeedSocket, mailbox: Mailbox<FeedNews>) {
        let configuration = SubscriptionMachine.Configuration(view: view, initialBackoff: 0.2, maxBackoff: 2)
        let thread = Thread { [self] in
            var consumer = Consumer(owner: self, mailbox: mailbox)
            let driver = SubscriptionDriver(configuration, open: open)
            do {
                // The consumer has posted the failure the run returns.
                _ = try driver.run(&consumer)
            } catch is Retired {
                return
            } catch {
                if !isRetired { mailbox.post(.ended(error)) }
            }
        }
        thread.name = "watch feed"
        thread.start()
    }

    var isRetired: Bool { retired.load(ordering: .relaxed) }

    /// Stops posting; the thread ends at its next effect.
    func retire() { retired.store(true, ordering: .relaxed) }

    struct Retired: Error {}

    struct Consumer: SubscriptionDriver.Consumer {
        let owner: FeedForwarder
        let mailbox: Mailbox<FeedNews>
        var lost = true

        mutating func handle(_ effect: SubscriptionMachine.Effect) throws {
            if owner.isRetired { throw Retired() }
            switch effect {
            case .snapshot(let state):
                lost = false
                mailbox.post(.state(state, snapshot: true))
            case .diff(_, let state):
                lost = false
                mailbox.post(.state(state, snapshot: false))
            case .line:
                if lost {
                    lost = false
                    mailbox.post(.heard)
                }
            case .lost(let reason):
                lost = true
                mailbox.post(.lost(reason))
            case .stale:
                lost = true
                mailbox.post(.lost("no word from eventd for too long"))
            case .failed(let failure):
                mailbox.post(.ended(failure))
            default:
                return
            }
        }

        func secondsUntilWake() -> Double? { nil }
        mutating func wake() throws {}
    }
}
