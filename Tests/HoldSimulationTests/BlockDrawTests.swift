import GSL
import HoldLabTestSupport
import HoldProfiles
import Testing
@testable import HoldSimulation

/// A chunk's people drawn a block at a time (`PreparedPopulation.draw(_:from:into:buffers:)`: every person's numbers
/// first, each class's durations after) must be the people `draw` gives one by one, bit for bit, and leave the
/// generator where they leave it: every figure before the block draw comes back from the same seed.
@Suite("block draw: the people one by one, bit for bit")
struct BlockDrawTests {
    /// Every family and behaviour the draw finishes: each distribution (a mixture of one, of a mixture, with a
    /// component of weight 0), react with patience, anticipate, classes with movement, a weight of 0.
    static let everyFamily = """
          - {name: constant, weight: 1, intent: confirm, behavior: hold, hold: {dist: constant, value: 0.7}}
          - {name: uniform, weight: 1, intent: none, behavior: hold, hold: {dist: uniform, min: 0.1, max: 2}}
          - {name: normal, weight: 1, intent: confirm, behavior: hold, hold: {dist: normal, mean: 0.8, sd: 0.5}}
          - {name: lognormal, weight: 2, intent: confirm, behavior: hold, hold: {dist: lognormal, median: 0.9, sigma: 0.4}, movement: {drift: 12, touchRate: 120}}
          - {name: gamma, weight: 1, intent: confirm, behavior: hold, hold: {dist: gamma, shape: 2.5, scale: 0.3}}
          - {name: weibull, weight: 1, intent: confirm, behavior: hold, hold: {dist: weibull, shape: 1.7, scale: 0.9}}
          - {name: exponential, weight: 1, intent: none, behavior: hold, hold: {dist: exponential, mean: 0.2}}
          - {name: exgaussian, weight: 1, intent: confirm, behavior: react, reaction: {dist: exgaussian, mu: 0.2, sigma: 0.03, tau: 0.08}, patience: {dist: loglogistic, scale: 1.5, shape: 4}}
          - {name: loglogistic, weight: 3, intent: confirm, behavior: hold, hold: {dist: loglogistic, scale: 0.9, shape: 6}}
          - {name: anticipate, weight: 1, intent: confirm, behavior: anticipate, bias: -0.03, weber: 0.08, movement: {drift: 30, touchRate: 60}}
          - {name: mixed, weight: 1, intent: confirm, behavior: react, reaction: {dist: mixture, components: [{weight: 0.7, dist: lognormal, median: 0.25, sigma: 0.3}, {weight: 0, dist: constant, value: 9}, {weight: 0.3, dist: mixture, components: [{weight: 1, dist: gamma, shape: 3, scale: 0.1}, {weight: 1, dist: exponential, mean: 0.4}]}]}, patience: {dist: exgaussian, mu: 1, sigma: 0.5, tau: 0.5}}
          - {name: never, weight: 0, intent: confirm, behavior: hold, hold: {dist: normal, mean: -1, sd: 0.1}}
        """

    static func populations() throws -> [(String, Population)] {
        var all = [("every family", try Make.population(Self.everyFamily))]
        for name in Make.library.populationNames() {
            all.append((name, try Make.library.loadPopulation(name)))
        }
        return all
    }

    @Test("every population of the library and every family, several seeds and chunk sizes")
    func sameBits() throws {
        for (name, population) in try Self.populations() {
            let prepared = PreparedPopulation(population)
            let buffers = DrawBuffers(classes: population.classes.count)
            // Whole blocks, a block and a part, one person, and a chunk.
            for (seed, count) in [(UInt64(1), 256), (2, 300), (3, 1), (20261129, Simulator.chunkSize)] {
                for kind in [Generator.Kind.taus2, .mt19937] {
                    let one = Generator(seed: seed, stream: 4, kind: kind)
                    let block = Generator(seed: seed, stream: 4, kind: kind)
                    let expected = (0..<count).map { _ in prepared.draw(one) }
                    // After a person already there: the block's people are appended.
                    var drawn = [prepared.draw(Generator(seed: 9, stream: 0, kind: kind))]
                    let first = drawn[0]
                    prepared.draw(count, from: block, into: &drawn, buffers: buffers)
                    #expect(drawn.count == count + 1)
                    #expect(Self.bits(drawn[0]) == Self.bits(first))
                    for (index, (got, want)) in zip(drawn.dropFirst(), expected).enumerated()
                        where Self.bits(got) != Self.bits(want) {
                        Issue.record("\(name), seed \(seed), \(kind): person \(index): \(got) != \(want)")
                        break
                    }
                    // Both took the same numbers from the generator.
                    #expect(one.uniform() == block.uniform(), "\(name), seed \(seed), \(kind)")
                }
            }
        }
    }

    @Test("an anticipating class's z is Generator.gaussian(): the standard normal the block draw finishes")
    func standardNormal() {
        let a = Generator(seed: 5, stream: 0, kind: .taus2), b = Generator(seed: 5, stream: 0, kind: .taus2)
        let normal = Distribution.normal(mean: 0, sd: 1)
        for _ in 0..<100_000 {
            let z = a.gaussian(), w = normal.finish(normal.pending(b))
            if z.bitPattern != w.bitPattern {
                Issue.record("\(z) != \(w)")
                return
            }
        }
    }

    static func bits(_ user: DrawnUser) -> [UInt64] {
        [UInt64(user.classIndex), user.framePhase.bitPattern, user.primary.bitPattern, user.patience.bitPattern,
         user.movementUniform.bitPattern]
    }
}
