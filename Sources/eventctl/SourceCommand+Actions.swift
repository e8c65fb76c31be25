import Foundation
import CommandLineKit
import EventStore
import LiveSources
import CanonicalJSON
import FeedProtocol
import Diagnostics

extension SourceCommand {
    /// What `add` follows: the target, or the first line of standard input (`-`) or of
    /// `--url-file`, so that a URL's secret is never in the process's arguments.
    func addTarget() throws -> String {
        let text: String
        if let path = urlFile {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw UsageError("cannot read --url-file \(path)", hint: "the file's first line is the URL")
            }
            text = String(decoding: data, as: UTF8.self)
        } else if targets[0] == "-" {
            text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        } else {
            return targets[0]
        }
        let line = text.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard !line.isEmpty else { throw UsageError("no URL on the first line of \(urlFile ?? "standard input")") }
        return line
    }

    func add(_ env: CommandEnvironment) throws {
        let planned = try SourcePlanner.plan(try addTarget(), calendar: calendar, every: every)
        let store = try StoreAccess.openOrCreate(env)
        // All or none: every name is checked before any is written (one transaction).
        do { try store.addLiveSources(planned) } catch let e as SQLiteError {
            throw DatabaseFailure(path: store.path, underlying: e)
        }
        // The first sync. A source that answers with no calendar (a login page, an HTTP
        // error) fails the command: exit 65, and none of the sources added here is kept
        // (a directory is added whole or not at all). One that cannot be reached now is
        // kept and retried, with a warning. Either way the failure is said once, on stderr.
        let outcomes = try syncOutcomes(env, store: store, names: planned.map(\.name))
        let failing = outcomes.filter { $0.ok == false }
        let failed = failing.filter { o in !(o.failure.flatMap(FetchFailure.Kind.init(rawValue:))?.isTransient ?? false) }
        guard failed.isEmpty else {
            if json { report(outcomes) }
            do { _ = try store.removeLiveSources(named: planned.map(\.name)) } catch let e as SQLiteError {
                throw DatabaseFailure(path: store.path, underlying: e)
            }
            DaemonNotifier.requestRefresh(env)
        let others = planned.count > failed.count ? " (nor the \(planned.count - failed.count) other source\(planned.count - failed.count == 1 ? "" : "s") of \(targets[0]))" : ""
        throw CommandFailure.badData(failed.map { o in
            "source \(o.name ?? "?"): \(o.summary ?? "failed")"
        }.joined(separator: "; ") + "; not added" + others)
        }
        if !json {
            for source in planned {
                print("added source \(source.name) (\(source.kind.rawValue), \(source.redactedLocation)) -> calendar \(source.calendar)")
            }
        }
        report(json ? outcomes : outcomes.filter { $0.ok != false })
        for outcome in failing {
            printError("warning: source \(outcome.name ?? "?"): \(outcome.summary ?? "failed") (kept; it will be retried)")
        }
    }

    func list(_ env: CommandEnvironment) throws {
        let store = try StoreAccess.openExisting(env)
        var statuses = try store.liveSources().map { FeedStatus.Source(SourceStatus($0).json) }
        // The daemon knows the latest attempt times (a poll answered 304 writes nothing).
        if let live = SourceDaemon.statuses(env) {
            let byName = Dictionary(live.compactMap { s in s.name.map { ($0, s) } }, uniquingKeysWith: { a, _ in a })
            statuses = statuses.map { s in s.name.flatMap { byName[$0] } ?? s }
        }
        if json {
            print(JSONValue.array(statuses.map(\.json)).canonicalString())
            return
        }
        if statuses.isEmpty { print("no sources; add one with `eventctl source add URL|DIR|FILE`") }
        for s in statuses { print(Self.describe(s)) }
    }

    func remove(_ env: CommandEnvironment) throws {
        let store = try StoreAccess.openExisting(env)
        let removed: Int
        let kept = try? store.liveSource(named: targets[0])
        do { removed = try store.removeLiveSource(named: targets[0]) } catch let e as SQLiteError {
            throw DatabaseFailure(path: store.path, underlying: e)
        }
        print("removed source \(targets[0]) (\(removed) event\(removed == 1 ? "" : "s"))")
        // Ownership (docs/data-model.md): what the calendar holds from elsewhere stays.
        if let source = kept, let left = try? store.eventCount(ofCalendar: source.calendar), left > 0 {
            printError("warning: calendar \(source.calendar) keeps \(left) event\(left == 1 ? "" : "s") imported by eventctl or another source")
        }
        // The daemon recomputes and its runner reads the source table again.
        DaemonNotifier.requestRefresh(env)
    }

    func sync(_ env: CommandEnvironment, names: [String]) throws {
        let store = try StoreAccess.openExisting(env)
        let outcomes = try syncOutcomes(env, store: store, names: names)
        report(outcomes)
        let failed = outcomes.filter { $0.ok == false }
        if failed.contains(where: { $0.status == nil }) {
            throw CommandFailure.badData("unknown source: " + failed.filter { $0.status == nil }
                .compactMap(\.name).joined(separator: ", "))
        }
        if !failed.isEmpty {
            throw CommandFailure.ioFailure("\(failed.count) of \(outcomes.count) source\(outcomes.count == 1 ? "" : "s") failed (events kept)")
        }
    }

    /// Synchronises in the daemon when one runs, else here; one object per source.
    private func syncOutcomes(_ env: CommandEnvironment, store: EventStore, names: [String]) throws -> [SyncOutcome] {
        if let answer = try SourceDaemon.sync(env, names: names) { return answer }
        let all = try store.liveSources()
        let known = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let chosen = names.isEmpty ? all : names.compactMap { known[$0] }
        var outcomes = SourceSyncer(store: store).syncInProcess(chosen).map { SyncOutcome($0.json) }
        for name in names where known[name] == nil {
            outcomes.append(SyncOutcome(name: name, ok: false, changed: false, summary: "no source named \"\(name)\""))
        }
        return outcomes.sorted { ($0.name ?? "") < ($1.name ?? "") }
    }

    private func report(_ outcomes: [SyncOutcome]) {
        if json {
            print(JSONValue.array(outcomes.map(\.json)).canonicalString())
            return
        }
        for o in outcomes {
            let ok = o.ok == true
            print("\(o.name ?? "?"): \(ok ? "" : "failed: ")\(o.summary ?? "")")
        }
    }

    /// One source for people: name, kind, location, calendar, events, then the times.
    static func describe(_ s: FeedStatus.Source) -> String {
        // Names, locations and errors come from outside (a server's answer): made safe
        // for the terminal, field by field, so the layout's own line breaks stay.
        func v(_ value: String?) -> String { (value ?? "-").terminalSafe }
        var text = "\(v(s.name)): \(v(s.kind)) \(v(s.location)) -> calendar \(v(s.calendar)), \(v(s.events.map(String.init))) events\n"
        text += "  last attempt \(v(s.lastAttempt)), last success \(v(s.lastSuccess)), next attempt \(v(s.nextAttempt))"
        if let error = s.lastError { text += "\n  last error: \(error.terminalSafe)" }
        return text
    }
}
