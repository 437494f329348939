import HoldLabIO
/// What the `table` and `markdown` views know about the `simulate` columns (also `sweep`'s and `tune`'s check).
extension SimulationCSV {
    /// Units from the column table; every rate over intent users gets its Wilson interval from `intent_users`
    /// (completion and false activation rates have theirs in the CSV).
    public static let formatHints = RowFormatHints(
        units: Dictionary(columns.map { ($0.name, $0.unit) }, uniquingKeysWith: { first, _ in first }),
        rateDenominators: [
            "premature_release_rate": "intent_users", "premature_impatience_rate": "intent_users",
            "premature_mismatch_rate": "intent_users", "movement_cancel_rate": "intent_users",
            "no_feedback_rate": "intent_users",
        ])
}
