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

    @Test("a view shows a Wilson interval for every rate, so its few-events rates are noted too; CSV's are not")
    func fewEventsInViews() throws {
        // hig-linear-bar has no impatience releases: 0 of about 1,700 intent users, shown as [0.000, 0.002] in a view.
        // mt19937's people: with them no other rate of the CSV has few events.
        let table = try CLI.run(["simulate", "--users", "2000", "--seed", "1", "--format", "table", "--rng", "mt19937"])
        #expect(table.status == 0 && table.stderr.contains("premature_impatience_rate (hig-linear-bar, default) 0 of "), "\(table.stderr)")
        let csv = try CLI.run(["simulate", "--users", "2000", "--seed", "1", "--format", "csv", "--rng", "mt19937"])
        #expect(csv.status == 0 && !csv.stderr.contains("few events"), "\(csv.stderr)")
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
