import Foundation
import HoldLabIO
import HoldProfiles


/// What to read from a CSV file of durations for ``FitDataFile/read(_:)``.
public struct FitDataRequest: Sendable, Equatable {
    /// A row filter: keep rows whose `column` holds exactly `value`.
    public struct Filter: Sendable, Equatable {
        /// The column to test.
        public var column: String
        /// The text it must hold (compared after trimming spaces, as fields are).
        public var value: String

        /// A filter `column=value`.
        public init(column: String, value: String) {
            self.column = column
            self.value = value
        }
    }

    /// The CSV file.
    public var path: String
    /// The column of durations.
    public var column: String
    /// The column saying which rows are censored, or nil (every row observed).
    public var censoredColumn: String?
    /// Empty: ``censoredColumn`` holds `1`/`true` (censored) or `0`/`false` (observed), case-insensitively, and
    /// anything else is an error. Not empty: rows whose censored column equals one of these texts are censored and
    /// every other row is observed (for label columns such as `outcome` = `completed`).
    public var censoredValues: [String]
    /// When set, a censored row's time is read from this column instead of ``column`` (for example `trigger_ms`: the
    /// moment the action fired and the observation stopped).
    public var censorTimeColumn: String?
    /// Rows must match every filter; other rows are skipped unread.
    public var filters: [Filter]
    /// The factor that turns the file's numbers into the fit's unit, or nil for the default from the column's name
    /// (``FitDataFile/defaultScale(for:)``).
    public var scale: Double?

    /// A request; only `path` and `column` are required.
    public init(path: String, column: String, censoredColumn: String? = nil, censoredValues: [String] = [],
                censorTimeColumn: String? = nil, filters: [Filter] = [], scale: Double? = nil) {
        self.path = path
        self.column = column
        self.censoredColumn = censoredColumn
        self.censoredValues = censoredValues
        self.censorTimeColumn = censorTimeColumn
        self.filters = filters
        self.scale = scale
    }
}

/// Durations read from a CSV file, ready to fit.
public struct FitDataSet: Sendable {
    /// The durations (after the scale) a fit computes with: their squares and exponentials stay finite and normal.
    public static let largestDuration = 1e100
    public static let smallestDuration = 1e-100

    /// What was asked for.
    public let request: FitDataRequest
    /// FNV-1a 64 hash (16 hex digits) of the file's text, for provenance.
    public let contentHash: String
    /// The validated sample, already multiplied by ``scale``.
    public let sample: FitSample
    /// The factor applied to the file's numbers.
    public let scale: Double
    /// Data rows in the file (after the header, not counting `#` lines and blank lines).
    public let rowsInFile: Int
    /// Rows the filters skipped.
    public let rowsFiltered: Int
}

/// Reads durations (and censoring flags) from a CSV file for fitting.
///
/// Format: UTF-8; lines starting with `#` and blank lines are skipped; the first other line is the header;
/// fields are comma separated and may be double-quoted (`""` is a quote inside quotes; quoted fields may span
/// lines); spaces around unquoted fields are ignored; every record must have as many fields as the header. This
/// reads every CSV holdlab writes, including `holdlab simulate --per-user` output. Errors name the file and the
/// line a record starts on.
public enum FitDataFile {
    /// The factor for a column: 0.001 for names ending in `_ms` (milliseconds to seconds), 1e-6 for `_us`, else 1
    /// (the numbers are taken to be seconds already). HoldLab's CSVs put units in column names.
    public static func defaultScale(for column: String) -> Double {
        if column.hasSuffix("_ms") { return 0.001 }
        if column.hasSuffix("_us") { return 1e-6 }
        return 1
    }

    /// Reads and validates the file, streaming: one record at a time, so memory holds the kept times, not the file's
    /// text. See ``parse(_:request:)`` for the rules.
    ///
    /// Throws ``FitError`` of kind ``FitError/Kind/missingInput`` when the file does not exist or cannot be read,
    /// ``FitError/Kind/invalidData`` otherwise.
    public static func read(_ request: FitDataRequest) throws(FitError) -> FitDataSet {
        let reader: CSVReader
        do {
            reader = try CSVReader(path: request.path)
        } catch {
            throw FitError(error.kind == .cannotOpen ? .missingInput : .invalidData, path: error.path, line: error.line,
                           error.reason)
        }
        return try parse(reader, request: request)
    }

    /// Parses CSV text (``FitDataRequest/path`` names it in errors).
    ///
    /// Every kept row's time must be a finite number (after × scale) > 0: the families are fitted to positive
    /// durations; `NaN` and infinities in any spelling are errors, not skipped rows. Errors: a column that is missing
    /// (listing the available ones), a value that is not a number or not finite or not > 0, a censoring flag other
    /// than 0/1/true/false, fewer than ``FitSample/minimumCount`` kept rows, all rows censored, fewer than two
    /// distinct observed times, a malformed record.
    public static func parse(_ text: String, request: FitDataRequest) throws(FitError) -> FitDataSet {
        try parse(CSVReader(bytes: Array(text.utf8), path: request.path), request: request)
    }

