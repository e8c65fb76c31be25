import CommandLineKit

/// `--db` and `--socket`: global options, accepted before or after the subcommand.
enum PathOptions {
    static let database = Option(
        "--db", value: "PATH",
        help: """
        Database (default: $EVENTD_DB, $STATE_DIRECTORY/events.db,
        $XDG_STATE_HOME/eventd/events.db, ~/.local/state/eventd/events.db)
        """,
        summary: "Database file", completion: .file(), inherited: true,
        manual: #"""
        The database.
        Default:
        .BR $EVENTD_DB ,
        .BR $STATE_DIRECTORY/events.db ,
        .BR $XDG_STATE_HOME/eventd/events.db ,
        .BR ~/.local/state/eventd/events.db ,
        the first that applies \(em the same rules as
        .BR eventd (1),
        so with no options the two meet.
        """#)

    static let socket = Option(
        "--socket", value: "PATH",
        help: """
        Daemon socket (default: $EVENTD_SOCKET, $RUNTIME_DIRECTORY/feed.sock,
        $XDG_RUNTIME_DIR/eventd/feed.sock, /tmp/eventd-$UID/feed.sock)
        """,
        summary: "Daemon socket", completion: .file(), inherited: true,
        manual: #"""
        The daemon's socket.
        Default:
        .BR $EVENTD_SOCKET ,
        .BR $RUNTIME_DIRECTORY/feed.sock ,
        .BR $XDG_RUNTIME_DIR/eventd/feed.sock ,
        .BR /tmp/eventd\-$UID/feed.sock ,
        the first that applies.
        """#)
}
