import ArgumentParser
import Foundation
import HoldLabIO
import HoldProfiles
import HoldSimulation
import HoldStudies

struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Merge the shard files of a sharded sweep or simulation into the CSV the unsharded run writes.",
        discussion: """
            Every shard must come from the same plan (profile, population, design, seed, users, --set, --vary, \
            holdlab version) and the same N, be complete and unchanged; none may be missing or given twice. A sweep's \
            rows come out in point order; a simulation's summary rows are computed from the shards' exact tallies. \
            Either way the data rows are byte-identical to the unsharded run's. Anything wrong is one line naming \
            the file and the reason, exit status 65, and nothing is written. docs/CLUSTER.md: Running on a cluster.

            Examples:
              for k in 1 2 3; do holdlab sweep --design sobol --points 64 \\
                --vary fill.duration=0.5:1.5 --shard $k/3 --out s$k.csv; done
              holdlab merge --out rates.csv s1.csv s2.csv s3.csv
              holdlab simulate --users 1000000 --shards 8 --emit parallel \\
                --out sim.csv > sim.sh && bash sim.sh
            """)

    @Argument(help: ArgumentHelp("The shard files (written by --shard K/N), in any order.", valueName: "shard-file"), completion: .file())
    var files: [String] = []

    @OptionGroup var output: OutputOptions

    @OptionGroup var view: RowFormatOptions

    @OptionGroup var quietOption: QuietOption

    /// The largest shard file read: a sweep shard of 100,000 points of about 700 bytes, with room.
    static let maximumShardBytes = 256 << 20

    func validate() throws {
        if files.isEmpty { throw ValidationError("Name the shard files to merge, e.g. holdlab merge --out all.csv shards/*.csv") }
        try refuseOutputsOverInputs([("--out", output.file)], files: files, kind: "shard file", readBy: "merge")
    }

    func run() throws {
        try reportingErrors {
            let out = OutputFile(argument: output.out)
            try out.checkWritable()
            let merge = ShardMerge()
            for file in files {
                try merge.add(path: file, text: try ProfileLibrary.read(file, what: "shard", limit: Self.maximumShardBytes))
            }
            let result = try merge.finish(
                outputArguments: output.file.map { "--out " + ClusterScript.quote($0) } ?? "", mergeCommand: "holdlab merge")
            try out.writeLast(view.render(ResultDocument(result.table), for: out))
            noteUndefinedValues(result.table, subject: "row")
        }
    }
}
