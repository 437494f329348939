extension ResultTable {
    /// The notes a command prints (one line each, `note: …`) when rows hold values that are undefined rather than
    /// measured: a rate or mean over nobody (its row has `intent_users`, `accidental_users` or `completed` = 0: the
    /// column's own count, `ResultColumn.over`, where it names one, else any of them), and a mean of a single value,
    /// whose interval bounds are missing while the mean is not; and a statistic over some of the people its count
    /// counts, missing because none of them had it although the count is not 0 (no completed hold rendered two
    /// pulses, so no peak pulse rate), with the reason its column gives (`ResultColumn.undefinedWhen`).
    ///
    /// - Parameter subject: what a row is, for "(2 of 5 points)".
    public func undefinedValueNotes(subject: String) -> [String] {
        let counts = ["intent_users", "accidental_users", "completed"].compactMap { name in index(of: name).map { (name, $0) } }
        /// The index of the column each bound belongs to.
        var boundOf: [Int: Int] = [:]
        for (position, column) in columns.enumerated() {
            switch column.role {
            case .lowerBound(let base), .upperBound(let base): if let value = index(of: base) { boundOf[position] = value }
            default: break
            }
        }
        let bounds = boundOf.keys.sorted()
        /// The count each column is over, where it (or the column it bounds) says.
        func over(_ position: Int) -> String? { columns[position].over ?? boundOf[position].flatMap { columns[$0].over } }
        var undefinedColumns: [String] = []
        var reasons: [String] = []
        var affected = 0
        var single: [String] = []
        var singleRows = 0
        /// Why a column is undefined though its count is not 0, where it (or the column it bounds) says.
        func reason(_ position: Int) -> String? {
            columns[position].undefinedWhen ?? boundOf[position].flatMap { columns[$0].undefinedWhen }
        }
        /// Columns missing for their own reason, grouped by the reason, in column order of first appearance.
        var unhad = NameGroups()
        var unhadRows = 0
        for row in rows {
            func missing(_ position: Int) -> Bool { position < row.count && row[position].isMissing }
            // A bound that is missing while its value is not: an interval of one value.
            let lonely = bounds.filter { missing($0) && boundOf[$0].map { $0 < row.count && !missing($0) } == true }
            if !lonely.isEmpty { singleRows += 1 }
            for position in lonely where !single.contains(columns[position].name) { single.append(columns[position].name) }
            let empty = counts.filter { $0.1 < row.count && row[$0.1].numericValue == 0 }.map(\.0)
            // Missing with its count not 0 (and not a lonely bound): none of the people counted had the value.
            let own = row.indices.filter { position in
                guard missing(position), !lonely.contains(position), reason(position) != nil,
                      let count = over(position), !empty.contains(count), index(of: count) != nil else { return false }
                return true
            }
            if !own.isEmpty { unhadRows += 1 }
            for position in own { unhad.add(columns[position].name, to: reason(position)!) }
            guard !empty.isEmpty else { continue }
            // A missing value is over nobody when its own count is 0 (any of them, for a column that names none).
            var rowReasons: [String] = []
            let undefined = row.indices.filter { position in
                guard missing(position), !lonely.contains(position) else { return false }
                if let count = over(position) {
                    guard empty.contains(count) else { return false }
                    if !rowReasons.contains(count) { rowReasons.append(count) }
                } else {
                    for count in empty where !rowReasons.contains(count) { rowReasons.append(count) }
                }
                return true
            }.map { columns[$0].name }
            guard !undefined.isEmpty else { continue }
            affected += 1
            for count in empty where rowReasons.contains(count) && !reasons.contains("\(count) = 0") {
                reasons.append("\(count) = 0")
            }
            for name in undefined where !undefinedColumns.contains(name) { undefinedColumns.append(name) }
        }
        func scope(_ count: Int) -> String { rows.count == 1 ? "" : " (\(count) of \(rows.count) \(subject)s)" }
        var notes: [String] = []
        if !undefinedColumns.isEmpty {
            notes.append("note: undefined values are written as NaN\(scope(affected)): \(reasons.joined(separator: ", ")), so these are "
                         + "over nobody: " + undefinedColumns.joined(separator: ", "))
        }
        if !single.isEmpty {
            notes.append("note: a mean of a single value has no 95 % interval, so these are written as NaN\(scope(singleRows)): "
                         + single.joined(separator: ", "))
        }
        if !unhad.isEmpty {
            notes.append("note: undefined values are written as NaN\(scope(unhadRows)) where none of the holds counted had them: "
                         + unhad.joined { "\($0) (\($1))" })
        }
        return notes
    }
}

/// Notes for standard error (`note: …`).
public enum Note {
    /// `note` about one file or option, named after its `note: ` (`note: designs.csv: …`); named in front of a
    /// line that is not a note.
    public static func about(_ subject: String, _ note: String) -> String {
        note.hasPrefix("note: ") ? "note: \(subject): " + note.dropFirst(6) : "\(subject): \(note)"
    }
}
