/// The defaults of `--db` and `--socket` (`RuntimePaths.resolve`) as help texts and man
/// pages list them: eventctl and eventd resolve the paths alike, so they say it alike.
/// The man pages show the same text (`ManPage` derives roff from help texts).
public enum PathDefaults {
    /// For `--help`: two lines, the second to be indented under the first.
    public static let databaseHelp = """
        $EVENTD_DB, $STATE_DIRECTORY/events.db,
        $XDG_STATE_HOME/eventd/events.db, ~/.local/state/eventd/events.db
        """

    /// For `--help`: two lines, the second to be indented under the first.
    public static let socketHelp = """
        $EVENTD_SOCKET, $RUNTIME_DIRECTORY/feed.sock,
        $XDG_RUNTIME_DIR/eventd/feed.sock, /tmp/eventd-$UID/feed.sock
        """

    /// For the man page, after either list: how the list is read.
    public static let firstApplies = "The first that applies is used."

    /// For the man page of a client's `--db`: the list, and why it matches eventd's.
    public static let databaseDetails = firstApplies + " The rules are eventd(1)'s, so with no options the two meet."
}
