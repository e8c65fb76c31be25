/// eventd's version: the one place it is written. `--version` of every program, the
/// feed's `hello` and `status`, the man pages' headers, the export's `PRODID` and the
/// `User-Agent` of URL sources read it from here; `make` reads it from this file too.
public enum ProductVersion {
    /// The release number (`0.1.0`).
    public static let number = "0.1.0"

    /// The month of the release, as the man pages' headers show it.
    public static let month = "December 2026"

    /// `eventd/0.1.0`: the product and version as one token (feed `server`, `User-Agent`).
    public static let token = "eventd/" + number
}
