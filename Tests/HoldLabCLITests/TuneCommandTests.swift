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
    }
}
