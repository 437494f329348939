import Foundation
import HoldLabIO
import HoldProfiles
import HoldSimulation
import HoldStudies

/// Simulates a sweep's remaining points (`sweep`, `sensitivity`) and keeps `out` current: standard output gets
/// the head and then each batch's rows as they come; a file is rewritten whole and atomically at most once a
/// second and after the last point, so an interrupted run keeps what it finished and `--resume` completes it.
///
/// - Parameters:
///   - rows: the rows already done (from `--resume`, CSV); on return, every row.
///   - head: provenance lines and the header.
///   - out: where the rows go, or nil to keep them in memory only.
///   - view: another format than the CSV (`--format`, `--columns`, `--no-comments`): the text of the rows done so
///     far, written to a file as points finish and to standard output once, at the end. `--resume` (which needs
///     the CSV) never comes with one.
func runSweepPoints(
    _ request: SweepRequest, profiles: [Profile], rows: inout [String], head: String, out: OutputFile?, label: String,
    view: (([[ResultCell]]) throws -> String)? = nil
) throws {
    if out == .standardOutput && view == nil { try out?.write(head) }
    let total = Sweep.rowCount(request)
    // What the people of the points still to run are (`Population.notes`), said point by point.
    for note in try Sweep.populationNotes(request, points: 0..<profiles.count, from: rows.count) { printNote("warning: \(note)") }
    let bar = ProgressBar(label: label, total: (total - rows.count) * request.users, unit: "points", per: request.users)
    // The file is rewritten whole (atomically), so it is rewritten at most once a second: an interrupted run
    // loses at most the last second's points, and a long run does not spend its time rewriting.
    var lastWrite = Date.distantPast
    var done = rows
    var typed: [[ResultCell]] = []
    func text() throws -> String { try view?(typed) ?? head + done.map { $0 + "\n" }.joined() }
    var shortfalls: [Sweep.PointShortfall] = []
    var ran = 0
    try Sweep.run(request, profiles: profiles, points: 0..<profiles.count, from: rows.count, onSummaries: { summaries in
        let batch = summaries.map { Sweep.cells(values: $0.values, summary: $0.summary) }
        shortfalls += summaries.compactMap { Sweep.precisionShortfall(request, values: $0.values, summary: $0.summary) }
        ran += summaries.count
        typed += batch
        let lines = batch.map { $0.map(\.csvText).joined(separator: ",") }
        done += lines
        let dying = TestHooks.sweepDies(afterRows: done.count)
        switch out {
        case .standardOutput?:
            if view == nil { try OutputFile.standardOutput.write(lines.map { $0 + "\n" }.joined()) }
        case .file?:
            if done.count == total || dying || Date().timeIntervalSince(lastWrite) >= 1 {
                try out?.write(text())
                lastWrite = Date()
            }
        case nil:
            break
        }
        // Test seam: die as a killed process would, right after a batch reached the file.
        if dying { kill(getpid(), SIGKILL) }
    }, progress: { bar.update($0) })
    bar.finish()
    if out == .standardOutput && view != nil { try out?.write(text()) }
    // The rows resumed from the file are read back by their columns' kinds, for the notes.
    let columns = Sweep.columns(request.plan)
    let resumed = rows.map { ResultTable.cells(parsing: $0, columns: columns) }
    rows = done
    // Rows an earlier run capped count as this run's: the warning is the whole sweep's, resumed or not.
    let resumedShortfalls = resumed.compactMap { Sweep.precisionShortfall(request, resumed: $0) }
    if let warning = Sweep.precisionWarning(request, shortfalls: resumedShortfalls + shortfalls, rows: resumed.count + ran) {
        printNote(warning)
    }
    noteUndefinedValues(Sweep.table(request.plan, rows: resumed + typed, provenance: Provenance()), subject: "row")
}

/// The rows an earlier run left in `file` for `--resume` (none when it is not a regular file yet), with notes
/// about what was dropped and how far it got.
func resumedRows(_ file: String, request: SweepRequest, baseProfile: Profile, what: String, option: String = "--out") throws -> [String] {
    guard isRegularFile(file) else { return [] }
    let existing = try ProfileLibrary.read(file, what: what, limit: maximumResumeBytes, input: false)
    let resumption = try Sweep.resumption(existing: existing, path: file, request: request, baseProfile: baseProfile, option: option)
    if let dropped = resumption.dropped { printNote("note: --resume: \(dropped)") }
    let unit = request.populations.count == 1 ? "points" : "rows (points × populations)"
    printNote("resuming \(file): \(resumption.rows.count) of \(Sweep.rowCount(request)) \(unit) done")
    return resumption.rows
}

/// Whether `path` is an existing regular file: only such a file holds rows to resume (a device such as
/// /dev/null is written in place and never read).
func isRegularFile(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
}

/// The largest sweep file `--resume` reads: 100,000 points of about 700 bytes.
let maximumResumeBytes = 256 << 20

