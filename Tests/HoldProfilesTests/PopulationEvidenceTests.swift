import Foundation
import HoldLabIO
import HoldLabTestSupport
import HoldProfiles
import Testing

/// Schema version 2: every number with its source and range; the shipped populations give both for every number
/// (issue 28, items 1 and 4).
@Suite("population evidence: sources, ranges, checks")
struct PopulationEvidenceTests {
    static let library = Make.library

    /// The numbers of a population that lack a source or a range: what the shipped populations must not have.
    static func incomplete(_ population: Population) -> [String] {
        population.parameters.filter { !$0.evidence.isComplete }.map(\.keyPath)
    }

    /// The class keys whose numbers feed a simulated rate: a shipped population must give evidence for each.
    static let feedingKeys = ["weight", "reaction.mu", "reaction.sigma", "reaction.tau", "patience.median", "patience.sigma",
                              "bias", "weber", "hold.median", "hold.sigma", "hold.scale", "hold.shape", "movement.drift",
                              "movement.touchRate"]

    @Test("every shipped population is version 2, validates with profiles check, and gives a source and a range for every number")
    func shippedEvidence() throws {
        for name in ["default", "hold-only", "hurried", "motor-impaired"] {
            let population = try Self.library.loadPopulation(name)
            #expect(population.version == 2)
            #expect(Self.incomplete(population).isEmpty, "\(name): \(Self.incomplete(population))")
            // Each class's numbers are recorded (so the check above covers them): weight at least, and every behaviour's.
            for userClass in population.classes {
                let keys = population.parameters.map(\.keyPath).filter { $0.hasPrefix(userClass.name + ".") }
                    .map { String($0.dropFirst(userClass.name.count + 1)) }
                #expect(keys.contains("weight"))
                #expect(keys.allSatisfy(Self.feedingKeys.contains), "\(name).\(userClass.name): \(keys)")
                switch userClass.behavior {
                case .react: #expect(keys.contains("reaction.mu") && keys.contains("patience.median"))
                case .anticipate: #expect(keys.contains("bias") && keys.contains("weber"))
                case .hold: #expect(keys.contains { $0.hasPrefix("hold.") })
                }
                if userClass.movement != nil { #expect(keys.contains("movement.drift")) }
            }
            guard case .valid(_, let checked, .population) = try Self.library.check(name) else {
                Issue.record("\(name) does not check as a valid population")
                continue
            }
            #expect(checked == name)
        }
    }

    @Test("the enforcement fails when a source or a range is removed from a shipped file")
    func removingEvidenceIsCaught() throws {
        let text = try String(contentsOfFile: Self.library.populationPath("default"), encoding: .utf8)
        let noRange = text.replacingOccurrences(of: "mu: {value: 0.170, range: [0.13, 0.25], source:", with: "mu: {value: 0.170, source:")
        #expect(noRange != text)
        #expect(Self.incomplete(try Population.load(yaml: noRange, path: "edited")) == ["deliberate.reaction.mu"])
        let plain = text.replacingOccurrences(of: "bias: {value: -0.05, range: [-0.15, 0.10], source: \"assumption: direction not settled; Miyake et al. 2004: taps precede a paced stimulus; Haywood 1980 (Exp Aging Res): little directional bias in coincidence anticipation\"}", with: "bias: -0.05")
        #expect(plain != text)
        #expect(Self.incomplete(try Population.load(yaml: plain, path: "edited")) == ["anticipating.bias"])
    }

    @Test("the archived version-1 populations keep their hashes: figures cited before 0.2.0 come back with --population v1/NAME")
    func archived() throws {
        let hashes = ["default": "3cbad16658650aaa"]
        for name in ["default", "hold-only", "hurried", "motor-impaired"] {
            let old = try Self.library.loadPopulation("v1/\(name)")
            let current = try Self.library.loadPopulation(name)
            #expect(old.version == 1 && old.name == name)
            #expect(old.evidenceCount.unsourced == old.parameters.count)
            if let hash = hashes[name] { #expect(old.contentHash == hash) }
            // Only the reaction changed (Woods et al. 2015), in default and hurried.
            #expect((old.contentHash == current.contentHash) == (name == "hold-only" || name == "motor-impaired"))
        }
        #expect(Self.library.populationPath("v1/default").hasSuffix("/populations/v1/default.yaml"))
        #expect(Self.library.populationPath("./v1/default") == "./v1/default")
    }

    /// Every problem (in line order, one a line) of a population with one class whose `bias` is written `field`.
    static func problem(_ field: String, version: Int = 2) -> String {
        let yaml = """
            version: \(version)
            name: p
            classes:
              - name: early
                weight: 1
                behavior: anticipate
                bias: \(field)
                weber: 0.1

            """
        return Population.problems(yaml: yaml, path: "p.yaml").map(\.description).joined(separator: "\n")
    }

    @Test("bad evidence: each refused with file:line:column, key path and what is allowed")
    func badEvidence() {
        #expect(Self.problem("{value: -0.05, range: [-0.15, 0.10], source: \"assumption: x\"}") == "")
        let outside = Self.problem("{value: -0.05, range: [0.0, 0.10], source: \"x\"}")
        #expect(outside.hasPrefix("p.yaml:7:") && outside.contains("classes[0].bias.range")
                && outside.contains("the value -0.05 must lie inside its range [0, 0.1]"), "\(outside)")
        #expect(Self.problem("{value: -0.05, range: [0.1, -0.1]}").contains("lo must not be above hi"))
        #expect(Self.problem("{value: -0.05, range: [-0.1]}").contains("must be a list of two finite numbers"))
        #expect(Self.problem("{value: -0.05, range: [-2, 0.1]}").contains("the low end -2 is not a value this parameter may take"))
        #expect(Self.problem("{range: [-0.1, 0.1]}").contains("classes[0].bias.value: is required"))
        #expect(Self.problem("{value: -0.05, source: \"\"}").contains("classes[0].bias.source: needs text"))
        #expect(Self.problem("{value: -0.05, sorce: \"x\"}").contains("sorce"))
        #expect(Self.problem("{value: -0.05, source: \"x\"}", version: 1).contains("needs version: 2"))
        #expect(Self.problem("{value: -0.05}", version: 3).contains("unsupported schema version 3"))
    }

    @Test("evidence counts: M for a citation, U for 'assumption:', unsourced for a plain number")
    func counts() throws {
        let population = try Self.library.loadPopulation("default")
        let count = population.evidenceCount
        #expect(count.measured + count.assumed == population.parameters.count && count.unsourced == 0)
        let mu = population.parameters.first { $0.keyPath == "deliberate.reaction.mu" }
        #expect(mu?.evidence.label == .measured && mu?.evidence.range == 0.13...0.25)
        #expect(population.parameters.first { $0.keyPath == "deliberate.patience.median" }?.evidence.label == .assumed)
    }

    @Test("profiles check tells a file's kind by its content, then its folder; standard input by content alone")
    func kinds() {
        let profile = "version: 1\nname: p\n"
        #expect(ProfileLibrary.kind(of: profile, path: "-") == .profile)
        #expect(ProfileLibrary.kind(of: "version: 2\nname: q\nclasses: []\n", path: "-") == .population)
        #expect(ProfileLibrary.kind(of: "question: why?\n", path: "-") == .review)
        #expect(ProfileLibrary.kind(of: profile, path: "/x/populations/p.yaml") == .population)
        #expect(ProfileLibrary.kind(of: profile, path: "/x/reviews/p.yaml") == .review)
        #expect(ProfileLibrary.kind(of: profile, path: "/x/populations") == .profile)
    }
}
