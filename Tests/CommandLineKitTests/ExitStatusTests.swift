import Agenda
import CommandErrors
import CommandLineKit
import EventStore
@testable import Feed  // the errors' memberwise initialisers are internal
@testable import FeedClientKit
import FeedProtocol
import Foundation
import ICalendar
import LiveSources
import RuntimeDirectories
import Diagnostics
import ServerOptions
import Testing
import WebGateway

// Swift Testing has an ExitStatus of its own (exit tests).
private typealias ExitStatus = Diagnostics.ExitStatus

/// Every error type's exit status. The mapping is `ErrorTable` (CommandErrors, the
/// command layer's one table; `ExitStatus.for` asks eventctl's, `.commands`), with the
/// servers' own rows in `ErrorTable.servers` (ServerOptions).
@Suite struct ExitStatusTests {
    @Test func statusByErrorType() {
        let cases: [(any Error, ExitStatus)] = [
            (UsageError("x"), .usage),
            (CommandFailure.missingInput("x"), .noInput),
            (CommandFailure.badData("x"), .dataError),
            (CommandFailure.daemonUnavailable("x"), .unavailable),
            (CommandFailure.ioFailure("x"), .ioError),
            (SQLiteError(code: 5, message: "database is locked"), .ioError),       // SQLITE_BUSY
            (SQLiteError(code: 13, message: "database or disk is full"), .ioError), // SQLITE_FULL
            (SQLiteError(code: 26, message: "file is not a database"), .dataError), // SQLITE_NOTADB
            (SQLiteError(code: 1, message: "syntax error"), .software),
            (DatabaseFailure(path: "/x.db", underlying: SQLiteError(code: 10, message: "disk I/O error")), .ioError),
            (DatabaseFailure(path: "/x.db", underlying: StoreError.newerSchema(found: 9, supported: 1)), .dataError),
            (StoreError.unknownCalendar("x"), .dataError),
            (StoreError.invalidCalendarName("a b"), .usage),
            (ImportError.syntax(file: "a.ics", line: 1, message: "not iCalendar"), .dataError),
            (ImportError.invalidCalendarName("a b"), .usage),
            (ViewError("unknown calendar"), .usage),
            (ViewError(unknownCalendar: "x"), .dataError),
            // The daemon's refusals, by their code and typed members (never their words).
            (SubscriptionMachine.Failure.refused(RequestError(code: .invalidView, message: "unknown calendar \"x\"",
                                                              unknownCalendar: "x")), .dataError),
            (SubscriptionMachine.Failure.refused(RequestError(code: .invalidView, message: "unknown calendar \"x\"")), .usage),
            (SubscriptionMachine.Failure.refused(RequestError(code: .badRequest, message: "x")), .unavailable),
            (SubscriptionMachine.Failure.refused(RequestError(code: .other("newer"), message: "x")), .unavailable),
            (SubscriptionMachine.Failure.unreachable("refused"), .unavailable),
            (ICalendarSyntaxError(line: 1, message: "not iCalendar"), .dataError),
            (LiveSourceError.duplicate("work"), .dataError),
            (LiveSourceError.unknown("work"), .dataError),
            (LiveSourceError.notEditable("read-only: calendar work was imported"), .dataError),
            (VdirEventFile.Failure("/v/x.ics: cannot write (No space left on device)"), .ioError),
            (SourcePlanner.Problem.unsupported("ftp://x"), .usage),
            (SourcePlanner.Problem.missing("/nowhere"), .noInput),
            (SourcePlanner.Problem.unusable("/dev/null"), .noInput),
            (UnsafeDirectoryError(path: "/tmp/x", problem: "belongs to uid 1", fix: "remove it"), .ioError),
            (FeedSocket.UntrustedPeer(path: "/x.sock", peerUID: 1), .unavailable),
            (FeedSocket.Unavailable(description: "refused"), .unavailable),
            (CocoaError(.fileReadNoSuchFile), .noInput),
            (CocoaError(.fileWriteOutOfSpace), .ioError),
            (POSIXError(.EIO), .ioError),
            (NSError(domain: "other", code: 1), .software),
        ]
        for (error, status) in cases {
            #expect(ExitStatus.for(error) == status, "\(error)")
            // The servers' table has every shared row.
            #expect(ErrorTable.servers.status(for: error) == status, "\(error)")
        }
    }

    /// The rows only a server's errors need: in the servers' table, not in eventctl's.
    @Test func serverErrorsAreTheServersRows() {
        let cases: [(any Error, ExitStatus)] = [
            (SocketSetupError(description: "in use"), .unavailable),
            (ListenError(description: "in use"), .unavailable),
            (FeedConnector.Unavailable(description: "refused"), .unavailable),
            (StaticAssets.LoadError(description: "no index.html"), .noInput),
        ]
        for (error, status) in cases {
            #expect(ErrorTable.servers.status(for: error) == status, "\(error)")
            #expect(ErrorTable.commands.status(for: error) == .software, "\(error)")
            #expect(!ErrorTable.commands.isExpected(error), "\(error)")
        }
    }

    @Test func messagesAreOneLine() {
        #expect(ExitStatus.message(for: UsageError("bad", hint: "see 'x --help'")) == "bad (see 'x --help')")
        #expect(ExitStatus.message(for: CommandFailure.badData("a\n  b")) == "a b")
        #expect(ExitStatus.message(for: NSError(domain: "other", code: 1)).hasPrefix("internal error: "))
        let busy = DatabaseFailure(path: "/x.db", underlying: SQLiteError(code: 5, message: "database is locked"))
        #expect(ExitStatus.message(for: SQLiteError(code: 1, message: "syntax error")) == "SQLite error 1: syntax error")
        #expect(ExitStatus.message(for: busy) == "database /x.db is busy (locked by another process); try again")
    }
}
