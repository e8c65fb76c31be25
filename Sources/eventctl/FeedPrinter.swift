import Foundation
import AgendaText
import FeedProtocol
import ICalendar
import Diagnostics

/// Prints feed messages: every line as received (ndjson), or readable changes (pretty),
/// with calendar text made safe for the terminal (`TerminalText`).
struct FeedPrinter {
    var format: SubscribeCommand.Format
    var color: Bool
    /// Whether anything came since the connection was (re)made: a lost connection is
    /// reported once, not at every attempt while the daemon is down.
    var heard = false
    /// Every item of the last state by id, with its section: a deletion is shown with what
    /// it deleted (the diff names only the id, and the new state no longer has it).
    var lastKnown: [String: (item: FeedItem, section: String)] = [:]

    func raw(_ line: [UInt8]) {
        guard format == .ndjson else { return }
        FileHandle.standardOutput.write(Data(line + [10]))
    }

    mutating func remember(_ state: FeedClientState) {
        lastKnown = [:]
        for section in state.model.sections {
            for item in section.items { lastKnown[item.id] = (item.content, section.id) }
        }
    }

    mutating func snapshot(_ state: FeedClientState) {
        guard format == .pretty else { return }
        defer { remember(state) }
        let count = state.model.itemCount
        emit("= snapshot seq \(state.seq): \(state.model.sections.count) day(s), \(count) item(s)")
        for section in state.model.sections {
            for item in section.items { emit("  " + describe(item.content, section: section.id)) }
        }
    }

    mutating func diff(_ message: FeedMessage.Diff, state: FeedClientState) {
        guard format == .pretty else { return }
        defer { remember(state) }
        emit("= diff seq \(message.seq)")
        // Typed, as the local copy read them (it applied them already).
        let changes = message.changes
        for id in changes.sections.deleted { emit(style("- day \(day(id))", "31")) }
        for x in changes.sections.inserted {
            emit(style("+ day \(day(x.section.id))", "32"))
            for item in x.section.items { emit(style("+ " + describe(item.content, section: x.section.id), "32")) }
        }
        for x in changes.sections.updated {
            emit("~ day \(day(x.id)) is now \((x.content.label ?? "unlabelled").terminalSafe)")
        }
        for x in changes.items.deleted {
            emit(style("- " + (lastKnown[x.id].map { describe($0.item, section: x.section) } ?? "\(x.id.terminalSafe) (\(day(x.section)))"), "31"))
        }
        for x in changes.items.inserted { emit(style("+ " + describe(x.item.content, section: x.section), "32")) }
        for x in changes.items.moved {
            let item = state.model.item(withID: x.id)?.content
            emit(style("~ moved " + (item.map { describe($0, section: x.to.section) } ?? x.id.terminalSafe), "33"))
        }
        for x in changes.items.updated { emit(style("~ " + describe(x.item.content, section: x.section), "33")) }
    }

    /// The item as `agenda` words it, with its date (`AgendaLine.change`):
    /// `09:00–10:00 Standup (Mon 30 Nov)`, `…–01:00 Maintenance ← (Sun 6 Dec)`.
    func describe(_ item: FeedItem, section: String) -> String {
        if item.kind == .placeholder { return "\(AgendaLine.nothing) (\(day(section)))" }
        return AgendaLine(item).change(on: day(section))
    }

    func day(_ iso: String) -> String {
        CivilDate(iso: iso).map(AgendaWords.shortDate) ?? iso.terminalSafe
    }

    func style(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }

    func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
