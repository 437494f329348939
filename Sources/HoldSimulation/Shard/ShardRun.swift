import HoldLabIO

/// Running one shard of a simulation or a sweep and writing its file (`ShardFormat`).
public enum ShardRun {
    /// The head every shard and merged file starts with: `holdlab` and `command`, then the identity lines.
    package static func head(kind: ShardFormat.Kind, command: String, identity: [(String, String)]) -> [(String, String)] {
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
    ///   - command, planCommand: the shard's command line, and the same without `--shard`, `--out`, `--per-user`, `--threads`.
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
}
