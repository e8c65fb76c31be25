import Foundation
import Digests

// eventctl: the command-line tool. Declarations and wiring only; parsing is
// CommandLineKit's, the work is done by EventStore, ICalendar and Agenda.
CryptoLibrary.initialiseWithoutExitCleanup()
exit(EventCTL.main(Array(CommandLine.arguments.dropFirst())))
