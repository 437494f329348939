import HoldLabIO
/// Running one shard of a simulation or a sweep and writing its file (`ShardFormat`).
public enum ShardRun {
    /// The head every shard and merged file starts with: `holdlab` and `command`, then the identity lines.
    static func head(kind: ShardFormat.Kind, command: String, identity: [(String, String)]) -> [(String, String)] {
        [("holdlab", "\(HoldLabVersion.current) \(kind.rawValue)"), ("command", command)] + identity
    }

    /// The plan hash of a simulation: every line that identifies its results.
    public static func simulationPlan(identity: [(String, String)]) -> String {
        ShardFormat.planHash(kind: .simulate, identity: identity)
    }

    /// Runs shard `shard` of the simulation's user chunks and returns the shard file.
    ///
    /// - Parameters:
    ///   - identity: the unsharded run's provenance after `command` (population, profiles, users), which the
    ///     merge writes back.
    ///   - command, planCommand: the shard's command line, and the same without `--shard`, `--out`, `--threads`.
    ///   - progress: users done in this shard, per profile.
    public static func simulation(
        _ request: SimulationRequest, shard: ShardSpec, identity: [(String, String)], command: String, planCommand: String,
        perUser: ((String) throws -> Void)? = nil, progress: ((Int) -> Void)? = nil
    ) throws -> String {
        let total = Simulator.chunkCount(users: request.users)
        try shard.check(units: total, what: "user chunks of \(Simulator.chunkSize) (--users \(request.users))")
        let chunks = shard.range(of: total)
        let tallies = try Simulator.tallies(request, chunks: chunks, perUser: perUser, progress: progress)
        let plan = simulationPlan(identity: identity)
        var text = CSV.provenance(head(kind: .simulate, command: command, identity: identity) + ShardFormat.provenance(
            kind: .simulate, shard: shard, plan: plan, planCommand: planCommand, part: ShardFormat.part("chunks", chunks, of: total)))
        text += (["profile"] + TallyCoding.columns).joined(separator: ",") + "\n"
        for (profile, tally) in zip(request.profiles, tallies) {
            text += ([CSV.field(profile.name)] + TallyCoding.encode(tally)).joined(separator: ",") + "\n"
        }
        return ShardFormat.sealed(text, rows: tallies.count)
    }

    /// The plan hash of a sweep: its identity lines, header and every point.
    public static func sweepPlan(_ request: SweepRequest, identity: [(String, String)]) -> String {
        ShardFormat.planHash(
            kind: .sweep, identity: identity,
            extra: [Sweep.header(request.plan)] + request.plan.points.map { $0.map(CSV.field).joined(separator: ",") })
    }

    /// The points (0-based) of shard `shard` of a sweep, after checking every shard has one.
    public static func sweepPoints(_ request: SweepRequest, shard: ShardSpec) throws(ShardError) -> Range<Int> {
        try shard.check(units: request.plan.points.count, what: "points")
        return shard.range(of: request.plan.points.count)
    }

    /// The shard file of a sweep shard whose `rows` (points `sweepPoints`, in order) are done.
    public static func sweepFile(
        _ request: SweepRequest, shard: ShardSpec, identity: [(String, String)], command: String, planCommand: String,
        rows: [String]
    ) -> String {
        let points = shard.range(of: request.plan.points.count)
        var text = CSV.provenance(head(kind: .sweep, command: command, identity: identity) + ShardFormat.provenance(
            kind: .sweep, shard: shard, plan: sweepPlan(request, identity: identity), planCommand: planCommand,
            part: ShardFormat.part("points", points, of: request.plan.points.count)))
        text += Sweep.header(request.plan) + "\n"
        for row in rows { text += row + "\n" }
        return ShardFormat.sealed(text, rows: rows.count)
    }
}
