import Foundation
import Testing

/// The notes that say when a printed interval is in a regime where its method is known to cover less than 95 %.
@Suite("notes on intervals that undercover")
struct IntervalNoteCommandTests {
    @Test("simulate notes Wilson's few-events regime with the exact interval; a run with many events has no note")
    func fewEventsNote() throws {
        let rare = try CLI.run(["simulate", "--set", "gesture.minimumDuration=2.1", "--users", "2000", "--seed", "1"])
        #expect(rare.status == 0)
        #expect(rare.stderr.contains("holdlab: note: few events (at most 10 events or non-events)"), "\(rare.stderr)")
        #expect(rare.stderr.contains("false_activation_rate (hig-linear-bar, default) "), "\(rare.stderr)")
        #expect(rare.stderr.contains(": exact [0.000000, "), "\(rare.stderr)")
        let common = try CLI.run(["simulate", "--users", "20000", "--seed", "1"])
        #expect(common.status == 0 && !common.stderr.contains("few events"), "\(common.stderr)")
    }

    @Test("sensitivity --method morris below 100 trajectories notes that mu_star's intervals are approximate")
    func morrisNote() throws {
        let arguments = ["sensitivity", "--method", "morris", "--users", "100", "--profile", "kikocard-accelerating",
                         "--vary", "fill.timer.acceleration=0.00003:0.0002", "--metric", "pulses_mean", "--seed", "2"]
        let few = try CLI.run(arguments + ["--points", "20"])
        #expect(few.status == 0 && few.stderr.contains("note: mu_star intervals from 20 trajectories are SALib's"), "\(few.stderr)")
        let none = try CLI.run(arguments + ["--points", "20", "--bootstrap", "0"])
        #expect(none.status == 0 && !none.stderr.contains("mu_star intervals"), "\(none.stderr)")
        let many = try CLI.run(arguments + ["--points", "100"])
        #expect(many.status == 0 && !many.stderr.contains("mu_star intervals"), "\(many.stderr)")
    }
}
