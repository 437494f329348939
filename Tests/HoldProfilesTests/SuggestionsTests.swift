@testable import HoldProfiles
import HoldLabIO
import Testing

@Suite("Suggestions by edit distance; profiles check's every problem")
struct SuggestionsTests {
    @Test("Damerau–Levenshtein distances (optimal string alignment), case-insensitive")
    func distances() {
        #expect(Suggestions.distance("kitten", "sitting") == 3)
        #expect(Suggestions.distance("minimumDuraton", "minimumDuration") == 1)
        #expect(Suggestions.distance("curev", "curve") == 1)  // one transposition
        #expect(Suggestions.distance("", "abc") == 3)
        #expect(Suggestions.distance("ABC", "abc") == 0)
    }

    @Test("closest names: typos, a part of the name, a mistyped start; nothing for a far name")
    func closest() {
        let profiles = ["hig-linear-bar", "hig-linear-ring", "kikocard-accelerating", "kikocard-article-latency", "static-long-press"]
        #expect(Suggestions.closest(to: "hig-linear-bat", among: profiles) == ["hig-linear-bar", "hig-linear-ring"])
        #expect(Suggestions.closest(to: "kikocard", among: profiles) == ["kikocard-accelerating", "kikocard-article-latency"])
        #expect(Suggestions.closest(to: "hury", among: ["default", "hold-only", "hurried", "motor-impaired"]) == ["hurried"])
        #expect(Suggestions.closest(to: "zzz", among: profiles).isEmpty)
        #expect(Suggestions.didYouMean("curv", among: ["curve", "delay"]) == " (did you mean 'curve'?)")
        #expect(Suggestions.didYouMean("qqqq", among: ["curve"]) == "")
    }

    @Test("an unknown YAML key names the closest allowed key")
    func yamlKey() {
        let yaml = "version: 1\nname: x\ndescription: d\ngesture:\n  minimumDuraton: 1\n"
        #expect(throws: ProfileError.self) { try Profile.load(yaml: yaml, path: "x.yaml") }
        do {
            _ = try Profile.load(yaml: yaml, path: "x.yaml")
        } catch {
            #expect(error.description.hasPrefix("x.yaml:5:19: gesture.minimumDuraton: unknown key (did you mean 'minimumDuration'?)"))
        }
    }

    @Test("every problem of a file, in line order, each with its line, column and key path")
    func everyProblem() {
        let yaml = """
            version: 1
            name: x
            description: d
            gesture:
              minimumDuraton: 1
              maximumDistance: -3
            fill:
              curv: linear
              duration: abc
            haptics: {threshold: -1}

            """
        let problems = Profile.problems(yaml: yaml, path: "x.yaml")
        #expect(problems.map { "\($0.origin) \($0.keyPath)" } == [
            "x.yaml:5:19 gesture.minimumDuraton", "x.yaml:6:20 gesture.maximumDistance", "x.yaml:8:9 fill.curv",
            "x.yaml:9:13 fill.duration", "x.yaml:10:22 haptics.threshold",
        ])
        // The first is what loading reports.
        do {
            _ = try Profile.load(yaml: yaml, path: "x.yaml")
        } catch {
            #expect(problems.contains(error))
        }
        #expect(Profile.problems(yaml: "version: 1\nname: ok\ndescription: d\n", path: "ok.yaml").isEmpty)
        // A problem that cannot be set aside (a missing required key) ends the list; so does YAML that does not parse.
        #expect(Profile.problems(yaml: "version: 1\ndescription: d\n", path: "n.yaml").count == 1)
        #expect(Profile.problems(yaml: "a: [\n", path: "s.yaml").count == 1)
    }

    @Test("the same words with one more or fewer are suggested (first_feedback_mean_ms → first_feedback_ms); two shared words are not enough")
    func sameWords() {
        #expect(Suggestions.closest(to: "first_feedback_mean_ms", among: ["completion_time_mean_ms", "first_feedback_ms"]) == ["first_feedback_ms"])
        #expect(Suggestions.closest(to: "mean_time", among: ["completion_time_mean_ms"]).isEmpty)
    }
}
