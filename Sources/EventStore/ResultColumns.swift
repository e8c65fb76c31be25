/// The columns of one query, declared once (GRDB's "columns declared once"): the case
/// order is the position of each column in the result and in the SELECT list, and the
/// case name is the column name (`calendarID` is `calendar_id`), so that the SQL text,
/// the binding and the decoding cannot drift apart.
///
/// Conform an `Int32`-backed enum whose cases start at 0 and run in SELECT order, and
/// keep `static let selectList = makeSelectList()`. A column that is an expression
/// rather than a name gives its own `sql`.
protocol ResultColumns: RawRepresentable, CaseIterable where RawValue == Int32 {
    /// The SQL expression of the column: by default its name, after `tableAlias`.
    var sql: String { get }
    /// The SELECT list: every column, in position order (built once per type).
    static var selectList: String { get }
    /// What precedes each column name (`"e."` in a join); empty by default.
    static var tableAlias: String { get }
}

extension ResultColumns {
    static var tableAlias: String { "" }

    var sql: String { name }

    /// The column name: the case name in snake case, after `tableAlias`.
    var name: String {
        var out = Self.tableAlias
        var previousWasLower = false
        for character in String(describing: self) {
            if character.isUppercase, previousWasLower { out.append("_") }
            previousWasLower = character.isLowercase
            out += character.lowercased()
        }
        return out
    }

    /// Builds `selectList` from the cases.
    static func makeSelectList() -> String { allCases.map(\.sql).joined(separator: ", ") }

    /// The number of columns.
    static var count: Int32 { Int32(allCases.count) }
}

extension Row {
    @inline(__always) func isNull<C: ResultColumns>(_ column: C) -> Bool { isNull(column.rawValue) }
    @inline(__always) func int<C: ResultColumns>(_ column: C) -> Int64 { int(column.rawValue) }
    @inline(__always) func text<C: ResultColumns>(_ column: C) -> String { text(column.rawValue) }
    @inline(__always) func optionalText<C: ResultColumns>(_ column: C) -> String? { optionalText(column.rawValue) }
    @inline(__always) func optionalInt<C: ResultColumns>(_ column: C) -> Int64? { optionalInt(column.rawValue) }
}
