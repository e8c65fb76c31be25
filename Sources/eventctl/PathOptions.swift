import CommandLineKit

/// `--db` and `--socket`: global options, accepted before or after the subcommand.
enum PathOptions {
    static let database = Option(
        "--db", value: "PATH", help: "Database (default: \(PathDefaults.databaseHelp))",
        summary: "Database file", completion: .file(), inherited: true,
        manual: #"""
        The database.
        \#(PathDefaults.databaseManual)
        the first that applies \(em the same rules as
        .BR eventd (1),
        so with no options the two meet.
        """#)

    static let socket = Option(
        "--socket", value: "PATH", help: "Daemon socket (default: \(PathDefaults.socketHelp))",
        summary: "Daemon socket", completion: .file(), inherited: true,
        manual: """
        The daemon's socket.
        \(PathDefaults.socketManual)
        the first that applies.
        """)
}
