import Foundation
import CommandLineKit
import EventStore
import LiveSources

/// `eventctl source add|list|remove|sync` (docs/live-sources.md): calendars that update
/// themselves. The action is the first argument; its options are declared here once.
struct SourceCommand: Subcommand {
    enum Action: String, CaseIterable {
        case add, list, remove, sync
    }

    static let spec = CommandSpec(
        "eventctl source", abstract: "Follow calendars that update themselves (ICS URLs, vdirs, files).",
        overview: "Add, list, remove and synchronise live sources: ICS URLs, vdirs and watched files.",
        discussion: """
        add URL|DIR|FILE: a URL (https, http, webcal, webcals) is fetched every --every;
        a vdir, a vdirsyncer collection (one source per subdirectory) or a file is watched.
        The first sync runs at once (in the daemon when one runs, else here).
        list: every source with its state. remove NAME: the source and its events.
        sync [NAME]...: synchronise now (all when none named), backoff or not.
        A URL is shown only as scheme://host:port/…. A URL with a password or a secret
        need not be on the command line (where ps shows it): give "-" to read it from
        standard input, or --url-file PATH.
        """,
        usage: "eventctl source add|list|remove|sync [<target>...] [--calendar NAME] [--every DURATION] [--json]",
        arguments: [
            Positional("<action>", help: "add, list, remove or sync.", completion: .choices(Action.allCases.map(\.rawValue))),
            Positional("<target>", help: "add: a URL, directory or file; remove: a source name;\nsync: source names (none: all).",
                       completion: .file(extension: "ics"), repeatable: true),
        ],
        options: [calendar, every, urlFile, json],
        examples: [
            "eventctl source add 'https://calendar.google.com/calendar/ical/…/basic.ics' --calendar work",
            "eventctl source add ~/.local/share/vdirsyncer/calendars",
            "printf '%s\\n' \"$URL\" | eventctl source add - --calendar team",
            "eventctl source list",
            "eventctl source sync work",
            "eventctl source remove work",
        ])

    static let calendar = Option.value(
        "--calendar", "NAME", help: "add: the source's name and calendar (default: from the URL,\nfile or directory).",
        completion: .calendar,
        validation: .custom { isValidCalendarName($0) ? nil : "invalid calendar name '\($0)': use 1-64 characters of A-Z a-z 0-9 . _ -" })
    static let every = Option.value(
        "--every", "DURATION", help: "add: how often a URL is fetched (default 15m; at least 30s;\ns/m/h/d or ISO 8601 such as PT15M).",
        validation: .custom { text in
            guard let seconds = DurationText.seconds(text) else { return "invalid value '\(text)' for --every: expected a duration such as 15m or PT15M" }
            return seconds < LiveSourceDefaults.minimumEvery ? "invalid value '\(text)' for --every: at least 30s" : nil
        })
    static let urlFile = Option.value(
        "--url-file", "PATH", help: "add: read the URL from the first line of this file (not the\ncommand line, where ps shows it).",
        completion: .file())
    static let json = Option.flag("--json", help: "Print the result as JSON.")

    var action: Action
    var targets: [String]
    var calendar: String?
    var every: Int64
    var json: Bool
    /// `--url-file`: where `add` reads its URL.
    var urlFile: String?

    init(_ arguments: ParsedArguments) throws {
        guard let word = arguments.positionals.first, let action = Action(rawValue: word) else {
            throw UsageError("unknown action '\(arguments.positionals.first ?? "")': expected add, list, remove or sync",
                             hint: "see 'eventctl source --help'")
        }
        self.action = action
        targets = Array(arguments.positionals.dropFirst())
        calendar = arguments[Self.calendar]
        every = arguments[Self.every].flatMap(DurationText.seconds) ?? LiveSourceDefaults.every
        json = arguments[Self.json]
        urlFile = arguments[Self.urlFile]
        try checkCombination(arguments)
    }

    /// The options and argument counts each action takes.
    private func checkCombination(_ arguments: ParsedArguments) throws {
        let hint = "usage: eventctl source \(action.rawValue)" + [
            .add: " URL|DIR|FILE|- [--calendar NAME] [--every DURATION] [--json], or --url-file PATH", .list: " [--json]",
            .remove: " NAME", .sync: " [NAME]... [--json]",
        ][action]!
        switch action {
        case .add:
            let fromFile = arguments.has(Self.urlFile)
            if targets.count != (fromFile ? 0 : 1) {
                throw UsageError(fromFile ? "source add takes no target with --url-file" : "source add takes one URL, directory or file",
                                 hint: hint)
            }
        case .list: if !targets.isEmpty { throw UsageError("source list takes no argument", hint: hint) }
        case .remove: if targets.count != 1 { throw UsageError("source remove takes one source name", hint: hint) }
        case .sync: break
        }
        for option in [Self.calendar, Self.every, Self.urlFile] where action != .add && arguments.has(option) {
            throw UsageError("\(option.option.name) applies to source add only", hint: hint)
        }
        if action == .remove, json { throw UsageError("--json does not apply to source remove", hint: hint) }
    }

    func run(_ env: CommandEnvironment) throws {
        switch action {
        case .add: try add(env)
        case .list: try list(env)
        case .remove: try remove(env)
        case .sync: try sync(env, names: targets)
        }
    }
}
