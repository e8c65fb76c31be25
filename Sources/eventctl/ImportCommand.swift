import Foundation
import CLinux
import CommandLineKit
import EventStore
import ICalendar
import CanonicalJSON
import Diagnostics

/// `eventctl import FILE... [--calendar NAME] [--replace] [--strict] [--json]`
struct ImportCommand: Subcommand {
    static let spec = CommandSpec(
        "eventctl import", abstract: "Import iCalendar files into a calendar.",
        overview: "Import iCalendar (.ics) files into the database.",
        discussion: """
        Each file synchronises its calendar: events it no longer contains are removed.
        All files are imported in one transaction: all of them, or none.
        """,
        arguments: [Positional("<file>", help: "An .ics file, or - for standard input.", completion: .file(extension: "ics"),
                               repeatable: true)],
        options: [calendar, replace, strict, json],
        examples: [
            "eventctl import ~/Downloads/work.ics",
            "eventctl import holidays.ics --calendar holidays --replace",
            "curl -s https://example.com/team.ics | eventctl import - --calendar team",
        ])

    static let calendar = Option.value(
        "--calendar", "NAME", help: """
        Target calendar (default: the file's name without extension;
        "stdin" for -). 1-64 characters of A-Z a-z 0-9 . _ -
        """, completion: .calendar,
        validation: .custom { isValidCalendarName($0) ? nil : "invalid calendar name '\($0)': use 1-64 characters of A-Z a-z 0-9 . _ -" })
    static let replace = Option.flag("--replace", help: "Make the calendar hold exactly these files' events.")
    static let strict = Option.flag("--strict", help: "Treat warnings (skipped or partly ignored components) as errors.")
    static let json = Option.flag("--json", help: "Print the per-file counts as JSON.")

    var files: [String]
    var calendar: String?
    var replace: Bool
    var strict: Bool
    var json: Bool

    init(_ arguments: ParsedArguments) {
        files = arguments.positionals
        calendar = arguments[Self.calendar]
        replace = arguments[Self.replace]
        strict = arguments[Self.strict]
        json = arguments[Self.json]
    }

    func run(_ env: CommandEnvironment) throws {
        // Blocks of 1 MiB and more (the file's bytes, the parser's line and block tables,
        // the writer's row index) from mmap, given back to the kernel when freed. glibc's
        // default raises this threshold to the size of each such block freed, so the
        // large temporaries of the parse stayed in the heap and the peak RSS carried
        // them (about 37 MiB more for the 100k-event file).
        _ = mallopt(M_MMAP_THRESHOLD, 1 << 20)
        var inputs: [ImportInput] = []
        for file in files {
            inputs.append(try readInput(file))
        }
        // No memory map: after the import, the calendar counts and the close's checkpoint
        // read the file's new pages, and mapped they counted in the resident size (the
        // 100k-event file's import peaked at 152 MiB instead of about 115).
        let store = try StoreAccess.openOrCreate(env, mmapBytes: 0)
        let started = Date()
        let progress = ProgressBar(enabled: isatty(2) != 0, start: started)
        let results: [FileImportResult]
        do {
            // Another writer holding the database past the busy timeout: the transaction
            // rolled back whole, so run it again (a few times, backing off).
            var attempt = 0
            while true {
                do {
                    results = try store.importCalendars(inputs, options: ImportOptions(replace: replace, strict: strict)) { fraction in
                        progress.update(fraction)
                    }
                    break
                } catch let error as SQLiteError where error.isBusy && attempt < 5 {
                    attempt += 1
                    usleep(useconds_t(200_000 * attempt))
                }
            }
            progress.finish()
        } catch let error as ImportError {
            progress.finish()
            if case .invalidCalendarName = error { throw UsageError(error.description + "; pass --calendar NAME") }
            throw error
        } catch let error as SQLiteError {
            progress.finish()
            throw DatabaseFailure(path: store.path, underlying: error)
        }
        // Printed only now: `importCalendars` returned after its commit was fsynced
        // (`synchronous = FULL`, docs/reliability.md), so what is said here is on disk.
        for result in results {
            for warning in result.warnings {
                printError("\(result.displayName):\(warning.line): warning: \(warning.message)")
            }
        }
        if json {
            var w = JSONWriter()
            w.beginObject()
            w.key("files")
            w.beginArray()
            for r in results {
                w.beginObject()
                w.key("added"); w.int(r.added)
                w.key("calendar"); w.string(r.calendar)
                w.key("file"); w.string(r.displayName)
                w.key("removed"); w.int(r.removed)
                w.key("skipped"); w.int(r.skipped)
                w.key("unchanged"); w.int(r.unchanged)
                w.key("updated"); w.int(r.updated)
                w.key("warnings")
                w.beginArray()
                for warning in r.warnings {
                    w.beginObject(); w.key("line"); w.int(warning.line); w.key("message"); w.string(warning.message); w.endObject()
                }
                w.endArray()
                w.endObject()
            }
            w.endArray()
            w.endObject()
            print(w.string)
        } else {
            for r in results {
                print("\(r.displayName.terminalSafe): \(r.added) added, \(r.updated) updated, \(r.removed) removed, \(r.skipped) skipped")
            }
        }
        if !replace { noticeOtherSources(store, imported: inputs) }
        if results.contains(where: \.changedAnything) {
            DaemonNotifier.requestRefresh(env)
        }
    }

    /// A calendar fed by another file keeps that file's events beside these (an edited
    /// copy under a new name adds, it does not replace): said once per calendar, on stderr.
    func noticeOtherSources(_ store: EventStore, imported: [ImportInput]) {
        guard let calendars = try? store.calendars() else { return }
        for name in Set(imported.map(\.calendar)).sorted() {
            let paths = Set(imported.filter { $0.calendar == name }.map(\.path))
            guard let others = calendars.first(where: { $0.name == name })?.sources.filter({ !paths.contains($0) }),
                  !others.isEmpty else { continue }
            let shown = others.prefix(3).joined(separator: ", ") + (others.count > 3 ? " and \(others.count - 3) more" : "")
            printError("notice: calendar \(name) also holds the events of \(shown); "
                       + "to make it hold only what was imported now, import again with --replace")
        }
    }

    func readInput(_ file: String) throws -> ImportInput {
        if file == "-" {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            return ImportInput(path: "-", displayName: "<stdin>", bytes: [UInt8](data), calendar: calendar ?? "stdin")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else {
            throw CommandFailure.missingInput("\(file): no such file")
        }
        if isDirectory.boolValue {
            throw CommandFailure.missingInput("\(file): is a directory; pass the .ics files in it")
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CommandFailure.missingInput("\(file): cannot read (permission denied?)")
        }
        let absolute = URL(fileURLWithPath: file).standardizedFileURL.path
        let base = ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        let name = calendar ?? base
        guard isValidCalendarName(name) else {
            throw UsageError("'\(base)' is not a valid calendar name (from \(file))",
                             hint: "pass --calendar NAME with 1-64 characters of A-Z a-z 0-9 . _ -")
        }
        return ImportInput(path: absolute, displayName: file, bytes: [UInt8](data), calendar: name)
    }
}
