import CommandLineKit

/// `--db` and `--socket`: global options, accepted before or after the subcommand.
enum PathOptions {
    static let database = Option.value(
        "--db", "PATH", help: "Database (default: \(PathDefaults.databaseHelp))", details: PathDefaults.databaseDetails,
        completion: .file(), inherited: true)

    static let socket = Option.value(
        "--socket", "PATH", help: "Daemon socket (default: \(PathDefaults.socketHelp))", details: PathDefaults.firstApplies,
        completion: .file(), inherited: true)
}
