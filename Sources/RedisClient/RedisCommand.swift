/// One Redis command as its arguments (binary-safe: never a format string, so no
/// argument can be read as part of the command's syntax).
public struct RedisCommand: Sendable, Equatable, CustomStringConvertible {
    /// The command's name and arguments, as sent.
    public var arguments: [[UInt8]]

    /// A command from its words (the name first).
    public init(_ words: [String]) { arguments = words.map { Array($0.utf8) } }

    /// A command from raw arguments.
    public init(arguments: [[UInt8]]) { self.arguments = arguments }

    /// The command's name in capitals: what an error message names (never the arguments,
    /// which may hold a password or a whole snapshot).
    public var name: String { arguments.first.map { String(decoding: $0, as: UTF8.self).uppercased() } ?? "" }

    /// The command with one more argument.
    public func appending(_ word: String) -> RedisCommand { appending(bytes: Array(word.utf8)) }

    /// The command with one more raw argument.
    public func appending(bytes: [UInt8]) -> RedisCommand {
        var copy = self
        copy.arguments.append(bytes)
        return copy
    }

    public var description: String { name }
}
