import Foundation
import Agenda
import CommandLineKit
import FeedProtocol
import StatusBar

/// `eventctl subscribe [view options] [--resume EPOCH:SEQ] [--format ndjson|pretty|waybar|i3bar|line]`
struct SubscribeCommand: Subcommand {
    static let spec = CommandSpec(
        "eventctl subscribe", abstract: "Follow the live agenda feed.",
        overview: "Subscribe to a view and follow its changes.",
        discussion: """
        Keeps a local copy of the view, applies every diff and checks its digest; on a
        mismatch it says so on standard error and subscribes again. When the daemon
        restarts, it reconnects and resumes where it left off.
        """,
        options: ViewOptions.declarations + [resume, format, template, soon, allDay],
        examples: [
            "eventctl subscribe --format pretty",
            "eventctl subscribe --days 7 --calendar work | jq -c 'select(.type == \"diff\")'",
            "eventctl subscribe --format waybar --days 2 --calendar work",
            "eventctl subscribe --format line --template '{start} {summary}'",
        ])

    static let resume = Option.value(
        "--resume", "EPOCH:SEQ", help: "Resume from a state seen before (see the daemon's epoch).",
        validation: .custom { position($0) == nil ? "invalid value '\($0)' for --resume: expected EPOCH:SEQ" : nil })
    static let format = Option.value(
        "--format", "FORMAT", help: "ndjson (default: every message line as received), pretty, or for status bars waybar, i3bar or line.",
        details: """
        pretty shows human-readable changes; waybar writes one JSON object per line for Waybar's custom module
        with return-type json; i3bar speaks the i3bar/swaybar protocol; line writes one plain line per update.
        Status bar formats write a line when what it shows changes, at a change of the feed or at the turn of a
        minute; while eventd is down they show the last known state with the class stale.
        """,
        completion: .choices(["ndjson", "pretty"] + BarFormat.allCases.map(\.rawValue)))
    static let template = Option.value(
        "--template", "TEMPLATE",
        help: "Status bar text with fields {summary} {start} {end} {location} {calendar} {minutes_until} {minutes_left}.",
        validation: .custom { text in
            do { _ = try BarTemplate(text); return nil } catch { return "\(error)" }
        })
    static let soon = Option.value(
        "--soon", "DURATION", help: "Status bars: an event starting within this is 'soon' (default: 15m).",
        validation: .custom { BarOptions.duration($0) == nil ? "invalid duration '\($0)' for --soon: expected e.g. 15m, 1h, 90s" : nil })
    static let allDay = Option.value(
        "--all-day", "MODE",
        help: "Status bars: when-free (default: all-day events only when nothing timed is left today) or always.",
        completion: .choices(BarOptions.AllDay.allCases.map(\.rawValue)))

    enum Format: String { case ndjson, pretty, waybar, i3bar, line }

    var options: ViewOptions
    var format: Format
    var resume: (epoch: String, seq: Int64)?

    init(_ arguments: ParsedArguments) {
        options = ViewOptions(arguments)
        format = arguments[Self.format].flatMap(Format.init(rawValue:)) ?? .ndjson
        resume = arguments[Self.resume].flatMap(Self.position)
        bar = BarOptions(soon: arguments[Self.soon].flatMap(BarOptions.duration) ?? 15 * 60,
                         allDay: arguments[Self.allDay].flatMap(BarOptions.AllDay.init(rawValue:)) ?? .whenFree,
                         template: arguments[Self.template].flatMap { try? BarTemplate($0) })
    }

    var bar: BarOptions

    /// `EPOCH:SEQ`, or nil when the text is not one.
    static func position(_ text: String) -> (epoch: String, seq: Int64)? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let seq = Int64(parts[1]) else { return nil }
        return (String(parts[0]), seq)
    }

    func run(_ env: CommandEnvironment) throws {
        // Checked as agenda checks them (exit 65, the calendars named).
        try StoreAccess.requireCalendars(options.calendars, env) {
            (try? DaemonConnection.answer(to: .status, on: DaemonConnection.open(env), timeout: .seconds(2))).flatMap { FeedStatus($0) }?.calendarNames
        }
        let options = options.resolved(environment: env.environment)
        let position = resume.map { Request.Resume(epoch: $0.epoch, seq: $0.seq) }
        if let barFormat = BarFormat(rawValue: format.rawValue) {
            // A status bar needs today and tomorrow whatever the default window.
            var view = options
            view.days = max(view.days ?? 2, 2)
            try BarSubscription(renderer: BarRenderer(format: barFormat, options: bar)).run(env, view: view.fields, resume: position)
            return
        }
        var printer = FeedPrinter(format: format, color: isatty(1) != 0 && (env.environment["NO_COLOR"] ?? "").isEmpty)
        try FeedFollower(view: options.fields, resume: position, waitForDaemon: false).run(env, &printer)
    }
}