/// The base profile of a study (`sweep`, `sensitivity`, `tune`): the profile with the `--set`s, with its text
/// as read. Every point replaces the studied keys, so a base that is invalid only through them is no fault of the
/// study (a file key every point replaces, a `--set` valid only with the studied values): then the first of
/// `candidates` (each a point's own overrides, in the order the study runs them) that loads stands for the base
/// (`standsIn`), for the population it names; the study then checks its points as ever, so a point that does not
/// load is said as that point. When none loads, what is said does not depend on the candidates' order: with
/// `ownValuesFirst` (a sweep's points, each to run) a candidate whose problem is its own values alone (a value that is
/// no value of its key, whatever the file) is said first, as `refusal` of its index and problem, wherever it stands;
/// then, when every candidate's problem is the file's (or the `--set`s' alone: the studied values play no part), the
/// base's problem; else `refusal` of the first candidate whose values are at fault with the file or the `--set`s.
/// (Tune's candidates a key does not take are infeasible, not errors: tune says the base's problem over them.) What the
/// study varies is checked first (`candidates` throws it): a bad `--vary`, `--param` or design file is the
/// command line's or that file's, and mending it may mend the profile too.
func studyBase(
    _ profile: String, library: ProfileLibrary, overrides: [Override], ownValuesFirst: Bool = true,
    candidates: () throws -> [[Override]], refusal: (_ index: Int, ProfileError) -> Error
) throws -> (profile: Profile, text: String, standsIn: Bool) {
    let problem: ProfileError
    do {
        let (base, text) = try library.loadProfileWithText(profile, overrides: overrides)
        return (base, text, false)
    } catch {
        problem = error
    }
    guard !problem.cannotOpen else { throw problem }
    let candidates = try candidates()
    var problems: [ProfileError] = []
    problems.reserveCapacity(candidates.count)
    for candidate in candidates {
        do {
            let (standIn, text) = try library.loadProfileWithText(profile, overrides: overrides + candidate.filter { !$0.reachesPopulation })
            return (standIn, text, true)
        } catch {
            problems.append(error)
        }
    }
    // Whether a candidate's problem is a value of its own by itself, and whether its values are part of it.
    func named(_ index: Int) -> (own: Bool, part: Bool) {
        let mine = candidates[index].map(\.text)
        return (problems[index].isOwnValue(among: mine), problems[index].origin.overrideTexts.contains(where: mine.contains))
    }
    if ownValuesFirst, let own = problems.indices.first(where: { named($0).own }) {
        throw refusal(own, problems[own])
    }
    // (With `ownValuesFirst` no candidate's own value is left here; without, one is infeasible, not the reason.)
    guard let first = problems.indices.first(where: { named($0).part && !named($0).own }) else { throw problem }
    throw refusal(first, problems[first])
}

/// The base of a sweep over `plan` (`studyBase`, its points standing in, in order): when none loads, point 1's
/// problem is named as `Sweep.profiles` names it, then given to `blame` (a design file's row).
func sweepBase(
    _ profile: String, library: ProfileLibrary, overrides: [Override], plan: () throws -> SweepPlan,
    blame: (SweepError) -> Error = { $0 }
) throws -> (profile: Profile, text: String, standsIn: Bool) {
    var assignments: [[String]] = []
    return try studyBase(profile, library: library, overrides: overrides, candidates: {
        let plan = try plan()
        var candidates: [[Override]] = []
        candidates.reserveCapacity(plan.points.count)
        for index in plan.points.indices {
            let point = try Sweep.pointOverrides(plan, point: index)
            assignments.append(point.assignments)
            candidates.append(point.overrides)
        }
        return candidates
    }, refusal: { index, error in blame(Sweep.pointError(index, assignments[index], error)) })
}

/// The request of a sweep over `plan`: the profile with `--set` applied (its file read once; `sweepBase`), the
/// population it names or `--population`, and the run options; and the base profile, for provenance and `--resume`.
func sweepRequest(
    plan: SweepPlan, profile: String, source: ProfileSourceOptions, simulation: RunOptions
) throws -> (request: SweepRequest, base: Profile) {
    let library = source.library
    let path = library.profilePath(profile)
    let baseOverrides = try source.profileOverrides()
    let (base, text, standsIn) = try sweepBase(profile, library: library, overrides: baseOverrides, plan: { plan })
    let population = try source.applyingPopulationOverrides(
        to: [simulation.population.map { try library.loadPopulation($0) } ?? library.loadPopulation(of: base)], warning: false)[0]
    var request = SweepRequest(
        profileText: text, profilePath: path,
        baseOverrides: baseOverrides, population: population, plan: plan, users: simulation.users, seed: simulation.seed,
        rng: simulation.rng, threads: simulation.workerThreads)
    request.baseStandsIn = standsIn
    return (request, base)
}
