/// The defaults of `--db` and `--socket` (`RuntimePaths.resolve`) as help texts and man
/// pages list them: eventctl and eventd resolve the paths alike, so they say it alike.
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

    /// For a man page: `Default:` and the list, in roff.
    public static let databaseManual = #"""
        Default:
        .BR $EVENTD_DB ,
        .BR $STATE_DIRECTORY/events.db ,
        .BR $XDG_STATE_HOME/eventd/events.db ,
        .BR ~/.local/state/eventd/events.db ,
        """#

    /// For a man page: `Default:` and the list, in roff.
    public static let socketManual = #"""
        Default:
        .BR $EVENTD_SOCKET ,
        .BR $RUNTIME_DIRECTORY/feed.sock ,
        .BR $XDG_RUNTIME_DIR/eventd/feed.sock ,
        .BR /tmp/eventd\-$UID/feed.sock ,
        """#
}
