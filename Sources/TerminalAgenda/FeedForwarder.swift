import Foundation
import Synchronization
import FeedClientKit
import FeedProtocol
import Threads
#if canImport(Glibc)
import Glibc
#endif

/// What the subscription thread tells the screen's loop.
enum FeedNews: Sendable {
    /// A fresh (`snapshot`: a (re)subscription's) or advanced local copy (its digest
    /// checked by the machine).
    case state(FeedClientState, snapshot: Bool)
    /// The calendars' own colours from eventd's status (`CalendarColorReader`).
    case colors([String: CalendarPalette.RGB])
    /// eventd's calendars and their colours, sent when either changed.
    case calendars([String], colors: [String: CalendarPalette.RGB])
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
/// forwarder and stops the old one. A stop shuts the socket in use down, so a blocked
/// read returns at once; without a connection the thread looks at its stop every
/// 100 ms (`Consumer.secondsUntilWake`).
final class FeedForwarder: Service {
    let name = "watch feed"
    let stopDeadline: Duration = .seconds(1)
    private let retired = Atomic<Bool>(false)
    private let view: ViewFields
    private let open: @Sendable () throws -> FeedSocket
    private let mailbox: Mailbox<FeedNews>
    private let thread = Mutex<ServiceThread<Never>?>(nil)

    /// A forwarder for `view`, not started yet.
    init(view: ViewFields, open: @escaping @Sendable () throws -> FeedSocket, mailbox: Mailbox<FeedNews>) {
        self.view = view
        self.open = open
        self.mailbox = mailbox
    }

    /// Starts the thread subscribing to the view.
    func start() {
        var asked = SubscriptionMachine.Configuration(view: view, initialBackoff: .milliseconds(200), maxBackoff: .seconds(2))
        // A colour set with `calendars --color` recolours the screen at once.
        asked.calendars = true
        let configuration = asked
        let (open, mailbox) = (open, mailbox)
        thread.withLock { $0 = ServiceThread<Never>(name: "watch feed") { [self] thread in
            var consumer = Consumer(owner: self, mailbox: mailbox)
            let driver = SubscriptionDriver(configuration) {
                let socket = try open()
                // Until the next connection replaces it (the driver drops a socket only to
                // open another, or to end). Between a drop and the next open the number
                // may name another descriptor: a stop (an exit, a change of days) then at
                // worst fails one status request of the colour reader, asked again within
                // the minute (on anything but a socket, `shutdown` does nothing).
                let fd = socket.fd
                thread.onStop { shutdown(fd, Int32(SHUT_RDWR)) }
                return socket
            }
            do {
                // The consumer has posted the failure the run returns.
                _ = try driver.run(&consumer)
            } catch is Retired {
                return
            } catch {
                if !isRetired { mailbox.post(.ended(error)) }
            }
        } }
    }

    var isRetired: Bool { retired.load(ordering: .relaxed) }

    /// Stops posting and ends the thread (returns at once).
    func requestStop() {
        retired.store(true, ordering: .relaxed)
        thread.withLock { $0 }?.requestStop()
    }

    func join(deadline: Duration) -> Bool { thread.withLock { $0 }?.join(deadline: deadline) ?? true }

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
            case .calendars(let list):
                mailbox.post(.calendars(list.names, colors: CalendarPalette.colors(from: list.colors)))
            default:
                return
            }
        }

        /// While there is no live connection (a backoff's sleep), the driver looks every
        /// 100 ms whether the forwarder was stopped (then at once: `wake` ends the run); a
        /// connected thread is woken by its socket's shutdown.
        func secondsUntilWake() -> Double? {
            if owner.isRetired { return 0 }
            return lost ? 0.1 : nil
        }
        mutating func wake() throws {
            if owner.isRetired { throw Retired() }
        }
    }
}
