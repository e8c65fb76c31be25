/// What a command's option list holds: a typed key, or a bare `Option` that no command
/// reads (`--help`, `--version`).
public protocol OptionDeclaring: Sendable {
    /// The declaration.
    var option: Option { get }
}

extension Option: OptionDeclaring {
    /// The option itself.
    public var option: Option { self }
}
