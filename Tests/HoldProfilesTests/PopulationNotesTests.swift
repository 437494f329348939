import HoldLabTestSupport
import HoldProfiles
import Testing

/// A class whose durations fall below 0 s is drawn at 0 s there (`PreparedPopulation.clampedDuration`): a run says
/// how much of each distribution that is, from its CDF, before its numbers are read.
@Suite("population notes: durations below 0 s")
struct PopulationNotesTests {
    @Test("the share below 0 s, exact from the CDF, for each class that can be drawn and each of its durations")
    func negativeMass() throws {
        let population = try Make.population("""
              - {name: below, weight: 1, intent: confirm, behavior: hold, hold: {dist: normal, mean: -1, sd: 0.1}}
              - {name: wide, weight: 1, intent: confirm, behavior: hold, hold: {dist: normal, mean: 0.8, sd: 0.5}}
              - {name: flat, weight: 1, intent: none, behavior: hold, hold: {dist: uniform, min: -0.1, max: 0.9}}
              - {name: tail, weight: 1, intent: confirm, behavior: hold, hold: {dist: normal, mean: 3, sd: 1}}
              - {name: zero, weight: 1, intent: none, behavior: hold, hold: {dist: constant, value: 0}}
              - {name: negative, weight: 1, intent: none, behavior: hold, hold: {dist: constant, value: -0.5}}
              - {name: never, weight: 0, intent: confirm, behavior: hold, hold: {dist: normal, mean: -1, sd: 0.1}}
              - {name: reacts, weight: 1, intent: confirm, behavior: react, reaction: {dist: exgaussian, mu: 0.2, sigma: 0.03, tau: 0.08}, patience: {dist: normal, mean: 0.2, sd: 0.2}}
              - {name: mixed, weight: 1, intent: confirm, behavior: hold, hold: {dist: mixture, components: [{weight: 1, dist: constant, value: -1}, {weight: 1, dist: lognormal, median: 0.5, sigma: 0.3}]}}
              - {name: lognormal, weight: 1, intent: confirm, behavior: hold, hold: {dist: lognormal, median: 0.5, sigma: 0.3}}
              - {name: near, weight: 1, intent: confirm, behavior: hold, hold: {dist: normal, mean: -2, sd: 0.5}}
            """)
        let notes = population.notes
        // Φ(−10) = 1 − 7.6e-24; Φ(−1.6) = 0.0548; 0.1 of the uniform's 1; Φ(−3) = 0.00135 (under 1 %: no note);
        // a constant 0 is not below 0; Φ(−1) = 0.159 of the patience; half the mixture.
        #expect(notes.count == 7, "\(notes)")
        // Φ(4) = 0.9999683: not rounded up to 100 % (nor down to 99.9 %).
        #expect(notes.contains { $0.hasPrefix("population q, class near: 99.997 % of its hold") }, "\(notes)")
        #expect(notes.contains { $0.hasPrefix("population q, class below: 100 % of its hold distribution {dist: normal, mean: -1.0, sd: 0.1} is below 0 s; those draws are taken as 0 s (a release at touch-down)") })
        #expect(notes.contains { $0.hasPrefix("population q, class wide: 5.48 % of its hold") })
        #expect(notes.contains { $0.hasPrefix("population q, class flat: 10 % of its hold") })
        #expect(notes.contains { $0.hasPrefix("population q, class negative: 100 % of its hold") })
        #expect(notes.contains { $0.hasPrefix("population q, class reacts: 15.9 % of its patience distribution") && $0.hasSuffix("(giving up at touch-down)") })
        #expect(notes.contains { $0.hasPrefix("population q, class mixed: 50 % of its hold") })
        #expect(!notes.contains { $0.contains("class tail") || $0.contains("class zero") || $0.contains("class never") || $0.contains("class lognormal") })
    }

    @Test("the library's populations give none")
    func libraryPopulations() throws {
        for name in Make.library.populationNames() {
            #expect(try Make.library.loadPopulation(name).notes.isEmpty, "\(name)")
        }
    }
}
