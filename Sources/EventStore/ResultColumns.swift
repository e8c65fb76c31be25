/// The columns of one query, declared once (GRDB's "columns declared once"): the case
/// order is the position of each column in the result and in the SELECT list, so that
/// the SQL text, the binding and the decoding cannot drift apart.
///
/// Conform an `Int32`-backed enum whose cases start at 0 and run in SELECT order, give
/// each case its SQL expression, and keep `static let selectList = makeSelectList()`.
protocol ResultColumns: RawRepresentable, CaseIterable where RawValue == Int32 {
    /// The SQL expression of the column (a name, or an expression).
    var sql: String { get }
    /// The SELECT list: every column, in position order (built once per type).
    static var selectList: String { get }
}

extension ResultColumns {
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
