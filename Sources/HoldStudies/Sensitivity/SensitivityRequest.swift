import HoldLabIO
import HoldProfiles
import HoldSimulation

/// `holdlab sensitivity`: a design's points simulated as a sweep (common random numbers), then Sobol' or Morris
/// indices per metric, with the provenance of the samples and of the indices.
public struct SensitivityRequest: Sendable {
    public var plan: SensitivityPlan
    /// The sweep of the design's points (`plan.sweepPlan`): profile, population, users, seed, threads.
    public var sweep: SweepRequest
    /// The profile with the `--set` overrides, for the provenance.
    public var baseProfile: Profile
    /// The simulate columns to analyse.
    public var metrics: [String]
    public var bootstrap: SensitivityBootstrap
    /// Where the samples are written (`--samples`), or nil, for the provenance.
    public var samplesFile: String?
    /// The command line the results record (`CommandRecord.line`).
    public var commandLine: String

    public init(plan: SensitivityPlan, sweep: SweepRequest, baseProfile: Profile, metrics: [String],
                bootstrap: SensitivityBootstrap, samplesFile: String? = nil, commandLine: String) {
        self.plan = plan
        self.sweep = sweep
        self.baseProfile = baseProfile
        self.metrics = metrics
        self.bootstrap = bootstrap
        self.samplesFile = samplesFile
        self.commandLine = commandLine
    }

    /// The samples file's `#` lines and header, as a sweep writes them: the tool, the command, the sweep's identity
    /// (which `--resume` checks) and the design.
    public var samplesHead: String {
        CSV.provenance(samplesProvenance.entries.map { ($0.key, $0.value) }) + Sweep.header(plan.sweepPlan) + "\n"
    }

    var samplesProvenance: Provenance {
        Provenance.made(by: "sensitivity", commandLine: commandLine)
            + Provenance(Sweep.identity(sweep, baseProfile: baseProfile) + [("sensitivity_design", plan.description)])
    }

    /// The indices' provenance: the samples' lines, then the estimators, the bootstrap and where the samples are.
    var analysisProvenance: Provenance {
        let what = plan.method == .sobol ? "the \(plan.saltelli?.baseRows ?? 0) base rows"
            : "the \(plan.morris?.trajectories ?? 0) trajectories' effects"
        var provenance = samplesProvenance
        provenance.append("sensitivity_estimators", plan.method == .sobol
            ? "S1 Saltelli et al. 2010, ST Jansen 1999, S2 Saltelli 2002, on outputs standardised over all points (as SALib.analyze.sobol)"
            : "elementary effects D·Δf/Δ per full range; mu, mu_star, sigma (n − 1) (as SALib.analyze.morris)")
        provenance.append("sensitivity_bootstrap", bootstrap.resamples == 0
            ? "none (--bootstrap 0): intervals are NaN"
            : "\(bootstrap.resamples) resamples of \(what), seed \(bootstrap.seed); 95 % interval = estimate ∓ 1.959964 × their standard deviation")
        provenance.append("sensitivity_samples", samplesFile ?? "not written (--samples FILE keeps them)")
        return provenance
    }

    /// Fewer trajectories than this: mu_star's bootstrap interval (SALib's `mu_star_conf`, estimate ± 1.96 bootstrap
    /// standard deviations of the r effects) is known to cover less than 95 %. HoldLab's coverage study
    /// (`.ci/coverage`, docs/INTERVALS.md) measured about 0.89 at the default 20 trajectories for an effect whose
    /// |elementary effects| are skewed (a quarter of them 0); resampling those effects gives 0.90 at 20, 0.935 at 60
    /// and 0.94 at 200.
    public static let morrisTrajectoriesThatCover = 100

    /// The note a Morris run with bootstrap intervals and fewer than `morrisTrajectoriesThatCover` trajectories
    /// prints: its mu_star intervals are in the regime where they undercover. Nil otherwise (Sobol' intervals have
    /// no coverage over seeds to measure: the design is the same for every seed).
    public var coverageNote: String? {
        guard bootstrap.resamples > 0, let morris = plan.morris, morris.trajectories < Self.morrisTrajectoriesThatCover else {
            return nil
        }
        let enough = Self.morrisTrajectoriesThatCover
        return "note: mu_star intervals from \(morris.trajectories) trajectories are SALib's (estimate ± 1.96 bootstrap "
            + "standard deviations), which can cover as little as 89 % with fewer than \(enough) (docs/INTERVALS.md); "
            + "read them as approximate, or use --points \(enough)"
    }

    /// Simulates every point of the design in memory, then analyses them (`analyze(rows:)`) as the samples file
    /// holds them.
    ///
    /// - Parameter progress: users simulated so far.
    public func run(progress: ((Int) -> Void)? = nil) throws -> SensitivityReport {
        var rows: [String] = []
        try Sweep.run(sweep, profiles: try Sweep.profiles(sweep), onRows: { batch in
            rows += batch.map { $0.map(\.csvText).joined(separator: ",") }
        }, progress: progress)
        return analyze(rows: rows)
    }

    /// The indices of every metric from the simulated rows (the samples file's data rows, in the design's order:
    /// what `Sweep.run` gives, or a resumed file holds).
    public func analyze(rows: [String]) -> SensitivityReport {
        let results = metrics.map { plan.analyze(metric: $0, rows: rows, bootstrap: bootstrap) }
        let provenance = analysisProvenance
        let indices = ResultTable(provenance: provenance, columns: SensitivityTable.columns(plan.method),
                                  rows: SensitivityTable.rows(results, plan: plan))
        let secondOrder = plan.saltelli?.secondOrder == true
            ? ResultDocument(ResultTable(provenance: provenance, columns: SensitivityTable.secondOrderColumns,
                                         rows: SensitivityTable.secondOrderRows(results, plan: plan)))
            : nil
        return SensitivityReport(results: results, indices: ResultDocument(indices), secondOrder: secondOrder,
                                 notes: results.compactMap { $0.undefinedReason(plan) })
    }
}

/// What `holdlab sensitivity` found: each metric's indices, and the results every format is rendered from.
public struct SensitivityReport: Sendable {
    public let results: [SensitivityResult]
    /// Per metric, one row per parameter (``SensitivityTable``).
    public let indices: ResultDocument
    /// Per metric, one row per pair of parameters (Sobol' with second order only).
    public let secondOrder: ResultDocument?
    /// Why a metric's indices are undefined (written NaN), one sentence each.
    public let notes: [String]
}
