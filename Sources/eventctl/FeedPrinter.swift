import Foundation
import Agenda
import FeedProtocol
import ICalendar
import CanonicalJSON
import Diagnostics

/// Prints feed messages: every line as received (ndjson), or readable changes (pretty),
/// with calendar text made safe for the terminal (`TerminalText`).
struct FeedPrinter {
    var format: SubscribeCommand.Format
    var color: Bool
    /// Whether anything came since the connection was (re)made: a lost connection is
    /// reported once, not at every attempt while the daemon is down.
    var heard = false

    func raw(_ line: [UInt8]) {
        guard format == .ndjson else { return }
        FileHandle.standardOutput.write(Data(line + [10]))
    }

    func snapshot(_ state: FeedClientState) {
        guard format == .pretty else { return }
        let count = state.model.itemCount
        emit("= snapshot seq \(state.seq): \(state.model.sections.count) day(s), \(count) item(s)")
        for section in state.model.sections {
            for item in section.items { emit("  " + describe(item.content, section: section.id)) }
        }
    }

    func diff(_ message: FeedMessage.Diff, state: FeedClientState) {
        guard format == .pretty else { return }
        emit("= diff seq \(message.seq)")
        // Typed, as the local copy read them (it applied them already).
        guard let changes = try? FeedChanges.read(message.changes) else { return }
        for id in changes.sections.deleted { emit(style("- day \(day(id))", "31")) }
        for x in changes.sections.inserted {
            emit(style("+ day \(day(x.section.id))", "32"))
            for item in x.section.items { emit(style("+ " + describe(item.content, section: x.section.id), "32")) }
        }
        for x in changes.sections.updated {
            emit("~ day \(day(x.id)) is now \((x.content["label"]?.stringValue ?? "unlabelled").terminalSafe)")
        }
        for x in changes.items.deleted { emit(style("- \(x.id.terminalSafe) (\(day(x.section)))", "31")) }
        for x in changes.items.inserted { emit(style("+ " + describe(x.item.content, section: x.section), "32")) }
        for x in changes.items.moved {
            let item = state.model.item(withID: x.id)?.content
            emit(style("~ moved " + (item.map { describe($0, section: x.to.section) } ?? x.id.terminalSafe), "33"))
        }
        for x in changes.items.updated { emit(style("~ " + describe(x.item.content, section: x.section), "33")) }
    }

    /// `09:00 Standup (Mon 30 Nov)`.
    func describe(_ json: JSONValue, section: String) -> String {
        let item = FeedItem(json)
        if item.kind == .placeholder { return "(nothing) (\(day(section)))" }
        let summary = (item.summary ?? "(no title)").terminalSafe
        let time: String
        if item.allDay {
            time = "all day"
        } else if let start = item.start, start.count >= 16 {
            let i = start.index(start.startIndex, offsetBy: 11)
            time = String(start[i..<start.index(i, offsetBy: 5)])
        } else {
            time = "?"
        }
        return "\(time) \(summary) (\(day(section)))"
    }

    func day(_ iso: String) -> String {
        guard let d = CivilDate(iso: iso) else { return iso.terminalSafe }
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return "\(weekdays[d.weekday]) \(d.day) \(months[d.month - 1])"
    }

    func style(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }

    func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
