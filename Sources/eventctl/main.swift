import Foundation
import Support

// eventctl: the command-line tool. Argument parsing and wiring only; the work is
// done by EventStore, ICalendar and Agenda.
let status = EventCTL.main(Array(CommandLine.arguments.dropFirst()))
exit(status)
