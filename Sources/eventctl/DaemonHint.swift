/// The message for a daemon that cannot be reached, with how to start one.
enum DaemonHint {
    static func unavailable(_ path: String, _ reason: String) -> String {
        "no daemon is listening on \(path) (\(reason)); start it with `eventd` or `systemctl --user start eventd.socket`"
    }
}
