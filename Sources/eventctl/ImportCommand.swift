import Foundation
import EventStore
import ICalendar
import Support

/// `eventctl import FILE... [--calendar NAME] [--replace] [--strict] [--json]`
struct ImportCommand: Subcommand {
    static let name = "import"
    static let abstract = "Import iCalendar files into a calendar."
    static let help = """
    OVERVIEW: Import iCalendar (.ics) files into the database.

    Each file synchronises its calendar: events it no longer contains are removed.
    All files are imported in one transaction: all of them, or none.

    USAGE: eventctl import <file>... [--calendar NAME] [--replace] [--strict] [--json]

    ARGUMENTS:
      <file>            An .ics file, or - for standard input.

    OPTIONS:
      --calendar NAME   Target calendar (default: the file's name without extension;
                        "stdin" for -). 1-64 characters of A-Z a-z 0-9 . _ -
      --replace         Make the calendar hold exactly these files' events.
      --strict          Treat warnings (skipped or partly ignored components) as errors.
      --json            Print the per-file counts as JSON.
      -h, --help        Show help information.

    EXAMPLES:
      eventctl import ~/Downloads/work.ics
      eventctl import holidays.ics --calendar holidays --replace
      curl -s https://example.com/team.ics | eventctl import - --calendar team
    """

    var files: [String] = []
    var calendar: String?
    var replace = false
    var strict = false
    var json = false

    init(parsing arguments: [String]) throws(UsageError) {
        var scanner = ArgumentScanner(arguments, command: "eventctl import")
        while let token = scanner.next() {
            switch token {
            case .positional(let file): files.append(file)
            case .option("--calendar", let inline): calendar = try scanner.value(for: "--calendar", inline: inline)
            case .option("--replace", nil): replace = true
            case .option("--strict", nil): strict = true
            case .option("--json", nil): json = true
            case .option("-", nil): files.append("-")
            case .option(let name, .some) where ["--replace", "--strict", "--json"].contains(name): throw scanner.noValue(name)
            case .option(let name, _): throw scanner.unknown(name)
            }
        }
        guard !files.isEmpty else {
            throw UsageError("missing <file>", hint: "usage: eventctl import <file>... [--calendar NAME]")
        }
        if let calendar, !isValidCalendarName(calendar) {
            throw UsageError("invalid calendar name '\(calendar)': use 1-64 characters of A-Z a-z 0-9 . _ -")
        }
    }

    func run(_ env: CommandEnvironment) throws -> ExitStatus {
        var inputs: [ImportInput] = []
        for file in files {
            inputs.append(try readInput(file))
        }
        let store = try StoreAccess.openOrCreate(env)
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
            if case .invalidCalendarName = error { throw CommandFailure(status: .usage, message: error.description + "; pass --calendar NAME") }
            throw CommandFailure(status: .dataError, message: error.description)
        } catch let error as SQLiteError {
            progress.finish()
            throw StoreAccess.failure(error, path: store.path)
        }
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
                print("\(r.displayName): \(r.added) added, \(r.updated) updated, \(r.removed) removed, \(r.skipped) skipped")
            }
        }
        if results.contains(where: \.changedAnything) {
            DaemonNotifier.requestRefresh(socketPath: env.paths.socket)
        }
        return .success
    }

    func readInput(_ file: String) throws -> ImportInput {
        if file == "-" {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            return ImportInput(path: "-", displayName: "<stdin>", bytes: [UInt8](data), calendar: calendar ?? "stdin")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else {
            throw CommandFailure(status: .noInput, message: "\(file): no such file")
        }
        if isDirectory.boolValue {
            throw CommandFailure(status: .noInput, message: "\(file): is a directory; pass the .ics files in it")
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CommandFailure(status: .noInput, message: "\(file): cannot read (permission denied?)")
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
