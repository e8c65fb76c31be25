import CommandLineKit

/// The shape every subcommand has (swift-argument-parser style): a declaration, an
/// initialiser from the parsed arguments, and the work.
protocol Subcommand: Sendable {
    /// Options, arguments and help, declared once.
    static var spec: CommandSpec { get }
    /// Takes the parsed arguments; throws `UsageError` for combinations the
    /// declaration cannot express.
    init(_ arguments: ParsedArguments) throws
    func run(_ env: CommandEnvironment) throws
}
