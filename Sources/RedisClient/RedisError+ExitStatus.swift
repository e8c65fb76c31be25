import Diagnostics

extension RedisError: ExitStatusProviding {
    /// Redis is a service the program could not use: 69.
    public var exitStatus: ExitStatus { .unavailable }
}

extension RedisURLError: ExitStatusProviding {
    /// A bad `--publish`/`--upstream` value: 64.
    public var exitStatus: ExitStatus { .usage }
}

extension RedisPasswordError: ExitStatusProviding {
    /// The password file is missing or unusable: 66.
    public var exitStatus: ExitStatus { .noInput }
}
