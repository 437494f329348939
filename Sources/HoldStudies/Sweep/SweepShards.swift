import HoldLabIO
import HoldSimulation

/// Running one shard of a sweep and writing its file (`ShardFormat`).
extension ShardRun {
    /// The plan hash of a sweep: its identity lines, header and every point.
    public static func sweepPlan(_ request: SweepRequest, identity: [(String, String)]) -> String {
        ShardFormat.sweepPlanHash(identity: identity, header: Sweep.header(request.plan), points: request.plan.points)
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