    /// Reads every record of `reader` (see ``parse(_:request:)``).
    static func parse(_ reader: CSVReader, request: FitDataRequest) throws(FitError) -> FitDataSet {
        let path = reader.path
        let scale = request.scale ?? defaultScale(for: request.column)
        guard scale.isFinite, scale > 0 else {
            throw FitError(.invalidData, path: path, "the scale must be a finite number > 0 (got \(scale))")
        }
        guard let names = try FitError.reading({ () throws(CSVTableError) in try reader.readHeader() }) else {
            throw FitError(.invalidData, path: path, "no header row (the file has no lines but # comments)")
        }
        func index(of column: String, _ role: String) throws(FitError) -> Int {
            guard let found = names.firstIndex(of: column) else {
                throw FitError(.invalidData, path: path,
                               "no \(role) column '\(column)'\(Suggestions.didYouMean(column, among: names)); the columns are: \(names.joined(separator: ", "))")
            }
            return found
        }
        let timeIndex = try index(of: request.column, "time")
        let censoredIndex = try request.censoredColumn.map { (name) throws(FitError) -> Int in
            try index(of: name, "censoring")
        }
        let censorTimeIndex = try request.censorTimeColumn.map { (name) throws(FitError) -> Int in
            try index(of: name, "censoring-time")
        }
        var filters: [(index: Int, value: [UInt8])] = []
        for filter in request.filters {
            filters.append((try index(of: filter.column, "filter"),
                            Array(filter.value.trimmingCharacters(in: .whitespaces).utf8)))
        }
        let censoredLabels = request.censoredValues.map { Array($0.utf8) }
        let trueFlags = [Array("1".utf8), Array("true".utf8)]
        let falseFlags = [Array("0".utf8), Array("false".utf8)]

        var times: [Double] = []
        var flags: [Bool] = []
        // Which --censored-value labels some row has, and (for the error when one has none) the column's values.
        var labelSeen = Array(repeating: false, count: censoredLabels.count)
        var censoredColumnValues: [String] = []
        var rowsInFile = 0
        var rowsFiltered = 0
        while try FitError.reading({ () throws(CSVTableError) in try reader.next() }) {
            rowsInFile += 1
            try FitError.reading { () throws(CSVTableError) in try reader.checkFieldCount() }
            if filters.contains(where: { !reader.field($0.index, equals: $0.value) }) {
                rowsFiltered += 1
                continue
            }
            var isCensored = false
            if let censoredIndex, let censoredName = request.censoredColumn {
                if censoredLabels.isEmpty {
                    if trueFlags.contains(where: { reader.field(censoredIndex, equals: $0, ignoringASCIICase: true) }) {
                        isCensored = true
                    } else if !falseFlags.contains(where: { reader.field(censoredIndex, equals: $0, ignoringASCIICase: true) }) {
                        throw FitError(.invalidData, path: path, line: reader.line,
                                       "\(censoredName): \(reader.quotedField(censoredIndex)) is not a censoring flag "
                                       + "(allowed: 0, 1, true, false, in any case)")
                    }
                } else {
                    for (label, text) in censoredLabels.enumerated() where reader.field(censoredIndex, equals: text) {
                        isCensored = true
                        labelSeen[label] = true
                    }
                    if censoredColumnValues.count < 12, case let value = reader.field(censoredIndex),
                       !censoredColumnValues.contains(value) {
                        censoredColumnValues.append(value)
                    }
                }
            }
            let (valueIndex, valueName) = isCensored && censorTimeIndex != nil
                ? (censorTimeIndex ?? timeIndex, request.censorTimeColumn ?? request.column)
                : (timeIndex, request.column)
            guard let number = reader.double(valueIndex) else {
                throw FitError(.invalidData, path: path, line: reader.line,
                               "\(valueName): \(reader.quotedField(valueIndex)) is not a number")
            }
            guard number.isFinite else {
                throw FitError(.invalidData, path: path, line: reader.line,
                               "\(valueName): \(reader.quotedField(valueIndex)) is not a finite number")
            }
            let time = number * scale
            guard time > 0 || !time.isFinite else {
                throw FitError(.invalidData, path: path, line: reader.line,
                               "\(valueName): \(reader.field(valueIndex)) is not > 0 (the families are fitted to positive durations)")
            }
            // The likelihoods square and exponentiate durations: beyond 1e±100 they overflow or vanish, and the
            // minimiser would fail with a message about its own inputs. Say which value, and what is allowed.
            guard time.isFinite, time <= FitDataSet.largestDuration, time >= FitDataSet.smallestDuration else {
                let scaled = scale == 1 ? "" : " (× --scale \(scale) = \(time))"
                throw FitError(.invalidData, path: path, line: reader.line,
                               "\(valueName): \(reader.field(valueIndex))\(scaled) is outside the durations a fit can compute with, \(FitDataSet.smallestDuration) to \(FitDataSet.largestDuration) seconds; give durations in seconds or milliseconds (--scale converts)")
            }
            times.append(time)
            flags.append(isCensored)
        }
        // A label no row has (a typo for `completed`) would fit censored times as observed ones, without a word.
        if let censoredName = request.censoredColumn, let missing = labelSeen.indices.first(where: { !labelSeen[$0] }) {
            let values = censoredColumnValues.map { "'\($0)'" }.joined(separator: ", ")
            let filtered = rowsFiltered > 0 ? " of the \(rowsInFile - rowsFiltered) rows the filters keep" : ""
            throw FitError(.invalidData, path: path,
                           "--censored-value \(request.censoredValues[missing]) matches no row\(filtered) in column \(censoredName)"
                           + "\(Suggestions.didYouMean(request.censoredValues[missing], among: censoredColumnValues.filter { !request.censoredValues.contains($0) })); "
                           + (values.isEmpty ? "every row there has another --censored-value" : "values there: \(values)"
                              + (censoredColumnValues.count == 12 ? ", …" : "")))
        }
        do {
            try FitSample.checkShape(times: times, censored: flags)
        } catch {
            let filtered = rowsFiltered > 0 ? " (\(rowsFiltered) of \(rowsInFile) rows skipped by the filters)" : ""
            throw FitError(error.kind, path: path, error.message + filtered)
        }
        return FitDataSet(request: request, contentHash: reader.contentHash,
                          sample: FitSample(unchecked: times, censored: flags), scale: scale, rowsInFile: rowsInFile,
                          rowsFiltered: rowsFiltered)
    }
}
