import Foundation
import Testing

@Suite("holdlab tune")
struct TuneCommandTests {
    @Test("writes the trajectory and the re-simulated optimum as two gnuplot blocks, and the tuned profile")
    func blocks() throws {
        let directory = try CLI.temporaryDirectory()
        let profile = directory.appendingPathComponent("tuned.yaml").path
        let result = try CLI.run(["tune", "--profile", "hig-linear-bar", "--param", "gesture.minimumDuration=0.3:1.5",
                                  "--minimize", "gesture.minimumDuration", "--constraint", "false_activation_rate<=0.02",
                                  "--users", "4000", "--emit-profile", profile])
        #expect(result.status == 0, "\(result.stderr)")
        let blocks = result.stdout.components(separatedBy: "\n\n\n")
        #expect(blocks.count == 2)
        #expect(blocks[0].contains("evaluation,param_gesture_minimumDuration,score,objective,penalty,feasible,false_activation_rate"))
        #expect(blocks[1].hasPrefix("# index 1: the optimum re-simulated with seed 2"))
        #expect(result.stderr.contains("recommended: gesture.minimumDuration="))
        #expect(try CLI.run(["profiles", "check", profile]).status == 0)
    }

    @Test("bad input: no objective (64), two objectives (64), an unknown metric (64)")
    func errors() throws {
        let none = try CLI.run(["tune", "--param", "gesture.minimumDuration=0.3:1.5"])
        #expect(none.status == 64 && none.stderr.contains("Give exactly one of --minimize, --maximize and --target."))
        let two = try CLI.run(["tune", "--param", "gesture.minimumDuration=0.3:1.5", "--minimize", "users", "--maximize", "users"])
        #expect(two.status == 64)
        let unknown = try CLI.run(["tune", "--param", "gesture.minimumDuration=0.3:1.5", "--minimize", "joy"])
        #expect(unknown.status == 64 && unknown.stderr.contains("'joy' is neither a --param key nor a simulate column"))
        // A range tune cannot take is named in tune's own form, not sweep's (steps, lhs and sobol).
        for range in ["nan:1.5", "1.5:1.0", "0.3:1.5:0.1", "0.3,1.5", "1.5"] {
            let bad = try CLI.run(["tune", "--param", "gesture.minimumDuration=\(range)", "--minimize", "completion_time_mean_ms"])
            #expect(bad.status == 64 && bad.stderr.contains("holdlab: error: --param gesture.minimumDuration=\(range): expected key.path=lo:hi, two finite numbers with lo < hi"),
                    "\(range): \(bad.stderr)")
        }
    }

    /// The accidental users' hold times in seconds at seed 1 (press_end_ms of `simulate --per-user` with a gesture
    /// that never fires); under common random numbers they are the same for every minimumDuration.
    static func accidentalHolds(users: Int) throws -> [Double] {
        let directory = try CLI.temporaryDirectory()
        let perUser = directory.appendingPathComponent("users.csv").path
        let run = try CLI.run(["simulate", "--profile", "hig-linear-bar", "--set", "gesture.minimumDuration=100",
                               "--users", "\(users)", "--per-user", perUser, "--out", directory.appendingPathComponent("s.csv").path])
        #expect(run.status == 0, "\(run.stderr)")
        // The per-user file starts with the summary's provenance lines.
        let lines = try String(contentsOfFile: perUser, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        let header = lines[0].split(separator: ",").map(String.init)
        let intent = try #require(header.firstIndex(of: "intent")), end = try #require(header.firstIndex(of: "press_end_ms"))
        return lines.dropFirst().compactMap { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            return fields[intent] == "none" ? Double(fields[end]).map { $0 / 1000 } : nil
        }
    }

    /// The recommended value from the CSV provenance (the value evaluated, at full precision).
    static func recommended(_ stdout: String) -> Double? {
        let line = stdout.split(separator: "\n").first { $0.hasPrefix("# recommended: gesture.minimumDuration=") }
        return line.flatMap { Double($0.dropFirst("# recommended: gesture.minimumDuration=".count).prefix { $0 != " " }) }
    }

    @Test("issue 14 cases 6 and 7: the feasible boundary, not an infeasible range end, as the per-user outcomes say",
          arguments: [("0.005", "1.0:2.0"), ("0.005", "0.98:2.0"), ("0.0026", "1.0:2.0")])
    func feasibleBoundary(bound: String, range: String) throws {
        // Completion time grows with minimumDuration, so the best feasible point is the smallest one whose false
        // activation rate (k of n accidental users with holds ≥ θ) is ≤ the bound: just above the (k+1)-th longest hold.
        let users = 5_000
        let holds = try Self.accidentalHolds(users: users).sorted(by: >)
        let limit = try #require(Double(bound))
        let allowed = (0...holds.count).last { Double($0) / Double(holds.count) <= limit } ?? 0
        let exact = holds[allowed]
        let result = try CLI.run(["tune", "--profile", "hig-linear-bar", "--param", "gesture.minimumDuration=\(range)",
                                  "--target", "completion_time_mean_ms=1000", "--constraint", "false_activation_rate<=\(bound)",
                                  "--users", "\(users)", "--confidence", "0.5"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("violates"))
        let value = try #require(Self.recommended(result.stdout))
        // Root finding stops within 1e-4 of the range of the switch; per-user times are printed to 1e-6 s.
        #expect(value > exact - 1e-6 && value <= exact + 1.5e-4, "\(value) vs exact \(exact)")
        #expect(result.stderr.contains("set by false_activation_rate<=\(bound)"))
    }

    @Test("too few users for any rate to pass: the refusal says so and how many users would let 0 events pass")
    func tooFewUsers() throws {
        let result = try CLI.run(["tune", "--profile", "hig-linear-bar", "--param", "gesture.minimumDuration=1.0:2.0",
                                  "--target", "completion_time_mean_ms=1000", "--constraint", "false_activation_rate<=0.005",
                                  "--users", "2000"])
        #expect(result.status == 1)
        let line = try #require(result.stderr.split(separator: "\n").first { $0.contains("no point in the range meets") })
        // "with N people in its denominator (of 2000 users) even 0 events would give a bound of B, so no design can
        // meet it: give --users about U or more": B = z²/(N + z²) at the one-sided z of 0.95, U = z²(1 − 0.005)/0.005 · 2000/N.
        let numbers = line.components(separatedBy: "with ")[1].split(whereSeparator: { !"0123456789.".contains($0) })
            .compactMap { Double($0) }
        #expect(numbers.count >= 5, "\(line)")
        let n = numbers[0], z = 1.6448536269514722
        #expect(numbers[1] == 2000 && n > 200 && n < 500, "\(line)")
        // Printed to 4 significant digits.
        #expect(abs(numbers[3] - z * z / (n + z * z)) < 5e-4 * numbers[3], "\(line)")
        #expect(numbers[4] == (z * z * 0.995 / 0.005 * 2000 / n).rounded(.up), "\(line)")
        #expect(line.contains("even 0 events would give a bound of") && line.contains("so no design can meet it: give --users about"))
        // With enough users the same search meets the bound, or fails for the design's own reasons, never this one.
        let enough = try CLI.run(["tune", "--profile", "hig-linear-bar", "--param", "gesture.minimumDuration=1.0:2.0",
                                  "--target", "completion_time_mean_ms=1000", "--constraint", "false_activation_rate<=0.005",
                                  "--users", "\(Int(numbers[4]) + 500)"])
        #expect(!enough.stderr.contains("no design can meet it"), "\(enough.stderr)")
    }

    @Test("issue 14 case 8: by default a rate constraint holds for its 95 % one-sided Wilson upper bound")
    func confidence() throws {
        let users = 5_000
        let holds = try Self.accidentalHolds(users: users).sorted(by: >)
        let n = Double(holds.count), z = 1.6448536269514722
        // The largest count whose one-sided Wilson upper bound is ≤ 0.005.
        let allowed = (0...holds.count).last { k in
            let p = Double(k) / n
            let upper = (p + z * z / (2 * n) + z * (p * (1 - p) / n + z * z / (4 * n * n)).squareRoot()) / (1 + z * z / n)
            return upper <= 0.005
        } ?? 0
        let result = try CLI.run(["tune", "--profile", "hig-linear-bar", "--param", "gesture.minimumDuration=1.0:2.0",
                                  "--target", "completion_time_mean_ms=1000", "--constraint", "false_activation_rate<=0.005",
                                  "--users", "\(users)"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("# confidence: rate constraints hold for the rate's one-sided Wilson bound at 0.95"))
        let value = try #require(Self.recommended(result.stdout))
        #expect(value > holds[allowed] - 1e-6 && value <= holds[allowed] + 1.5e-4, "\(value) vs exact \(holds[allowed])")
    }

    @Test("issue 14 case 9: nothing feasible exits 1 naming the constraint and the excess, and emits no profile")
    func infeasible() throws {
        let directory = try CLI.temporaryDirectory()
        let profile = directory.appendingPathComponent("tuned.yaml").path
        let csv = directory.appendingPathComponent("tune.csv").path
        // The help's first example, verbatim but for --users, --out and --emit-profile.
        let result = try CLI.run(["tune", "--profile", "hig-linear-bar", "--param", "gesture.minimumDuration=0.3:1.5",
                                  "--minimize", "gesture.minimumDuration", "--constraint", "false_activation_rate<=0.005",
                                  "--constraint", "premature_release_rate<=0.02", "--users", "2000", "--out", csv,
                                  "--emit-profile", profile])
        #expect(result.status == 1)
        let last = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("holdlab: no point in the range meets premature_release_rate<=0.02: at best (gesture.minimumDuration="), "\(last)")
        #expect(last.contains("beyond the bound; no profile written"))
        #expect(!result.stderr.contains("converged after") || result.stderr.contains("no point meets every constraint"))
        #expect(!FileManager.default.fileExists(atPath: profile))
        #expect(try String(contentsOfFile: csv, encoding: .utf8).contains("(violates a constraint: no point in the range is feasible)"))
    }

    @Test("an objective undefined at every feasible point (one or two parameters) exits 1 with the reason and emits no profile; so does a constraint on an undefined metric")
    func undefinedObjective() throws {
        let directory = try CLI.temporaryDirectory()
        // hig-linear-bar plays one pulse per completed hold: no peak pulse rate anywhere.
        for parameters in [["--param", "gesture.minimumDuration=0.5:1.5"],
                           ["--param", "gesture.minimumDuration=0.5:1.5", "--param", "fill.delay=0:0.1"]] {
            let profile = directory.appendingPathComponent("tuned\(parameters.count).yaml").path
            let csv = directory.appendingPathComponent("tune\(parameters.count).csv").path
            let result = try CLI.run(["tune"] + parameters + ["--minimize", "peak_pulse_rate_hz", "--users", "2000",
                                                              "--out", csv, "--emit-profile", profile])
            #expect(result.status == 1, "\(parameters): \(result.stderr)")
            #expect(result.stderr.contains("nothing to recommend: peak_pulse_rate_hz is undefined at every point (no completed hold rendered two pulses"))
            #expect(result.stderr.contains("holdlab: no point in the range has a value of peak_pulse_rate_hz to optimise") && result.stderr.contains("; no profile written"))
            #expect(!result.stderr.contains("recommended:") && !result.stderr.contains("error"))
            // The trajectory's NaN, once, grouped by its reason.
            #expect(result.stderr.components(separatedBy: "note: undefined values are written as NaN (").count == 2
                    && result.stderr.contains(" evaluations): peak_pulse_rate_hz (no completed hold rendered two pulses); the objective is then NaN too"),
                    "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: profile))
            #expect(try String(contentsOfFile: csv, encoding: .utf8).contains("(peak_pulse_rate_hz is undefined at every point that meets the constraints: nothing to recommend)"))
        }
        let constrained = try CLI.run(["tune", "--param", "gesture.minimumDuration=0.5:1.5", "--minimize", "gesture.minimumDuration",
                                       "--constraint", "peak_pulse_rate_hz<=10", "--users", "2000",
                                       "--out", directory.appendingPathComponent("c.csv").path])
        #expect(constrained.status == 1)
        #expect(constrained.stderr.contains("no point in the range meets peak_pulse_rate_hz<=10: at best (gesture.minimumDuration=")
                && constrained.stderr.contains("peak_pulse_rate_hz is undefined (no completed hold rendered two pulses), which meets no bound"))
        #expect(!constrained.stderr.contains("nan"))
    }

    @Test("a --param key given twice is a usage error (64)")
    func repeatedParameter() throws {
        let result = try CLI.run(["tune", "--param", "gesture.minimumDuration=0.3:1.5", "--param", "gesture.minimumDuration=0.5:1",
                                  "--minimize", "gesture.minimumDuration"])
        #expect(result.status == 64 && result.stderr.contains("--param gesture.minimumDuration is given twice; name each key once."))
    }
}
