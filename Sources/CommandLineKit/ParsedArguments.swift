/// What `CommandSpec.parse` found: option values by long name, and positionals. Every
/// value has passed its option's validation.
public struct ParsedArguments: Sendable, Equatable {
    /// The positional arguments, in order.
    public var positionals: [String] = []
    /// The values given for each option (long name), in order; a flag's value is "".
    var values: [String: [String]] = [:]

    /// An empty result (no options, no positionals).
    public init() {}

    /// Whether the option was given.
    public func has(_ name: String) -> Bool { values[name] != nil }

    /// The last value of the option, if it was given.
    public func value(_ name: String) -> String? { values[name]?.last }

    /// Every value of a repeatable option.
    public func values(_ name: String) -> [String] { values[name] ?? [] }

    /// The value of an `.integer` option.
    public func int(_ name: String) -> Int? { value(name).flatMap { Int($0) } }

    /// The value of a `.seconds` option.
    public func double(_ name: String) -> Double? { value(name).flatMap { Double($0) } }
}
