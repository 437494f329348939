import Foundation
import HoldLabTestSupport
import Testing

/// A file a hostile case creates in its working directory before the run.
enum Fixture: Sendable {
    case text(String)
    case bytes([UInt8])
    case directory
    case symlink(to: String)
    /// An executable script (a stand-in gnuplot or ffmpeg on a `PATH` the case sets).
    case executable(String)
}

/// A change made to a file the case's `before` commands wrote, before the case runs.
enum Tamper: Sendable {
    /// Sets `column` of every data row of a shard file to `value` and seals the shard again (a valid
    /// `# shard_end:` line), as a hostile shard would be crafted.
    case shardColumn(file: String, column: String, value: String)
    /// Puts a UTF-8 byte-order mark first and makes every line end CRLF (Excel's "CSV UTF-8", a Windows checkout).
    case bomAndCRLF(file: String)
    /// Replaces the first `text` in `file` with `with` (the case fails when it is not there).
    case replace(file: String, text: String, with: String)
    /// Removes `file`.
    case remove(file: String)
    /// Empties `file` (it stays, with no bytes).
    case empty(file: String)
}

/// One hostile input or fault, run against the built `holdlab` in a fresh directory: the exit status, a piece of
/// the message, and what must (not) be left behind. Every case also checks that nothing crashed, no temporary
/// (`*.partial`, `*.tmp`) was left, an error is one line (plus at most a "see" line) and no GSL internals show.
struct Hostile: Sendable, CustomTestStringConvertible {
    var name: String
    var arguments: [String]
    var status: Int32
    /// A substring of standard error ("" for no check).
    var message = ""
    var files: [String: Fixture] = [:]
    /// Redirections for /bin/sh after the command (`>/dev/full`, `>&-`, `2>&-`).
    var redirect = ""
    /// `ulimit -v` (KiB) for the run.
    var memoryKiB: Int?
    var environment: [String: String] = [:]
    /// Standard output is a pipe whose reader is already gone (EPIPE on the first write).
    var brokenPipe = false
    /// A substring of standard output.
    var stdout: String?
    /// Files that must keep the content they were created with.
    var unchanged: [String] = []
    /// Files that must not exist afterwards.
    var absent: [String] = []
    /// Files that must exist afterwards.
    var present: [String] = []
    /// holdlab commands run first in the directory (each must succeed), e.g. to write shards to tamper with.
    var before: [[String]] = []
    var tamper: [Tamper] = []
    /// Standard output must be valid JSON (one document per line).
    var validJSON = false

    var testDescription: String { name }
}

extension Hostile {
    init(_ name: String, _ arguments: [String], _ status: Int32, _ message: String = "",
         files: [String: Fixture] = [:], redirect: String = "", memoryKiB: Int? = nil,
         environment: [String: String] = [:], before: [[String]] = [], tamper: [Tamper] = [], brokenPipe: Bool = false,
         stdout: String? = nil, unchanged: [String] = [], absent: [String] = [], present: [String] = [],
         validJSON: Bool = false) {
        self.name = name
        self.arguments = arguments
        self.status = status
        self.message = message
        self.files = files
        self.redirect = redirect
        self.memoryKiB = memoryKiB
        self.environment = environment
        self.brokenPipe = brokenPipe
        self.stdout = stdout
        self.unchanged = unchanged
        self.absent = absent
        self.present = present
        self.before = before
        self.tamper = tamper
        self.validJSON = validJSON
    }
}

/// Inputs shared by the cases.
enum HostileFixtures {
    static let profile = """
        version: 1
        name: p
        description: a valid profile
        gesture: {minimumDuration: 1.0, maximumDistance: 10}
        trigger: {source: gesture, offset: 0}
        fill: {start: touchDown, model: animation, curve: linear, duration: match}
        population: default

        """

    /// A Timer fill with `lines` after `model: timer` (from line 7).
    static func timer(_ lines: String) -> Fixture {
        .text("version: 1\nname: t\ndescription: x\ntrigger: {source: fill}\nfill:\n  model: timer\n" + lines)
    }

    /// A fill-triggered action 0.2 s before a 1.0 s fill ends, after a 0.7 s gesture: valid until the fill is
    /// shorter than the gesture by more than 0.2 s.
    static let lateTrigger = Fixture.text("""
        version: 1
        name: late
        description: x
        gesture: {minimumDuration: 0.7, maximumDistance: 10}
        trigger: {source: fill, offset: -0.2}
        fill: {start: touchDown, model: animation, curve: linear, duration: 1.0}

        """)

    /// A review of `late.yaml` and a variant whose 0.8 s fill fires the action before its 0.7 s gesture.
    static let shortVariantReview = Fixture.text("""
        question: does a shorter fill help?
        profiles: [late.yaml]
        variants:
          short: {fill.duration: 0.8}
        users: 300

        """)

    /// An action 0.2 s before a 0.7 s gesture recognises: invalid whatever the fill.
    static let earlyTrigger = Fixture.text("""
        version: 1
        name: early
        description: x
        gesture: {minimumDuration: 0.7, maximumDistance: 10}
        trigger: {source: gesture, offset: -0.2}
        fill: {start: touchDown, model: animation, curve: linear, duration: match}

        """)

    /// A profile invalid through its haptics.threshold alone, movement cancelling at `distance` points.
    static func movementVaried(distance: Int) -> Fixture {
        .text("version: 1\nname: mv\ndescription: x\ngesture: {minimumDuration: 0.8, maximumDistance: \(distance), movementCancels: always}\n"
              + "fill: {start: touchDown, model: animation, curve: linear, duration: match}\nhaptics: {threshold: 2, onComplete: true}\n")
    }

    static func profile(replacing old: String, with new: String) -> Fixture {
        .text(profile.replacingOccurrences(of: old, with: new))
    }

    static let billionLaughs = """
        version: 1
        name: bomb
        description: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
        b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
        c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
        d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
        e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
        f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
        g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
        h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
        i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]

        """

    static let populationBomb = """
        version: 1
        name: bomb
        description: x
        classes:
          - &a {name: a, weight: 1, behavior: hold, hold: {dist: constant, value: 1}}
          - *a

        """

    static let population = """
        version: 1
        name: q
        description: a valid population
        classes:
          - {name: steady, weight: 1, intent: confirm, behavior: hold, hold: {dist: constant, value: 2}}

        """

    /// Only accidental users: every rate over intent users is undefined.
    static let noIntentPopulation = """
        version: 1
        name: nobody-means-it
        description: only accidental touches
        classes:
          - {name: brush, weight: 1, intent: none, behavior: hold, hold: {dist: constant, value: 0.05}}

        """

    static let holds = "hold_ms,fired\n" + (1...14).map { "\(400 + 37 * $0 % 300),\($0 % 3 == 0 ? 1 : 0)" }.joined(separator: "\n") + "\n"
    static let xy = "x,y\n1,2\n2,4.1\n3,5.9\n4,8.2\n5,9.9\n"

    static let deepFlow = "version: 1\nname: deep\ndescription: " + String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000) + "\n"
    static let deepBlock = "version: 1\nname: deep\ndescription: x\n" + (0..<60).map { String(repeating: " ", count: $0) + "k\($0):" }.joined(separator: "\n") + " 1\n"
    static let manyKeys = "version: 1\nname: k\ndescription: x\n" + (0..<40_000).map { "unknown\($0): 1" }.joined(separator: "\n") + "\n"
    static let longList = "version: 1\nname: l\ndescription: [" + Array(repeating: "1", count: 100_000).joined(separator: ",") + "]\n"
    static let oversized = "version: 1\nname: big\ndescription: x\n" + String(repeating: "# padding padding padding padding padding padding\n", count: 40_000)
    static let hugeList = "version: 1\nname: huge\ndescription: x\nclasses: [" + Array(repeating: "1", count: 2_500_000).joined(separator: ",") + "]\n"
}

enum HostileCases {
    typealias F = HostileFixtures
    static let quick = ["--users", "40"]
    /// A shipped file's text (`Profiles/…`), for an input given by its path or a library of the test's own.
    static func shipped(_ path: String) -> String {
        (try? String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Profiles/\(path)"), encoding: .utf8)) ?? ""
    }
    static let hurried = shipped("populations/hurried.yaml")
    /// A library of the default profile and its population: inputs no option names.
    static let library: [String: Fixture] = ["lib": .directory, "lib/hig-linear-bar.yaml": .text(shipped("hig-linear-bar.yaml")),
                                             "lib/populations": .directory,
                                             "lib/populations/default.yaml": .text(shipped("populations/default.yaml"))]
    static let tuneArguments = ["tune", "--param", "gesture.minimumDuration=0.5:1", "--minimize", "completion_time_mean_ms", "--users", "20"]
    static let sweepArguments = ["sweep", "--vary", "gesture.minimumDuration=0.5,1", "--users", "40"]

    static let outputPaths: [Hostile] = [
        Hostile("simulate --out x (one-character relative path)", ["simulate", "--users", "1000", "--out", "x"], 0, present: ["x"]),
        Hostile("simulate --out . is a directory", ["simulate", "--out", "."] + quick, 73, "is a directory"),
        Hostile("simulate --out .. is a directory", ["simulate", "--out", ".."] + quick, 73, "is a directory"),
        Hostile("simulate --out dir/ of a missing directory", ["simulate", "--out", "nowhere/"] + quick, 73, "nowhere/"),
        Hostile("simulate --out into a missing directory", ["simulate", "--out", "missing/x.csv"] + quick, 73, "the directory missing does not exist"),
        Hostile("simulate --out an existing directory", ["simulate", "--out", "sub"] + quick, 73, "sub: is a directory", files: ["sub": .directory]),
        Hostile("simulate --out below a regular file", ["simulate", "--out", "plain/x.csv"] + quick, 73, "plain is not a directory",
                files: ["plain": .text("keep\n")], unchanged: ["plain"]),
        Hostile("simulate --out two folders below a regular file", ["simulate", "--out", "plain/a/x.csv"] + quick, 73,
                "plain/a is not a directory: a part of it is a file", files: ["plain": .text("keep\n")], unchanged: ["plain"]),
        // The outside probe of 0.3.17: a 56-character label's figure failed in gnuplot (71; its sprintf repeated a %%
        // piece), and a 300-character one failed with 73 after every simulation had run.
        Hostile("report of a design with a 56-character label", ["report", "--profile", "hig-linear-bar", "--variant",
                                                                 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa=fill.duration=0.6", "--users", "200",
                                                                 "--robustness-users", "0", "--out", "review"], 0, "",
                present: ["review/fill-curves.png", "review/trace-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.csv"]),
        Hostile("report of a design whose label is too long for a file name", ["report", "--profile", "hig-linear-bar",
                                                                               "--variant", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb=fill.duration=0.6",
                                                                               "--users", "200", "--robustness-users", "0",
                                                                               "--out", "review"], 64,
                "(300 bytes): a report names a file of each design (trace-LABEL.csv), and a file name is at most 255 bytes",
                absent: ["review"]),
        // The second probe of 0.3.18: the grid of a robustness section that is left out changed nothing.
        Hostile("report --robustness-points with --robustness-users 0", smallReport + ["--robustness-points", "9", "--out", "review"], 64,
                "--robustness-points sets the robustness section's grid, and --robustness-users 0 leaves the section out", absent: ["review"]),
        Hostile("report --out below a regular file", smallReport + ["--out", "plain/review"], 73, "plain is not a directory",
                files: ["plain": .text("keep\n")], unchanged: ["plain"]),
        Hostile("simulate --population with only a comma", ["simulate", "--population", ","] + quick, 64,
                "--population ',': the list has an empty name"),
        Hostile("simulate --population '' (an empty variable)", ["simulate", "--population", ""] + quick, 64,
                "--population '': the list has an empty name"),
        Hostile("sweep --population with an extra comma", ["sweep", "--vary", "fill.duration=0.5,1", "--population",
                                                           "default,,hurried", "--users", "100"], 64,
                "--population 'default,,hurried': the list has an empty name"),
        Hostile("compare --population with a trailing comma", ["compare", "--variant", "a=fill.duration=0.6",
                                                               "--population", "default,", "--users", "100"], 64,
                "--population 'default,': the list has an empty name"),
        Hostile("simulate --profile '' (an empty variable)", ["simulate", "--profile", ""] + quick, 64,
                "--profile '': an empty name (an empty variable?)"),
        Hostile("check --impaired-population ' '", ["check", "hig-linear-bar", "--impaired-population", " "] + quick, 64,
                "--impaired-population ' ': an empty name"),
        Hostile("plot --var given twice", ["plot", "heatmap", "--data", "g.csv", "--var", "z=mismatch_p95_ms", "--var",
                                           "z=completion_rate"], 64, "--var z is given twice (z=mismatch_p95_ms and z=completion_rate)"),
        Hostile("plot --var with an empty value", ["plot", "heatmap", "--data", "g.csv", "--var", "z="], 64,
                "--var z=: the value is empty"),
        Hostile("sweep --vary with a value twice", ["sweep", "--vary", "fill.duration=0.5,0.50", "--users", "100"], 64,
                "--vary fill.duration=0.5,0.50: the list has 0.50 twice (as 0.5)"),
        Hostile("sweep --vary with a curve twice", ["sweep", "--vary", "fill.curve=linear,easeIn,linear", "--users", "100"], 64,
                "--vary fill.curve=linear,easeIn,linear: the list has linear twice;"),
        Hostile("--set of an infinite duration says finite", ["trace", "--set", "gesture.minimumDuration=.inf"], 64,
                "gesture.minimumDuration: must be a number of seconds ≥ 0, and finite (got '.inf')"),
        Hostile("simulate --columns with an empty name", ["simulate", "--columns", ",profile,,users,"] + quick, 64,
                "--columns ',profile,,users,': the list has an empty name"),
        Hostile("simulate --out '' (empty name)", ["simulate", "--out", ""] + quick, 64, "--out needs a file name"),
        Hostile("simulate --out /dev/null", ["simulate", "--out", "/dev/null"] + quick, 0),
        Hostile("simulate --out /dev/full", ["simulate", "--out", "/dev/full"] + quick, 74, "/dev/full: cannot write"),
        Hostile("simulate --per-user /dev/full", ["simulate", "--per-user", "/dev/full", "--out", "o.csv"] + quick, 74, "/dev/full",
                absent: ["o.csv"]),
        Hostile("simulate --per-user x", ["simulate", "--per-user", "x", "--out", "y"] + quick, 0, present: ["x", "y"]),
        Hostile("simulate --per-user . is a directory", ["simulate", "--per-user", "."] + quick, 73, "is a directory"),
        Hostile("simulate --out with a 250-character name", ["simulate", "--out", String(repeating: "n", count: 250)] + quick, 0,
                present: [String(repeating: "n", count: 250)]),
        Hostile("simulate --out a/../x", ["simulate", "--out", "a/../x"] + quick, 0, files: ["a": .directory], present: ["x"]),
        Hostile("simulate --out replaces an old file whole", ["simulate", "--out", "old.csv"] + quick, 0, files: ["old.csv": .text("old\n")]),
        Hostile("trace --out x", ["trace", "--out", "x"], 0, present: ["x"]),
        Hostile("trace --out .", ["trace", "--out", "."], 73, "is a directory"),
        Hostile("trace --out /", ["trace", "--out", "/"], 73, "is a directory"),
        Hostile("sweep --out x", sweepArguments + ["--out", "x"], 0, present: ["x"]),
        Hostile("sweep --out .", sweepArguments + ["--out", "."], 73, "is a directory"),
        Hostile("sweep --resume --out . ", sweepArguments + ["--out", ".", "--resume"], 73, "is a directory"),
        Hostile("fit --out .", ["fit", "--data", "h.csv", "--column", "hold_ms", "--bootstrap", "0", "--out", "."], 73,
                "is a directory", files: ["h.csv": .text(F.holds)]),
        Hostile("fit --out x", ["fit", "--data", "h.csv", "--column", "hold_ms", "--bootstrap", "0", "--out", "x"], 0,
                files: ["h.csv": .text(F.holds)], present: ["x"]),
        Hostile("fit --emit-population .", ["fit", "--data", "h.csv", "--column", "hold_ms", "--bootstrap", "0", "--emit-population", "."],
                73, "is a directory", files: ["h.csv": .text(F.holds)]),
        Hostile("fit-curve --out .", ["fit-curve", "--data", "xy.csv", "--x", "x", "--y", "y", "--out", "."], 73, "is a directory",
                files: ["xy.csv": .text(F.xy)]),
        Hostile("fit-curve --out x", ["fit-curve", "--data", "xy.csv", "--x", "x", "--y", "y", "--out", "x"], 0,
                files: ["xy.csv": .text(F.xy)], present: ["x"]),
        Hostile("tune --out .", tuneArguments + ["--out", "."], 73, "is a directory"),
        Hostile("tune --emit-profile .", tuneArguments + ["--emit-profile", "."], 73, "is a directory"),
        // The emitted file's name is the profile's: one rule with fit --emit-population's and the library's.
        Hostile("tune --emit-profile to a file whose name is no profile name", tuneArguments + ["--emit-profile", "#t.yaml"], 64,
                "--emit-profile #t.yaml: the profile is named after its file", absent: ["#t.yaml"]),
        Hostile("tune --emit-profile to a file the library would not read (.yml)", tuneArguments + ["--emit-profile", "t.yml"], 64,
                "--emit-profile t.yml: the library reads profile files named NAME.yaml", absent: ["t.yml"]),
        Hostile("profiles show of a profile whose population the library lacks", ["profiles", "show", "hig-linear-bar", "--set", "population=nonexistent"],
                64, "--set population=nonexistent: population: no population 'nonexistent'"),
        // A factor that takes one value has nothing to measure: its indices came out 0 or NaN, as if varied.
        // The outside probe of 0.3.14: --bootstrap 0 wrote NaN intervals with no word.
        Hostile("sensitivity --bootstrap 0 says its intervals are NaN", ["sensitivity", "--points", "4", "--users", "200", "--vary",
                "fill.delay=0:0.3", "--vary", "trigger.offset=0:0.3", "--bootstrap", "0", "--out", "s.csv"], 0,
                "note: --bootstrap 0: no resamples, so every interval column (_lo, _hi) is written as NaN", present: ["s.csv"]),
        Hostile("sensitivity of a range whose step is wider than it", ["sensitivity", "--points", "4", "--vary", "fill.delay=0:0.3:0.7",
                                                                      "--vary", "gesture.minimumDuration=0.5:1"], 64, "the step 0.7 is wider than the range"),
        Hostile("sensitivity of a one-value list", ["sensitivity", "--points", "4", "--vary", "fill.curve=linear",
                                                   "--vary", "gesture.minimumDuration=0.5:1"], 64, "a factor needs at least two different values"),
        // An undamped retract spring never comes to rest: a trace ran to 10⁷ s and called the swinging bar at rest.
        Hostile("a retract spring that never settles", ["trace", "--set", "retract.curve=interpolatingSpring(100,0)", "--set", "retract.duration=match"],
                64, "retract.curve: the retract would take forever to come to rest from a full bar; at most 3600 s"),
        Hostile("sensitivity reading standard input twice", ["sensitivity", "--points", "4", "--vary", "fill.delay=0:0.3", "--profile", "-",
                                                            "--population", "-"], 64, "both read standard input"),
        Hostile("plot --out into a missing directory", ["plot", "trace", "--data", "t.csv", "--out", "none/f.png"], 73, "does not exist",
                files: ["t.csv": .text("t_ms,model_progress,displayed_progress,pulses,event\n0,0,0,0,frame\n")]),
    ]

    static let streams: [Hostile] = [
        Hostile("simulate >/dev/full", ["simulate", "--users", "1000"], 74, "standard output: cannot write: No space left", redirect: ">/dev/full"),
        Hostile("simulate >&-", ["simulate"] + quick, 74, "standard output: cannot write: it is closed", redirect: ">&-"),
        Hostile("simulate >&- with --out to a file is fine", ["simulate", "--out", "o.csv"] + quick, 0, redirect: ">&-", present: ["o.csv"]),
        Hostile("trace >&-", ["trace"], 74, "standard output", redirect: ">&-"),
        Hostile("trace >/dev/full", ["trace"], 74, "No space left", redirect: ">/dev/full"),
        Hostile("profiles list >/dev/full", ["profiles", "list"], 74, "standard output", redirect: ">/dev/full"),
        Hostile("profiles show >&-", ["profiles", "show", "hig-linear-bar"], 74, "standard output", redirect: ">&-"),
        Hostile("simulate --list-columns >/dev/full", ["simulate", "--list-columns"], 74, "standard output", redirect: ">/dev/full"),
        Hostile("--help >/dev/full", ["simulate", "--help"], 74, "standard output", redirect: ">/dev/full"),
        Hostile("--version >&-", ["--version"], 74, "standard output", redirect: ">&-"),
        Hostile("sweep --dry-run >/dev/full", ["sweep", "--vary", "gesture.minimumDuration=0.5,1", "--dry-run"], 74, "standard output",
                redirect: ">/dev/full"),
        Hostile("sweep --out - >/dev/full", sweepArguments + ["--out", "-"], 74, "standard output", redirect: ">/dev/full"),
        Hostile("fit-curve >/dev/full", ["fit-curve", "--data", "xy.csv", "--x", "x", "--y", "y"], 74, "standard output",
                files: ["xy.csv": .text(F.xy)], redirect: ">/dev/full"),
        Hostile("benchmark >/dev/full", ["benchmark", "--users", "100", "--threads", "1"], 74, "standard output", redirect: ">/dev/full"),
        Hostile("an error with stderr closed", ["simulate", "--profile", "nope"] + quick, 66, redirect: "2>&-"),
        Hostile("a usage error with stderr closed", ["simulate", "--bogus"], 64, redirect: "2>&-"),
        Hostile("help for a subcommand that does not exist", ["help", "simulat"], 64, "no subcommand 'simulat'"),
        Hostile("success with stderr closed", ["simulate", "--population", "n.yaml"] + quick, 0,
                files: ["n.yaml": .text(F.noIntentPopulation)], redirect: "2>&-"),
        Hostile("an error with stderr full", ["simulate", "--profile", "nope"] + quick, 66, redirect: "2>/dev/full"),
        Hostile("stdout and stderr both closed", ["simulate"] + quick, 74, redirect: ">&- 2>&-"),
        Hostile("stdout to /dev/full, stderr closed", ["trace"], 74, redirect: ">/dev/full 2>&-"),
        Hostile("EPIPE: simulate", ["simulate"] + quick, 141, brokenPipe: true),
        Hostile("EPIPE: trace", ["trace"], 141, brokenPipe: true),
        Hostile("EPIPE: profiles list", ["profiles", "list"], 141, brokenPipe: true),
        Hostile("EPIPE: --help", ["fit", "--help"], 141, brokenPipe: true),
        Hostile("EPIPE: simulate --per-user leaves no file", ["simulate", "--per-user", "pu.csv"] + quick, 141, brokenPipe: true,
                absent: ["pu.csv"]),
        Hostile("EPIPE: sweep --out -", sweepArguments, 141, brokenPipe: true),
    ]

    static let sameFile: [Hostile] = [
        // Inputs no option names (the default profile, a profile's population) are inputs too: refused at the
        // output's rename, nothing replaced.
        Hostile("--out over the default population", ["simulate", "--profiles-dir", "lib", "--out", "lib/populations/default.yaml"] + quick,
                64, "an input this run read", files: library, unchanged: ["lib/populations/default.yaml"]),
        // Each parameter valid, the draws infinite: refused at the parameter's line, in a file and through --set.
        Hostile("a population whose reaction draws overflow (lognormal mu 720)", ["simulate", "--population", "m.yaml", "--out", "s.csv"] + quick,
                65, "m.yaml:8:15: classes[0].reaction: lognormal draws overflow: at the generator's most extreme uniforms (2^-32 from 0 or 1) a draw reaches inf",
                files: ["m.yaml": .text("""
                version: 1
                name: m
                classes:
                  - name: deliberate
                    weight: 1
                    intent: confirm
                    behavior: react
                    reaction: {dist: lognormal, mu: 720, sigma: 0.0001}
                    patience: {dist: lognormal, median: 1.5, sigma: 0.5}

                """)], absent: ["s.csv"]),
        // A population's name is the first cell of its rows: '#' would make them comments, a line break two lines.
        Hostile("a population named '#x'", ["simulate", "--population", "h.yaml", "--out", "s.csv"] + quick,
                65, "h.yaml:2:7: name: must be letters, digits, - and _ (got '#x')",
                files: ["h.yaml": .text("version: 1\nname: \"#x\"\nclasses:\n  - {name: a, weight: 1, intent: confirm, behavior: anticipate, bias: 0, weber: 0.1}\n")],
                absent: ["s.csv"]),
        Hostile("fit --emit-population to a file whose name is no population name",
                ["fit", "--data", "d.csv", "--column", "t", "--emit-population", "my pop.yaml"], 64,
                "--emit-population my pop.yaml: the population is named after its file", files: ["d.csv": .text("t\n1\n2\n3\n")],
                absent: ["my pop.yaml"]),
        // Held to the end, a 300 s hold was drawn frame by frame for minutes: refused as --release-at 300 is.
        Hostile("preview of a 300 s hold without --release-at", ["preview", "--no-mp4", "--profile", "g.yaml", "--out", "g.gif"], 64,
                "g300 is held 300.250 s before it is let go", files: ["g.yaml": .text("version: 1\nname: g300\ndescription: t\ngesture: {minimumDuration: 300}\n")],
                absent: ["g.gif"]),
        Hostile("a mixture component whose dist is a mapping", ["simulate", "--population", "x.yaml"] + quick, 65,
                "x.yaml:8:62: classes[0].reaction.components[0].dist: a component is {weight: w, dist: FAMILY, its parameters…}",
                files: ["x.yaml": .text("""
                version: 1
                name: x
                classes:
                  - name: deliberate
                    weight: 1
                    intent: confirm
                    behavior: react
                    reaction: {dist: mixture, components: [{weight: 1, dist: {dist: constant, value: 0.2}}]}
                    patience: {dist: lognormal, median: 1.5, sigma: 0.5}

                """)]),
        Hostile("preview of a spring retract that settles after 195 s", ["preview", "--release-at", "0.5", "--set", "retract.curve=spring(100,0)",
                                                                          "--set", "retract.duration=match", "--no-mp4", "--out", "g.gif"], 64,
                "hig-linear-bar's fill is at rest 194.842 s after touch-down", absent: ["g.gif"]),
        Hostile("tune --param on a population key", ["tune", "--param", "population.deliberate.reaction.tau=0.02:0.1",
                                                     "--minimize", "completion_time_mean_ms", "--users", "20"], 64,
                "--param population.deliberate.reaction.tau=0.02:0.1: tune chooses the control's values"),
        Hostile("--set a population's tau to 1e308", ["simulate", "--set", "population.deliberate.reaction.tau=1e308"] + quick,
                64, "--set population.deliberate.reaction.tau=1e308: classes[0].reaction: exgaussian draws overflow"),
        Hostile("--out over the default profile", ["simulate", "--profiles-dir", "lib", "--out", "lib/hig-linear-bar.yaml"] + quick,
                64, "an input this run read", files: library, unchanged: ["lib/hig-linear-bar.yaml"]),
        Hostile("--per-user over the default population",
                ["simulate", "--profiles-dir", "lib", "--out", "s.csv", "--per-user", "lib/populations/default.yaml"] + quick,
                64, "an input this run read", files: library, unchanged: ["lib/populations/default.yaml"], absent: ["s.csv"]),
        // check's populations are inputs too: the output would replace the population the run reads.
        Hostile("check --population p.yaml --out p.yaml", ["check", "hig-linear-bar", "--population", "p.yaml", "--out", "p.yaml"] + quick,
                64, "--out p.yaml is the file --population p.yaml reads", files: ["p.yaml": .text(Self.hurried)], unchanged: ["p.yaml"]),
        Hostile("check --impaired-population p.yaml --out p.yaml",
                ["check", "hig-linear-bar", "--impaired-population", "p.yaml", "--out", "p.yaml"] + quick,
                64, "--out p.yaml is the file --impaired-population p.yaml reads", files: ["p.yaml": .text(Self.hurried)], unchanged: ["p.yaml"]),
        Hostile("report --impaired-population p.yaml --html p.yaml",
                ["report", "--variant", "a=fill.duration=0.6", "--impaired-population", "p.yaml", "--html", "p.yaml", "--out", "r"] + quick,
                64, "--html p.yaml is the file --impaired-population p.yaml reads", files: ["p.yaml": .text(Self.hurried)], unchanged: ["p.yaml"]),
        Hostile("--out a.csv --per-user a.csv", ["simulate", "--out", "a.csv", "--per-user", "a.csv"] + quick, 64, "are the same file"),
        Hostile("--out a.csv --per-user ./a.csv", ["simulate", "--out", "a.csv", "--per-user", "./a.csv"] + quick, 64, "are the same file"),
        Hostile("--out a.csv --per-user sub/../a.csv", ["simulate", "--out", "a.csv", "--per-user", "sub/../a.csv"] + quick, 64,
                "are the same file", files: ["sub": .directory]),
        Hostile("--out through a symlink to an existing file", ["simulate", "--out", "a.csv", "--per-user", "l.csv"] + quick, 64,
                "are the same file", files: ["a.csv": .text("old\n"), "l.csv": .symlink(to: "a.csv")], unchanged: ["a.csv"]),
        Hostile("--out through a dangling symlink", ["simulate", "--out", "new.csv", "--per-user", "l.csv"] + quick, 64,
                "are the same file", files: ["l.csv": .symlink(to: "new.csv")], absent: ["new.csv"]),
        Hostile("--out through a symlinked directory", ["simulate", "--out", "d/a.csv", "--per-user", "e/a.csv"] + quick, 64,
                "are the same file", files: ["d": .directory, "e": .symlink(to: "d")]),
        Hostile("fit --out p.yaml --emit-population p.yaml",
                ["fit", "--data", "h.csv", "--column", "hold_ms", "--out", "p.yaml", "--emit-population", "p.yaml"], 64,
                "are the same file", files: ["h.csv": .text(F.holds)]),
        Hostile("fit --out p.yaml --emit-population ./p.yaml",
                ["fit", "--data", "h.csv", "--column", "hold_ms", "--out", "p.yaml", "--emit-population", "./p.yaml"], 64,
                "are the same file", files: ["h.csv": .text(F.holds)]),
        Hostile("tune --out t.yaml --emit-profile t.yaml", tuneArguments + ["--out", "t.yaml", "--emit-profile", "t.yaml"], 64,
                "are the same file"),
        Hostile("fit --out over its --data", ["fit", "--data", "h.csv", "--column", "hold_ms", "--out", "./h.csv"], 64,
                "is the file --data h.csv reads", files: ["h.csv": .text(F.holds)], unchanged: ["h.csv"]),
        Hostile("fit-curve --out over its --data", ["fit-curve", "--data", "xy.csv", "--x", "x", "--y", "y", "--out", "xy.csv"], 64,
                "reads", files: ["xy.csv": .text(F.xy)], unchanged: ["xy.csv"]),
        Hostile("sweep --out over its --profile", ["sweep", "--profile", "p.yaml", "--vary", "fill.delay=0,0.1", "--out", "p.yaml"], 64,
                "is the file --profile p.yaml reads", files: ["p.yaml": .text(F.profile)], unchanged: ["p.yaml"]),
        Hostile("trace --out over its --profile", ["trace", "--profile", "p.yaml", "--out", "p.yaml"], 64, "reads",
                files: ["p.yaml": .text(F.profile)], unchanged: ["p.yaml"]),
        Hostile("simulate --per-user over its --population", ["simulate", "--population", "q.yaml", "--per-user", "q.yaml"] + quick, 64,
                "is the file --population q.yaml reads", files: ["q.yaml": .text(F.population)], unchanged: ["q.yaml"]),
        Hostile("tune --emit-profile over its --profile", tuneArguments + ["--profile", "p.yaml", "--emit-profile", "p.yaml"], 64,
                "reads", files: ["p.yaml": .text(F.profile)], unchanged: ["p.yaml"]),
        Hostile("plot --out over its --data", ["plot", "trace", "--data", "f.png", "--out", "f.png"], 64, "reads",
                files: ["f.png": .text("t_ms,model_progress,displayed_progress,pulses,event\n0,0,0,0,frame\n")], unchanged: ["f.png"]),
        Hostile("both outputs /dev/null is fine", ["simulate", "--out", "/dev/null", "--per-user", "/dev/null"] + quick, 0),
    ]

    static let usage: [Hostile] = [
        Hostile("unknown option", ["simulate", "--bogus"], 64, "Unknown option '--bogus'"),
        // A misspelt option is named before a command's own checks (which would say a required option is missing).
        Hostile("misspelt option of tune", ["tune", "--param", "fill.delay=0:0.3", "--minimze", "completion_time_mean_ms"], 64,
                "Unknown option '--minimze'. Did you mean '--minimize'?"),
        Hostile("misspelt option of sweep", ["sweep", "--vray", "fill.duration=0.5,1"], 64, "Unknown option '--vray'. Did you mean '--vary'?"),
        Hostile("misspelt option of sensitivity", ["sensitivity", "--vray", "fill.duration=0.5:1"], 64, "Unknown option '--vray'"),
        Hostile("misspelt option with =", ["simulate", "--user=10"], 64, "Unknown option '--user'. Did you mean '--users'?"),
        Hostile("check --mismatch-frames beyond its range", ["check", "hig-linear-bar", "--mismatch-frames", "1e308"] + quick, 64,
                "--mismatch-frames must be a number from 0 to 3600000 (got 1e+308)"),
        Hostile("check --feedback-ms beyond its range", ["check", "hig-linear-bar", "--feedback-ms", "1e306"] + quick, 64,
                "--feedback-ms must be a number from 0 to 3600000"),
        Hostile("unknown command", ["simulatte"], 64, "simulatte"),
        Hostile("missing value", ["simulate", "--users"], 64, "Missing value for '--users"),
        Hostile("not a number", ["simulate", "--users", "many"], 64, "many"),
        Hostile("--users 0", ["simulate", "--users", "0"], 64, "--users must be from 1"),
        Hostile("negative --users is a value, out of range", ["simulate", "--users", "-5"], 64, "--users must be from 1"),
        Hostile("negative --release-at is a value, out of range", ["trace", "--release-at", "-0.2"], 64, "--release-at must be"),
        Hostile("negative --phase", ["trace", "--phase", "-0.5"], 64, "--phase must be"),
        Hostile("negative --seed", ["trace", "--seed", "-1"], 64, "-1"),
        Hostile("negative --target is accepted", ["fit-curve", "--data", "xy.csv", "--x", "x", "--y", "y", "--target", "-0.2"], 0,
                files: ["xy.csv": .text(F.xy)], stdout: "x_at_target"),
        Hostile("negative value of a string option", ["fit-curve", "--data", "xy.csv", "--x", "x", "--y", "y", "--target", "-1e-1"], 0,
                files: ["xy.csv": .text(F.xy)], stdout: "x_at_target"),
        Hostile("negative value of a repeated option", ["benchmark", "--users", "10", "--threads", "-1"], 64, "--threads must be"),
        Hostile("negative shard", ["simulate", "--users", "10", "--shard", "-1/3"], 64, "--shard -1/3: K must be from 1 to N (3)"),
        // Every numeric option takes a value that starts with '-' and answers with its own range, never "missing value".
        Hostile("negative --cpus-per-task", ["sweep", "--vary", "gesture.minimumDuration=0.5,1", "--shards", "2", "--emit",
                                             "slurm", "--out", "x.csv", "--cpus-per-task", "-2"], 64, "--cpus-per-task"),
        Hostile("negative --jobs", ["sweep", "--vary", "gesture.minimumDuration=0.5,1", "--shards", "2", "--emit",
                                    "parallel", "--out", "x.csv", "--jobs", "-2"], 64, "--jobs"),
        Hostile("negative --fit-rows", ["benchmark", "--users", "10", "--fit-rows", "-5"], 64, "--fit-rows must be"),
        Hostile("negative --points", ["sweep", "--vary", "gesture.minimumDuration=0.5:1", "--design", "lhs", "--points", "-3"],
                64, "--points"),
        Hostile("negative --robustness-users", ["report", "--variant", "a=gesture.minimumDuration=0.9", "--users", "100",
                                                "--robustness-users", "-1", "--out", "r"], 64, "--robustness-users"),
        Hostile("negative --robustness-points", ["report", "--variant", "a=gesture.minimumDuration=0.9", "--users", "100",
                                                 "--robustness-points", "-1", "--out", "r"], 64, "--robustness-points"),
        Hostile("negative --feedback-ms", ["check", "--users", "100", "--feedback-ms", "-5"], 64, "--feedback-ms"),
        // An input CSV that names a column twice: which one a reader took would be silent.
        Hostile("fit data naming a column twice", ["fit", "--data", "dupcol.csv", "--column", "t"], 65,
                "dupcol.csv:1: the column 't' is given twice in the header (fields 1 and 2)",
                files: ["dupcol.csv": .text("t,t\n1,2\n3,4\n")]),
        // A dry run checks every option before it prints the points.
        Hostile("sweep --dry-run with a --set the profile refuses", ["sweep", "--vary", "gesture.minimumDuration=0.5,1",
                                                                      "--dry-run", "--set", "fill.curve=wobbly"], 64, "--set fill.curve=wobbly"),
        // ... and every point's profile, as the run would before simulating.
        Hostile("sweep --dry-run with a point the profile refuses", ["sweep", "--vary", "display.refreshRate=0,60", "--dry-run"], 64,
                "point 1 (display.refreshRate=0): display.refreshRate: must be frames per second from 1 to 1000"),
        Hostile("sweep --dry-run with a key no profile has", ["sweep", "--vary", "gesture.nosuch=1,2", "--dry-run"], 64,
                "point 1 (gesture.nosuch=1): gesture.nosuch: unknown key"),
        Hostile("negative shard count", ["sweep", "--vary", "gesture.minimumDuration=0.5,1", "--shards", "-2", "--emit", "slurm",
                                         "--out", "x.csv"], 64, "--shards must be from 1 to 100000 (got -2)"),
        // The outside probe of 0.3.17: a seed or draw size without draws, and bootstrap options with --telemetry, were taken.
        Hostile("fit --seed with --bootstrap 0", ["fit", "--data", "h.csv", "--column", "hold_ms", "--bootstrap", "0", "--seed", "9"], 64,
                "--seed sets the bootstrap draws, and --bootstrap 0 makes none: drop --seed, or give --bootstrap B.",
                files: ["h.csv": .text(F.holds)]),
        Hostile("fit --bootstrap-size with --bootstrap 0", ["fit", "--data", "h.csv", "--column", "hold_ms", "--bootstrap-size", "100",
                                                            "--bootstrap", "0"], 64,
                "--bootstrap-size sets the bootstrap draws, and --bootstrap 0 makes none", files: ["h.csv": .text(F.holds)]),
        Hostile("fit --telemetry with --seed", ["fit", "--telemetry", "t.csv", "--seed", "3"], 64,
                "--telemetry fits by maximum likelihood without bootstrap draws; drop --seed"),
        Hostile("negative value after --set", ["trace", "--set", "-0.5"], 64, "expected key.path=value"),
        Hostile("negative --check-seed", tuneArguments + ["--check-seed", "-3"], 64, "-3"),
        Hostile("negative --scale", ["fit", "--data", "h.csv", "--column", "hold_ms", "--scale", "-2"], 64, "--scale must be",
                files: ["h.csv": .text(F.holds)]),
        Hostile("negative --bootstrap", ["fit", "--data", "h.csv", "--column", "hold_ms", "--bootstrap", "-1"], 64, "--bootstrap must be",
                files: ["h.csv": .text(F.holds)]),
        Hostile("negative --set value is a profile value", ["trace", "--set", "trigger.offset=-0.2"], 64, "before the gesture recognises"),
        Hostile("repeated --param", tuneArguments + ["--param", "gesture.minimumDuration=0.6:0.9"], 64, "--param gesture.minimumDuration is given twice"),
        Hostile("repeated --vary key", ["sweep", "--vary", "fill.delay=0,0.1", "--vary", "fill.delay=0.2"], 64, "given twice"),
        Hostile("repeated --set key", ["simulate", "--set", "fill.delay=0", "--set", "fill.delay=0.1"] + quick, 64, "--set fill.delay is given twice"),
        Hostile("--set and --vary of one key", ["sweep", "--set", "fill.delay=0", "--vary", "fill.delay=0,0.1"], 64, "conflicts with --vary"),
        Hostile("--set and --param of one key", tuneArguments + ["--set", "gesture.minimumDuration=0.7"], 64, "conflicts with --param"),
        // A key and one inside it set one value twice: whichever came last won without a word (a sensitivity whose
        // recorded values were never applied).
        Hostile("--set of a key and its parent", ["simulate", "--set", "gesture.minimumDuration=0.8", "--set", "gesture={minimumDuration: 1.2}"] + quick,
                64, "--set gesture.minimumDuration and --set gesture both set gesture.minimumDuration"),
        Hostile("--vary of a key and its parent", ["sensitivity", "--points", "4", "--vary", "gesture.minimumDuration=0.4:1.5",
                                                   "--vary", "gesture={minimumDuration: 1.0},{minimumDuration: 1.2}"],
                64, "--vary gesture.minimumDuration and --vary gesture both set gesture.minimumDuration"),
        Hostile("sweep --vary of a key and its parent", ["sweep", "--vary", "fill.timer={tick: 0.01},{tick: 0.03}", "--vary", "fill.timer.tick=0.01,0.02"],
                64, "--vary fill.timer and --vary fill.timer.tick both set fill.timer.tick"),
        Hostile("--set inside a varied key", ["sweep", "--set", "fill.timer.tick=0.02", "--vary", "fill.timer={tick: 0.01},{tick: 0.03}"],
                64, "--set fill.timer.tick conflicts with --vary fill.timer"),
        Hostile("--param of a key and its parent", ["tune", "--param", "gesture.minimumDuration=0.5:1", "--param", "gesture=0.5:1",
                                                    "--minimize", "completion_time_mean_ms"], 64, "--param gesture.minimumDuration and --param gesture both set"),
        Hostile("--variant of a key --set sets inside", ["compare", "--set", "fill.curve=easeIn", "--variant", "a=fill={curve: linear}"] + quick,
                64, "--variant a sets fill, which --set fill.curve also sets"),
        Hostile("repeated single-valued option", ["simulate", "--users", "5", "--users", "6"], 64, "--users is given twice"),
        Hostile("repeated --out", ["trace", "--out", "a.csv", "--out=b.csv"], 64, "--out is given twice"),
        // --rng (issue 32): a GSL generator HoldLab draws users from, named as the help names it.
        Hostile("--rng unknown generator", ["simulate", "--rng", "pcg64"] + quick, 64,
                "Please provide one of 'taus2' and 'mt19937'"),
        Hostile("--rng on compare, wrong case", ["compare", "--variant", "a=fill.duration=0.6", "--rng", "TAUS2"] + quick, 64,
                "The value 'TAUS2' is invalid for '--rng"),
        // --precision (issue 32): the metric must have an interval where the command prints one, the width must be
        // a positive number or a percentage, and a shard cannot see the whole run.
        Hostile("--precision unknown metric", ["simulate", "--precision", "completion_rat=0.01"] + quick, 64,
                "no metric 'completion_rat' (did you mean 'completion_rate'"),
        Hostile("--precision metric without an interval", ["simulate", "--precision", "completion_time_p50_ms=5"] + quick, 64,
                "completion_time_p50_ms has no 95 % interval here"),
        Hostile("--precision compare metric unknown to simulate", ["simulate", "--precision", "premature_release_rate=0.01"] + quick, 64,
                "metrics with an interval: completion_rate, false_activation_rate"),
        Hostile("--precision negative width", ["simulate", "--precision", "completion_rate=-0.01"] + quick, 64,
                "the half-width must be a positive finite number"),
        Hostile("--precision zero width", ["compare", "--variant", "a=fill.duration=0.6", "--precision", "completion_rate=0"] + quick, 64,
                "the half-width must be a positive finite number"),
        Hostile("--precision NaN width", ["simulate", "--precision", "completion_rate=nan"] + quick, 64,
                "the half-width must be a positive finite number"),
        Hostile("--precision two percent signs", ["simulate", "--precision", "completion_time_mean_ms=50%%"] + quick, 64,
                "with one '%'"),
        Hostile("--precision 100 %", ["sweep", "--vary", "fill.delay=0,0.1", "--precision", "completion_rate=100%"] + quick, 64,
                "below 100"),
        Hostile("--precision without =", ["tune", "--param", "gesture.minimumDuration=0.6:0.9", "--minimize", "completion_time_mean_ms",
                                          "--precision", "completion_rate"] + quick, 64, "write METRIC=HALFWIDTH"),
        Hostile("--precision metric twice", ["simulate", "--precision", "completion_rate=0.01,completion_rate=0.02"] + quick, 64,
                "--precision completion_rate is given twice"),
        Hostile("--precision with --shard", ["simulate", "--precision", "completion_rate=0.01", "--shard", "1/2", "--out", "s.csv"] + quick, 64,
                "a shard sees only its own users"),
        Hostile("--precision with --emit", ["simulate", "--precision", "completion_rate=0.01", "--shards", "2", "--emit", "parallel",
                                            "--out", "s.csv"] + quick, 64, "a shard sees only its own users"),
        Hostile("--set bad curve", ["simulate", "--set", "fill.curve=wobbly"] + quick, 64, "fill.curve"),
        Hostile("--set without =", ["simulate", "--set", "fill.curve"] + quick, 64, "expected key.path=value"),
        Hostile("--set unknown key", ["trace", "--set", "fill.colour=red"], 64, "fill.colour: unknown key"),
        Hostile("--set malformed YAML", ["trace", "--set", "fill.curve=[oops"], 64, "not valid YAML"),
        Hostile("--vary malformed", ["sweep", "--vary", "nonsense"], 64, "--vary nonsense"),
        Hostile("--vary reversed range", ["sweep", "--vary", "fill.delay=1:0:0.1"], 64, "must not be below start"),
        Hostile("--vary value invalid at a point", ["sweep", "--vary", "display.refreshRate=60,0", "--users", "10"], 64, "point 2"),
        Hostile("--design lhs without --points", ["sweep", "--design", "lhs", "--vary", "fill.delay=0:1"], 64, "needs --points"),
        // A study's base is invalid only through the studied keys (a --set valid only with the studied values, a file
        // key every point replaces): no fault of the study; a point that is invalid is said as the point.
        Hostile("sweep with a --set valid only with the varied values", ["sweep", "--profile", "late.yaml", "--set", "fill.duration=0.8",
                                                                         "--vary", "gesture.minimumDuration=0.4,0.6", "--users", "50"], 0,
                files: ["late.yaml": F.lateTrigger]),
        // The outside probe of 0.3.14: a design file's point twice was simulated twice with no word, where --vary
        // refuses it. Said as a warning: a sweep cited from such a file still runs to the same rows.
        Hostile("sweep design with a point twice (as the same number)", ["sweep", "--design", "d.csv", "--users", "50", "--out", "s.csv"], 0,
                "warning: --design d.csv:4: the point 0.50,1 is line 2's again; it is simulated on the same people",
                files: ["d.csv": .text("gesture.minimumDuration,fill.duration\n0.5,1.0\n0.6,1\n0.50,1\n")], present: ["s.csv"]),
        Hostile("sweep design with points that differ in one key", ["sweep", "--design", "d.csv", "--users", "50", "--out", "s.csv"], 0,
                files: ["d.csv": .text("gesture.minimumDuration,fill.duration\n0.5,1.0\n0.5,0.9\n")], present: ["s.csv"]),
        Hostile("sweep with a --set invalid at a varied value", ["sweep", "--profile", "late.yaml", "--set", "fill.duration=0.8",
                                                                 "--vary", "gesture.minimumDuration=0.4,0.8", "--users", "50"], 64,
                "point 2 (gesture.minimumDuration=0.8): --set fill.duration=0.8: trigger.offset: fires the action at 600 ms",
                files: ["late.yaml": F.lateTrigger]),
        Hostile("sweep design with a --set invalid at its first row", ["sweep", "--profile", "late.yaml", "--set", "fill.duration=0.8",
                                                                       "--design", "d.csv", "--users", "50"], 65,
                "--design d.csv:2: point 1 (gesture.minimumDuration=0.9): --set fill.duration=0.8: trigger.offset: fires the action at 600 ms",
                files: ["late.yaml": F.lateTrigger, "d.csv": .text("gesture.minimumDuration\n0.9\n0.4\n")]),
        Hostile("sweep of a --set invalid at every varied value", ["sweep", "--profile", "late.yaml", "--set", "trigger.source=gesture",
                                                                   "--vary", "gesture.minimumDuration=0.4,0.6", "--users", "50"], 64,
                "point 1 (gesture.minimumDuration=0.4): --set trigger.source=gesture: trigger.offset: fires the action at 200 ms (minimumDuration + offset), before the gesture recognises at 400 ms",
                files: ["late.yaml": F.lateTrigger]),
        Hostile("sweep of a file problem the varied keys leave", ["sweep", "--profile", "early.yaml", "--vary", "fill.duration=0.5,0.8",
                                                                  "--users", "50"], 65,
                "early.yaml:5:36: trigger.offset: fires the action at 500 ms (minimumDuration + offset), before the gesture recognises at 700 ms",
                files: ["early.yaml": F.earlyTrigger]),
        // ... and so is one every varied value has with numbers of its own (simulate --set gesture.minimumDuration=0.4
        // says 65 of the same file), whatever the values' order.
        Hostile("sweep of a file problem every varied value has", ["sweep", "--profile", "early.yaml", "--vary", "gesture.minimumDuration=0.4,0.6",
                                                                   "--users", "50"], 65,
                "early.yaml:5:36: trigger.offset: fires the action at 500 ms (minimumDuration + offset), before the gesture recognises at 700 ms",
                files: ["early.yaml": F.earlyTrigger]),
        Hostile("sweep of a profile valid at point 2 only", ["sweep", "--profile", "late.yaml", "--set", "gesture.minimumDuration=0.9",
                                                             "--vary", "fill.duration=0.9,1.2", "--users", "50"], 64,
                "point 1 (fill.duration=0.9): --set gesture.minimumDuration=0.9: trigger.offset: fires the action at 700 ms (the fill's completion + offset), before the gesture recognises at 900 ms",
                files: ["late.yaml": F.lateTrigger]),
        Hostile("sweep of a profile valid at point 1 only", ["sweep", "--profile", "late.yaml", "--set", "gesture.minimumDuration=0.9",
                                                             "--vary", "fill.duration=1.2,0.9", "--users", "50"], 64,
                "point 2 (fill.duration=0.9): --set gesture.minimumDuration=0.9: trigger.offset: fires the action at 700 ms (the fill's completion + offset), before the gesture recognises at 900 ms",
                files: ["late.yaml": F.lateTrigger]),
        // What is varied is checked before such a profile: mending it may mend the profile.
        Hostile("sweep with a bad --vary over a profile it could mend", ["sweep", "--profile", "late.yaml", "--set", "gesture.minimumDuration=0.9",
                                                                         "--vary", "fill.duration=1.2:0.9:0.1"], 64, "must not be below start",
                files: ["late.yaml": F.lateTrigger]),
        Hostile("sweep with a missing design over a profile it could mend", ["sweep", "--profile", "late.yaml", "--set", "gesture.minimumDuration=0.9",
                                                                             "--design", "nodesign.csv"], 66, "nodesign.csv",
                files: ["late.yaml": F.lateTrigger]),
        Hostile("tune with a bad --param over a profile it could mend", ["tune", "--profile", "late.yaml", "--set", "gesture.minimumDuration=0.9",
                                                                         "--param", "fill.duration=1.2:0.9", "--maximize", "completion_rate"], 64,
                "--param", files: ["late.yaml": F.lateTrigger]),
        Hostile("tune --emit-profile of a profile valid only with tuned values", ["tune", "--profile", "late.yaml", "--set", "fill.duration=0.8",
                                                                                 "--param", "gesture.minimumDuration=0.3:0.9", "--maximize", "completion_rate",
                                                                                 "--users", "200", "--out", "t.csv", "--emit-profile", "tuned.yaml"], 0,
                files: ["late.yaml": F.lateTrigger], present: ["t.csv", "tuned.yaml"]),
        // Such a sweep is identified by the file's text and --set: a point resolves without what its values make
        // moot, which other points read (here maximumDistance, moot where movement never cancels).
        Hostile("sweep --resume over another file of a profile valid only with the varied values",
                ["sweep", "--profile", "b/mv.yaml", "--vary", "haptics.threshold=0,0.1", "--vary", "gesture.movementCancels=never,always",
                 "--users", "50", "--out", "s.csv", "--resume"], 65, "came from a different profile",
                files: ["a/mv.yaml": F.movementVaried(distance: 20), "b/mv.yaml": F.movementVaried(distance: 3)],
                before: [["sweep", "--profile", "a/mv.yaml", "--vary", "haptics.threshold=0,0.1", "--vary", "gesture.movementCancels=never,always",
                          "--users", "50", "--out", "s.csv"]]),
        Hostile("sweep of a file key every point replaces", ["sweep", "--profile", "still.yaml", "--vary", "fill.delay=0", "--users", "50"], 0,
                files: ["still.yaml": .text("version: 1\nname: still\ndescription: x\nfill: {model: none, delay: 0.3}\n")],
                stdout: "(the file's text: valid only with the varied values)"),
        Hostile("sweep --resume of a profile valid only with the varied values, its --sets in another order",
                ["sweep", "--profile", "late.yaml", "--set", "haptics.threshold=0.1", "--set", "fill.duration=0.8",
                 "--vary", "gesture.minimumDuration=0.3,0.5", "--users", "50", "--out", "s.csv", "--resume"], 0, "2 of 2 points done",
                files: ["late.yaml": F.lateTrigger],
                before: [["sweep", "--profile", "late.yaml", "--set", "fill.duration=0.8", "--set", "haptics.threshold=0.1",
                          "--vary", "gesture.minimumDuration=0.3,0.5", "--users", "50", "--out", "s.csv"]]),
        Hostile("sensitivity with a --set valid only with the varied values", ["sensitivity", "--profile", "late.yaml", "--set", "fill.duration=0.8",
                                                                               "--vary", "gesture.minimumDuration=0.3:0.6", "--points", "4", "--users", "50"], 0,
                files: ["late.yaml": F.lateTrigger]),
        // A review is checked with the command line's --set, as it will run: a problem the --set mends is none, one the
        // file has at the same key without it is the file's with the numbers the run uses (65), one only the --set
        // makes is the command line's (64, said at the file's line; below).
        Hostile("report --review with a --set that mends a variant", ["report", "--review", "rv.yaml", "--set", "gesture.minimumDuration=0.5",
                                                                      "--out", "out"], 0,
                files: ["late.yaml": F.lateTrigger, "rv.yaml": F.shortVariantReview], present: ["out/report.md"]),
        Hostile("report --review with a --set that leaves a variant's problem", ["report", "--review", "rv.yaml", "--set", "gesture.minimumDuration=0.75",
                                                                                 "--out", "out"], 65,
                "rv.yaml:4:26: variants.short.fill.duration: trigger.offset: fires the action at 600 ms (the fill's completion + offset), before the gesture recognises at 750 ms",
                files: ["late.yaml": F.lateTrigger, "rv.yaml": F.shortVariantReview], absent: ["out"]),
        Hostile("report --review with a --set beside a variant's own problem", ["report", "--review", "rv.yaml", "--set", "fill.curve=easeIn",
                                                                                "--out", "out"], 65,
                "rv.yaml:4:26: variants.short.fill.duration: trigger.offset: fires the action at 600 ms (the fill's completion + offset), before the gesture recognises at 700 ms",
                files: ["late.yaml": F.lateTrigger, "rv.yaml": F.shortVariantReview], absent: ["out"]),
        Hostile("tune with a --set valid in part of the range", ["tune", "--profile", "late.yaml", "--set", "fill.duration=0.8", "--param",
                                                                 "gesture.minimumDuration=0.3:0.9", "--maximize", "completion_rate", "--users", "200"], 0,
                files: ["late.yaml": F.lateTrigger]),
        Hostile("tune with a --set valid nowhere in the range", ["tune", "--profile", "late.yaml", "--set", "fill.duration=0.8", "--param",
                                                                 "gesture.minimumDuration=0.75:0.9", "--maximize", "completion_rate", "--users", "200"], 64,
                "no candidate in the --param ranges is a valid profile; for example gesture.minimumDuration=0.75: --set fill.duration=0.8: trigger.offset: fires the action at 600 ms",
                files: ["late.yaml": F.lateTrigger]),
        Hostile("tune unknown metric", ["tune", "--param", "gesture.minimumDuration=0.5:1", "--minimize", "joy"], 64, "'joy'"),
        Hostile("tune bad constraint", tuneArguments + ["--constraint", "nonsense"], 64, "nonsense"),
        Hostile("tune bad target", ["tune", "--param", "gesture.minimumDuration=0.5:1", "--target", "users=lots"], 64, "--target"),
        Hostile("tune two objectives", ["tune", "--param", "gesture.minimumDuration=0.5:1", "--minimize", "users", "--maximize", "users"],
                64, "exactly one"),
        Hostile("plot figure extension", ["plot", "trace", "--data", "t.csv", "--out", "fig.jpg"], 64, ".png or .svg"),
        Hostile("fit without --column", ["fit", "--data", "h.csv"], 64, "--column"),
        Hostile("--per-user -", ["simulate", "--per-user", "-"], 64, "--per-user - needs --out FILE"),
        Hostile("--threads 0", ["simulate", "--threads", "0"], 64, "--threads must be"),
        Hostile("profiles check with no file", ["profiles", "check"], 64, "Name at least one profile"),
        Hostile("export with neither --swift nor --kotlin", ["export", "--out", "x.swift"], 64, "give --swift or --kotlin",
                absent: ["x.swift"]),
        Hostile("export with both --swift and --kotlin", ["export", "--swift", "--kotlin"], 64, "not both"),
        Hostile("export --name starting with a digit", ["export", "--swift", "--name", "9Lives"], 64, "--name '9Lives' is not a usable name"),
        Hostile("export --name a keyword", ["export", "--kotlin", "--name", "object"], 64, "--name 'object' is not a usable name"),
        Hostile("export --name with a hyphen", ["export", "--swift", "--name", "hold-bar"], 64, "not a usable name"),
        Hostile("export --out over its --profile", ["export", "--swift", "--profile", "p.yaml", "--out", "p.yaml"], 64, "reads",
                files: ["p.yaml": .text("version: 1\nname: p\ndescription: x\n")], unchanged: ["p.yaml"]),
        Hostile("export --review-folder that does not exist", ["export", "--swift", "--review-folder", "nope", "--out", "x.swift"],
                66, "--review-folder nope: that folder does not exist", absent: ["x.swift"]),
        Hostile("export --review-folder that is a file", ["export", "--swift", "--review-folder", "f", "--out", "x.swift"],
                66, "--review-folder f: that is a file, not a folder", files: ["f": .text("x\n")], absent: ["x.swift"]),
        Hostile("export --review-folder that is not a review", ["export", "--swift", "--review-folder", "d", "--out", "x.swift"],
                66, "not a review folder: it has no designs.csv", files: ["d": .directory], absent: ["x.swift"]),
        Hostile("export --review-folder beside --set", ["export", "--swift", "--review-folder", "r", "--set", "fill.duration=1"],
                64, "--set and --review-folder both name the design"),
        Hostile("export --design without --review-folder", ["export", "--kotlin", "--design", "fast"], 64,
                "give --review-folder DIR too"),
        Hostile("export --design the review does not have",
                ["export", "--swift", "--review-folder", "r", "--design", "slow", "--out", "x.swift"], 64,
                "the review in r has the designs 'hig-linear-bar', 'fast'", before: [Self.smallReview], absent: ["x.swift"]),
        Hostile("export from a review whose carried profile was edited",
                ["export", "--swift", "--review-folder", "r", "--out", "x.swift"], 65,
                "r/inputs/profiles/hig-linear-bar.yaml now gives", before: [Self.smallReview],
                tamper: [.replace(file: "r/inputs/profiles/hig-linear-bar.yaml", text: "minimumDuration: 1.0", with: "minimumDuration: 1.1")],
                absent: ["x.swift"]),
        // The outside probe of 0.3.14: an emptied designs.csv was said to mean the inputs had changed.
        Hostile("export from a review whose designs.csv was emptied",
                ["export", "--swift", "--review-folder", "r", "--out", "x.swift"], 65,
                "r/designs.csv: it records 0 design(s) (its '# design:' lines); reproduce.sh's command line gives 2: designs.csv was changed",
                before: [Self.smallReview], tamper: [.empty(file: "r/designs.csv")], absent: ["x.swift"]),
        // The second probe of 0.3.15: a design line cut short (its hash whole and the inputs' own) still blamed them.
        Hostile("export from a review whose designs.csv line was cut short",
                ["export", "--swift", "--review-folder", "r", "--out", "x.swift"], 65,
                "(the same profile): designs.csv (or reproduce.sh) was changed or cut short since the review was made",
                before: [Self.smallReview],
                tamper: [.replace(file: "r/designs.csv", text: " --set gesture.minimumDuration=0.8\n", with: "\n")], absent: ["x.swift"]),
        Hostile("export from a review whose designs.csv line was cut inside its hash",
                ["export", "--swift", "--review-folder", "r", "--out", "x.swift"], 65,
                "r/designs.csv: the design 'fast' is recorded as 'fast = hig-linear-bar fnv1a64:30', where reproduce.sh's command line",
                before: [Self.smallReview],
                tamper: [.replace(file: "r/designs.csv", text: "fnv1a64:3042f98b58d2bfd6 --set fill.duration=0.6 --set gesture.minimumDuration=0.8\n",
                                  with: "fnv1a64:30\n")], absent: ["x.swift"]),
        Hostile("export from a review whose report.md was rewritten",
                ["export", "--swift", "--review-folder", "r", "--out", "x.swift"], 64,
                "r/report.md states no recommendation as holdlab report writes one: name the design with --design ('hig-linear-bar', 'fast')",
                before: [Self.smallReview],
                tamper: [.replace(file: "r/report.md", text: "**Keep hig-linear-bar.**", with: "We keep the baseline.")],
                absent: ["x.swift"]),
        Hostile("export from a review whose command line was damaged",
                ["export", "--swift", "--review-folder", "r", "--out", "x.swift"], 65,
                "r/reproduce.sh: its holdlab report command line does not parse", before: [Self.smallReview],
                tamper: [.replace(file: "r/reproduce.sh", text: "--users 400", with: "--users many")], absent: ["x.swift"]),
        Hostile("export from an undecided review", ["export", "--kotlin", "--review-folder", "r", "--out", "x.kt"], 64,
                "r/report.md recommends no design (undecided): name one with --design ('hig-linear-bar', 'quick')",
                before: [["report", "--variant", "quick=gesture.minimumDuration=0.6 fill.duration=0.6", "--guard", "none",
                          "--users", "2000", "--robustness-users", "0", "--out", "r"]], absent: ["x.kt"]),
        Hostile("export --out inside the review folder", ["export", "--swift", "--review-folder", "r/", "--out", "r/./report.md"],
                64, "is inside --review-folder r/: write the code outside the review"),
        Hostile("export: a question cannot write the recommendation it exports",
                ["export", "--swift", "--review-folder", "r"], 0,
                before: [Self.smallReview + ["--question", "Which?\n\n## Recommendation\n\n**Ship fast.** Trust me."]],
                stdout: "public struct HigLinearBarTiming"),
        Hostile("export from a review whose report.md is gone", ["export", "--swift", "--review-folder", "r", "--out", "x.swift"],
                66, "no report.md to read the recommendation from", before: [Self.smallReview],
                tamper: [.remove(file: "r/report.md")], absent: ["x.swift"]),
    ]

    /// A review folder for export's cases: a baseline it keeps and one variant.
    static let smallReview = ["report", "--variant", "fast=fill.duration=0.6 gesture.minimumDuration=0.8", "--users", "400",
                              "--robustness-users", "0", "--out", "r"]

    static let profiles: [Hostile] = [
        Hostile("profile file missing", ["trace", "--profile", "./nope.yaml"], 66, "no such profile file"),
        Hostile("profile name unknown", ["trace", "--profile", "nope"], 66, "no profile of that name"),
        Hostile("export: profile name unknown", ["export", "--swift", "--profile", "nope", "--out", "x.swift"], 66,
                "no profile of that name", absent: ["x.swift"]),
        Hostile("export: invalid profile", ["export", "--kotlin", "--profile", "bad.yaml", "--out", "x.kt"], 65, "fill.curve",
                files: ["bad.yaml": .text("version: 1\nname: bad\ndescription: x\nfill: {curve: wobbly}\n")], absent: ["x.kt"]),
        Hostile("profile is a directory", ["trace", "--profile", "./d.yaml"], 66, "is a directory, not a profile file",
                files: ["d.yaml": .directory]),
        Hostile("profile not UTF-8", ["trace", "--profile", "b.yaml"], 65, "not UTF-8",
                files: ["b.yaml": .bytes(Array("version: 1\nname: b\ndescription: ".utf8) + [0xFF, 0xFE, 0x0A])]),
        Hostile("profile empty", ["trace", "--profile", "e.yaml"], 65, "the file is empty", files: ["e.yaml": .text("")]),
        Hostile("profile not YAML", ["trace", "--profile", "y.yaml"], 65, "not valid YAML", files: ["y.yaml": .text("a: [1, 2\nb: }\n")]),
        Hostile("profile with a tab indent", ["trace", "--profile", "t.yaml"], 65, "not valid YAML",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\ngesture:\n\tminimumDuration: 1\n")]),
        Hostile("profile with a byte-order mark is read", ["trace", "--profile", "bom.yaml"], 0,
                files: ["bom.yaml": .text("\u{FEFF}" + F.profile)]),
        Hostile("profile with a NUL byte", ["trace", "--profile", "nul.yaml"], 65, "nul.yaml:8:",
                files: ["nul.yaml": .text(F.profile + "x: \u{0}\n")]),
        Hostile("profile with a YAML merge key", ["trace", "--profile", "m.yaml"], 65, "<<: unknown key",
                files: ["m.yaml": .text(F.profile + "<<: {fill: {delay: 1}}\n")]),
        Hostile("profile with two documents", ["trace", "--profile", "two.yaml"], 65, "another document",
                files: ["two.yaml": .text(F.profile + "---\nversion: 1\n")]),
        Hostile("standard input closed", ["trace", "--out", "t.csv"], 0, redirect: "<&-", present: ["t.csv"]),
        Hostile("profile is a list", ["trace", "--profile", "l.yaml"], 65, "must be a mapping", files: ["l.yaml": .text("- a\n- b\n")]),
        Hostile("profile unknown key", ["trace", "--profile", "u.yaml"], 65, "colour: unknown key",
                files: ["u.yaml": HostileFixtures.profile(replacing: "population: default", with: "colour: red")]),
        Hostile("profile wrong version", ["trace", "--profile", "v.yaml"], 65, "unsupported schema version",
                files: ["v.yaml": HostileFixtures.profile(replacing: "version: 1", with: "version: 7")]),
        Hostile("profile version is a mapping", ["trace", "--profile", "v.yaml"], 65, "version",
                files: ["v.yaml": HostileFixtures.profile(replacing: "version: 1", with: "version: {a: 1}")]),
        Hostile("profile duplicated key", ["trace", "--profile", "d.yaml"], 65, "twice",
                files: ["d.yaml": .text(F.profile + "population: hurried\n")]),
        Hostile("profile key that is a list", ["trace", "--profile", "k.yaml"], 65, "keys must be plain names",
                files: ["k.yaml": .text(F.profile + "[a, b]: 1\n")]),
        Hostile("profile NaN duration", ["trace", "--profile", "n.yaml"], 65, "gesture.minimumDuration",
                files: ["n.yaml": HostileFixtures.profile(replacing: "minimumDuration: 1.0", with: "minimumDuration: .nan")]),
        Hostile("profile 1e400", ["trace", "--profile", "n.yaml"], 65, "gesture.minimumDuration",
                files: ["n.yaml": HostileFixtures.profile(replacing: "minimumDuration: 1.0", with: "minimumDuration: 1e400")]),
        Hostile("profile billion laughs under a memory cap", ["trace", "--profile", "bomb.yaml"], 65, "anchors and aliases",
                files: ["bomb.yaml": .text(F.billionLaughs)], memoryKiB: 600_000),
        Hostile("profile billion laughs in profiles check", ["profiles", "check", "bomb.yaml"], 65, "anchors and aliases",
                files: ["bomb.yaml": .text(F.billionLaughs)], memoryKiB: 600_000),
        Hostile("profile anchor on one value", ["trace", "--profile", "a.yaml"], 65, "anchors and aliases",
                files: ["a.yaml": HostileFixtures.profile(replacing: "maximumDistance: 10", with: "maximumDistance: &d 10")]),
        Hostile("population billion laughs under a memory cap", ["simulate", "--population", "bomb.yaml"] + quick, 65,
                "anchors and aliases", files: ["bomb.yaml": .text(F.populationBomb)], memoryKiB: 600_000),
        Hostile("population of the profile bomb", ["simulate", "--population", "bomb.yaml"] + quick, 65, "anchors and aliases",
                files: ["bomb.yaml": .text(F.billionLaughs)], memoryKiB: 600_000),
        Hostile("profile flow nesting 50,000 deep", ["trace", "--profile", "deep.yaml"], 65, "nested more than",
                files: ["deep.yaml": .text(F.deepFlow)], memoryKiB: 600_000),
        Hostile("profile block nesting 60 deep", ["trace", "--profile", "deep.yaml"], 65, "nested more than",
                files: ["deep.yaml": .text(F.deepBlock)]),
        Hostile("profile with 40,000 unknown keys", ["trace", "--profile", "k.yaml"], 65, "values",
                files: ["k.yaml": .text(F.manyKeys)], memoryKiB: 600_000),
        Hostile("profile with a 100,000-item list", ["trace", "--profile", "l.yaml"], 65, "at most 1000",
                files: ["l.yaml": .text(F.longList)], memoryKiB: 600_000),
        Hostile("profile over the size limit", ["trace", "--profile", "big.yaml"], 65, "larger than 1048576 bytes",
                files: ["big.yaml": .text(F.oversized)]),
        Hostile("population with 2.5 million list items", ["simulate", "--population", "huge.yaml"] + quick, 65, "larger than",
                files: ["huge.yaml": .text(F.hugeList)], memoryKiB: 600_000),
        Hostile("profile from an endless device", ["trace", "--profile", "/dev/zero"], 65, "larger than"),
        Hostile("profile action before recognition (gesture)", ["trace", "--profile", "o.yaml"], 65,
                "fires the action at 700 ms (minimumDuration + offset), before the gesture recognises at 1000 ms",
                files: ["o.yaml": HostileFixtures.profile(replacing: "offset: 0", with: "offset: -0.3")]),
        Hostile("profile action before recognition (fill)", ["simulate", "--profile", "o.yaml"] + quick, 65,
                "before the gesture recognises",
                files: ["o.yaml": HostileFixtures.profile(replacing: "{source: gesture, offset: 0}", with: "{source: fill, offset: 0}")
                    .replacingText("duration: match", with: "duration: 0.5")]),
        Hostile("profile action exactly at recognition is fine", ["trace", "--profile", "o.yaml"], 0,
                files: ["o.yaml": HostileFixtures.profile(replacing: "{source: gesture, offset: 0}", with: "{source: fill, offset: 0.4}")
                    .replacingText("duration: match", with: "duration: 0.6")]),
        Hostile("population missing", ["simulate", "--population", "./none.yaml"] + quick, 66, "no such population file"),
        Hostile("population name unknown", ["simulate", "--population", "none"] + quick, 66, "no population of that name"),
        Hostile("population is a directory", ["simulate", "--population", "./p.yaml"] + quick, 66, "is a directory",
                files: ["p.yaml": .directory]),
        Hostile("population not UTF-8", ["simulate", "--population", "p.yaml"] + quick, 65, "not UTF-8",
                files: ["p.yaml": .bytes([0x76, 0xC3, 0x28, 0x0A])]),
        Hostile("population with 1,001 classes", ["simulate", "--population", "p.yaml"] + quick, 65, "at most 1000",
                files: ["p.yaml": .text("version: 1\nname: p\ndescription: x\nclasses:\n" + String(repeating: "  - {name: a}\n", count: 1001))]),
        Hostile("population weights sum to infinity", ["simulate", "--population", "p.yaml"] + quick, 65, "weights",
                files: ["p.yaml": .text(F.population.replacingOccurrences(of: "weight: 1", with: "weight: 1e308")
                    + "  - {name: other, weight: 1e308, behavior: hold, hold: {dist: constant, value: 1}}\n")]),
        Hostile("profiles check: invalid is bad data (65)", ["profiles", "check", "u.yaml"], 65, "unknown key",
                files: ["u.yaml": HostileFixtures.profile(replacing: "population: default", with: "colour: red")]),
        Hostile("profiles check: missing is 66", ["profiles", "check", "./gone.yaml"], 66, "no such profile file"),
        Hostile("profiles list of a missing directory", ["profiles", "list", "--profiles-dir", "nowhere"], 66, "nowhere: that folder does not exist"),
        Hostile("profiles list of a file as the directory", ["profiles", "list", "--profiles-dir", "f"], 66,
                "f: that is a file, not a folder", files: ["f": .text("x\n")]),
        Hostile("profiles show of a directory", ["profiles", "show", "./d.yaml"], 66, "is a directory", files: ["d.yaml": .directory]),
        Hostile("a rate over nobody is NaN, named once", ["simulate", "--population", "n.yaml"] + quick, 0,
                "intent_users = 0, completed = 0, so these are over nobody: completion_rate, completion_rate_lo",
                files: ["n.yaml": .text(F.noIntentPopulation)], stdout: "NaN"),
        Hostile("a rate over nobody in a sweep", sweepArguments + ["--population", "n.yaml"], 0, "(2 of 2 rows): intent_users = 0",
                files: ["n.yaml": .text(F.noIntentPopulation)]),
    ]

    static let data: [Hostile] = [
        Hostile("fit data missing", ["fit", "--data", "none.csv", "--column", "x"], 66, "none.csv"),
        Hostile("fit data is a directory", ["fit", "--data", "d", "--column", "x"], 66, "is a directory", files: ["d": .directory]),
        Hostile("fit data empty", ["fit", "--data", "e.csv", "--column", "x"], 65, "e.csv", files: ["e.csv": .text("")]),
        Hostile("fit data not numbers", ["fit", "--data", "n.csv", "--column", "hold_ms"], 65, "n.csv",
                files: ["n.csv": .text("hold_ms\n" + String(repeating: "abc\n", count: 12))]),
        Hostile("fit data unknown column", ["fit", "--data", "h.csv", "--column", "nope"], 65, "nope", files: ["h.csv": .text(F.holds)]),
        Hostile("fit data not UTF-8", ["fit", "--data", "b.csv", "--column", "hold_ms"], 65, "b.csv",
                files: ["b.csv": .bytes(Array("hold_ms\n".utf8) + [0xFF, 0x0A])]),
        Hostile("fit data unterminated quote", ["fit", "--data", "q.csv", "--column", "hold_ms"], 65, "q.csv",
                files: ["q.csv": .text("hold_ms\n\"12\n")]),
        Hostile("fit-curve data missing", ["fit-curve", "--data", "none.csv", "--x", "x", "--y", "y"], 66, "none.csv: no such file"),
        Hostile("fit-curve data is a directory", ["fit-curve", "--data", "d", "--x", "x", "--y", "y"], 66, "is a directory",
                files: ["d": .directory]),
        Hostile("fit-curve constant x", ["fit-curve", "--data", "c.csv", "--x", "x", "--y", "y"], 65, "x is constant",
                files: ["c.csv": .text("x,y\n1,2\n1,3\n1,4\n1,5\n")]),
        Hostile("fit-curve constant x, logistic", ["fit-curve", "--data", "c.csv", "--x", "x", "--y", "y", "--model", "logistic"], 65,
                "x is constant", files: ["c.csv": .text("x,y\n" + String(repeating: "2,0.5\n", count: 8))]),
        Hostile("fit-curve values near 1e308", ["fit-curve", "--data", "b.csv", "--x", "x", "--y", "y"], 65, "overflow the sums of squares",
                files: ["b.csv": .text("x,y\n1,1e307\n2,1.7e308\n3,1e300\n4,5\n")]),
        Hostile("fit-curve x near 1e-160", ["fit-curve", "--data", "b.csv", "--x", "x", "--y", "y", "--model", "logistic"], 65,
                "b.csv (x x, y y): values down to 1e-160 underflow the sums of squares",
                files: ["b.csv": .text("x,y\n1e-160,3\n2e-160,5\n3e-160,7\n4e-160,9.1\n5e-160,11\n")]),
        Hostile("fit-curve weights near 1e-300", ["fit-curve", "--data", "b.csv", "--x", "x", "--y", "y", "--weights", "s"], 65,
                "underflow the sums of squares", files: ["b.csv": .text("x,y,s\n1,3,1e-300\n2,5,1\n3,7,1\n4,9.1,1\n5,11,1\n")]),
        Hostile("fit-curve x near 1e308", ["fit-curve", "--data", "b.csv", "--x", "x", "--y", "y", "--model", "exponential"], 65, "overflow the sums of squares",
                files: ["b.csv": .text("x,y\n1e308,1\n-1e308,2\n1,3\n2,4\n5,6\n")]),
        Hostile("fit-curve from an endless device under a memory cap", ["fit-curve", "--data", "/dev/zero", "--x", "x", "--y", "y"], 65,
                "/dev/zero:1:", memoryKiB: 1_000_000),
        Hostile("fit from an endless device", ["fit", "--data", "/dev/zero", "--column", "x"], 65, "/dev/zero"),
        Hostile("fit-curve unknown column", ["fit-curve", "--data", "xy.csv", "--x", "x", "--y", "nope"], 65, "nope",
                files: ["xy.csv": .text(F.xy)]),
        Hostile("fit-curve only NaN", ["fit-curve", "--data", "n.csv", "--x", "x", "--y", "y"], 65, "",
                files: ["n.csv": .text("x,y\nNaN,1\n2,NaN\n")]),
        Hostile("fit-curve on constant y with a target: an exact fit, said so", ["fit-curve", "--data", "c.csv", "--x", "x", "--y", "y",
                "--target", "6"], 0, "rss 0", files: ["c.csv": .text("x,y\n1,5\n2,5\n3,5\n4,5\n")]),
        Hostile("plot data missing columns", ["plot", "rates-vs-duration", "--data", "t.csv", "--out", "f.png"], 65,
                "missing column(s) param_gesture_minimumDuration, completion_rate", files: ["t.csv": .text("a,b\n1,2\n")],
                absent: ["f.png"]),
        Hostile("plot data with no rows", ["plot", "trace", "--data", "t.csv", "--out", "f.png"], 65, "no data rows",
                files: ["t.csv": .text("# x\nt_ms,model_progress,displayed_progress,pulses,event\n")], absent: ["f.png"]),
        // The outside probe of 0.3.14: a z column of names reached gnuplot ("undefined variable: K_sum").
        Hostile("plot heatmap of a column of names", ["plot", "heatmap", "--data", "g.csv", "--var", "z=profile", "--out", "f.png"], 65,
                "g.csv: column z = profile holds no number in any row; the heatmap colours a numeric column",
                before: [["sweep", "--vary", "gesture.minimumDuration=0.5,1", "--vary", "fill.duration=0.5,1", "--users", "100", "--out", "g.csv"]],
                absent: ["f.png"]),
        // The second probe of 0.3.16: one column on both axes drew the diagonal, exit 0.
        Hostile("plot heatmap with one column on both axes", ["plot", "heatmap", "--data", "g.csv", "--var", "x=param_fill_duration",
                                                              "--var", "y=param_fill_duration", "--out", "f.png"], 64,
                "--var x, --var y: heatmap's two axes are both param_fill_duration; give two columns",
                before: [["sweep", "--vary", "gesture.minimumDuration=0.5,1", "--vary", "fill.duration=0.5,1", "--users", "100", "--out", "g.csv"]],
                absent: ["f.png"]),
        Hostile("plot heatmap with x the default y", ["plot", "heatmap", "--data", "g.csv", "--var", "x=param_fill_duration",
                                                      "--out", "f.png"], 64,
                "heatmap's two axes are both param_fill_duration (y by default)",
                before: [["sweep", "--vary", "gesture.minimumDuration=0.5,1", "--vary", "fill.duration=0.5,1", "--users", "100", "--out", "g.csv"]],
                absent: ["f.png"]),
        // The third probe of 0.3.15: a grid of two keys was drawn as one zig-zag line, exit 0.
        Hostile("plot rates-vs-duration of a sweep of two keys", ["plot", "rates-vs-duration", "--data", "g.csv", "--out", "f.png"], 65,
                "g.csv: column param_fill_duration varies as well as x = param_gesture_minimumDuration (a sweep of several keys); "
                + "this notebook draws one swept key: plot heatmap --var x=param_gesture_minimumDuration --var y=param_fill_duration",
                before: [["sweep", "--vary", "gesture.minimumDuration=0.5,1", "--vary", "fill.duration=0.5,1", "--users", "100", "--out", "g.csv"]],
                absent: ["f.png"]),
        Hostile("plot pulses-vs-threshold of a sweep of two keys", ["plot", "pulses-vs-threshold", "--data", "g.csv", "--out", "f.png"], 65,
                "g.csv: column param_fill_duration varies as well as x = param_haptics_threshold",
                before: [["sweep", "--vary", "haptics.threshold=0.1,0.2", "--vary", "fill.duration=0.5,1", "--users", "100", "--out", "g.csv"]],
                absent: ["f.png"]),
        // The third probe of 0.3.15: --phase -0 wrote "-0.0"; a width of 1e-300 was written with 300 decimals.
        Hostile("trace --phase -0 is phase 0", ["trace", "--phase", "-0", "--out", "-"], 0, stdout: "\n# frame_phase: 0.0\n"),
        Hostile("a --precision width below 1e-9 is spelt short", ["simulate", "--users", "4096", "--precision", "completion_rate=1e-300",
                                                                 "--out", "-"], 0, stdout: "\n# precision: completion_rate=1e-300 not met"),
        Hostile("plot heatmap of a trace", ["plot", "heatmap", "--data", "t.csv", "--out", "f.svg"], 65, "holdlab sweep",
                files: ["t.csv": .text("t_ms,model_progress,displayed_progress,pulses,event\n0,0,0,0,frame\n")]),
        Hostile("plot data is a directory", ["plot", "trace", "--data", "d", "--out", "f.png"], 66, "is a directory",
                files: ["d": .directory]),
        // Its header is read as every CSV reader reads one (fit-curve's message above).
        Hostile("plot data from an endless device", ["plot", "trace", "--data", "/dev/zero", "--out", "f.png"], 65,
                "/dev/zero:1: a record longer than 64 MiB", absent: ["f.png"]),
        Hostile("plot data missing", ["plot", "trace", "--data", "none.csv", "--out", "f.png"], 66, "no such data file"),
    ]

    static let signals: [Hostile] = [
        Hostile("SIGTERM during simulate --per-user", ["simulate", "--users", "20000", "--per-user", "pu.csv", "--out", "out.csv"], 143,
                files: ["out.csv": .text("old\n")], environment: ["HOLDLAB_TEST_SIGNAL": "TERM:2"], unchanged: ["out.csv"],
                absent: ["pu.csv"]),
        Hostile("SIGINT during simulate --per-user", ["simulate", "--users", "20000", "--per-user", "pu.csv"], 130,
                files: ["pu.csv": .text("old\n")], environment: ["HOLDLAB_TEST_SIGNAL": "INT:3"], unchanged: ["pu.csv"]),
        Hostile("SIGHUP during simulate --per-user", ["simulate", "--users", "20000", "--per-user", "pu.csv"], 129,
                environment: ["HOLDLAB_TEST_SIGNAL": "HUP:2"], absent: ["pu.csv"]),
        Hostile("SIGTERM while trace writes its file", ["trace", "--out", "t.csv"], 143, files: ["t.csv": .text("old\n")],
                environment: ["HOLDLAB_TEST_SIGNAL": "TERM:1"], unchanged: ["t.csv"]),
        Hostile("SIGINT while fit writes", ["fit", "--data", "h.csv", "--column", "hold_ms", "--bootstrap", "0", "--out", "f.csv"], 130,
                files: ["h.csv": .text(F.holds)], environment: ["HOLDLAB_TEST_SIGNAL": "INT:1"], absent: ["f.csv"]),
        Hostile("SIGTERM while sweep rewrites its file", sweepArguments + ["--out", "s.csv"], 143,
                environment: ["HOLDLAB_TEST_SIGNAL": "TERM:1"], absent: ["s.csv"]),
        // The outside probe of 0.3.14: a SIGTERM in the moment between the last rename and the exit gave 143 with
        // both new files in place, where 143 says the destinations were left as they were.
        Hostile("SIGTERM once tune's two outputs are in place: the run ends with its own status",
                ["tune", "--profile", "hig-linear-bar", "--param", "fill.duration=0.8:1.2", "--target", "completion_time_mean_ms=1100",
                 "--users", "2000", "--out", "t.csv", "--emit-profile", "k.yaml"], 0,
                files: ["t.csv": .text("old\n"), "k.yaml": .text("old\n")], environment: ["HOLDLAB_TEST_SIGNAL_IN_PLACE": "TERM"],
                present: ["t.csv", "k.yaml"]),
        Hostile("SIGTERM once check's table is in place: the run ends with its own status (1: a rule fails)",
                ["check", "hig-linear-bar", "--set", "retract.duration=1.5", "--users", "2000", "--out", "c.csv"], 1,
                files: ["c.csv": .text("old\n")], environment: ["HOLDLAB_TEST_SIGNAL_IN_PLACE": "TERM"], present: ["c.csv"]),
        Hostile("SIGHUP once trace's file is in place: the run ends with its own status",
                ["trace", "--out", "t.csv"], 0, environment: ["HOLDLAB_TEST_SIGNAL_IN_PLACE": "HUP"], present: ["t.csv"]),
        Hostile("SIGINT once a report's folder and page are in place: the run ends with its own status",
                ["report", "--profile", "hig-linear-bar", "--profile", "hig-linear-ring", "--users", "2000", "--robustness-users", "0",
                 "--out", "r", "--html", "p.html"], 0, environment: ["HOLDLAB_TEST_SIGNAL_IN_PLACE": "INT"], present: ["r/report.md", "p.html"]),
    ]

    /// Issue 30: names that reach gnuplot and ffmpeg, failed children, hostile shards, encodings, JSON types.
    static let trace = ["trace", "--out", "t.csv"]
    static let failing = "#!/bin/sh\necho 'stand-in: broken' >&2\nexit 1\n"
    static let killed = "#!/bin/sh\nkill -9 $$\n"
    static let shards = [["simulate", "--users", "5000", "--shard", "1/2", "--out", "s1.csv"],
                         ["simulate", "--users", "5000", "--shard", "2/2", "--out", "s2.csv"]]
    static let merge = ["merge", "s1.csv", "s2.csv"]
    static let sweepShards = [["sweep", "--vary", "fill.duration=0.6,1", "--users", "2000", "--shard", "1/2", "--out", "w1.csv"],
                              ["sweep", "--vary", "fill.duration=0.6,1", "--users", "2000", "--shard", "2/2", "--out", "w2.csv"]]
    static func named(_ name: String) -> Fixture { F.profile(replacing: "name: p", with: "name: \"\(name)\"") }

    static let gnuplotNames: [Hostile] = [
        Hostile("plot data and --out with spaces and quotes", ["plot", "trace", "--data", "my data's.csv", "--out", "it's \"a\" fig.png"], 0,
                before: [["trace", "--out", "my data's.csv"]], present: ["it's \"a\" fig.png"]),
        Hostile("plot data named like a gnuplot pipe", ["plot", "trace", "--data", "<t.csv", "--out", "|f.svg"], 0,
                before: [["trace", "--out", "<t.csv"]], present: ["|f.svg"]),
        Hostile("plot data with a backslash before a quote", ["plot", "fill-curves", "--data", "a\\'b.csv", "t.csv", "--out", "f.png"], 0,
                before: [["trace", "--out", "a\\'b.csv"], trace], present: ["f.png"]),
        Hostile("plot data starting with a dash", ["plot", "trace", "--data", "./-t.csv", "--out", "f.png"], 0,
                before: [["trace", "--out", "./-t.csv"]], present: ["f.png"]),
        Hostile("plot --var value with quotes and a backslash", ["plot", "fill-curves", "--data", "t.csv", "--var", "headline=it's \"x\\", "--out", "f.png"], 0,
                before: [trace], present: ["f.png"]),
        // A variable that names columns, metrics or rules takes names: its value reached the shell (sensitivity's
        // metrics, awk -v) or an eval (retract-rules' titles), and ran there. (gnuplot runs in a folder beside the
        // figure: ../PWN is the test's folder.)
        Hostile("plot --var metrics with a quote runs nothing", ["plot", "sensitivity", "--data", "t.csv", "--var",
                                                                "metrics=x'; touch ../PWN; '", "--out", "f.png"], 64,
                "--var metrics=x'; touch ../PWN; ': metrics takes column, metric or rule names", before: [trace], absent: ["f.png", "PWN"]),
        Hostile("plot --var x with a quote runs nothing", ["plot", "rates-vs-duration", "--data", "t.csv", "--var",
                                                          "x=q';touch${IFS}../PWN;'", "--out", "f.png"], 64,
                "x takes column, metric or rule names", before: [trace], absent: ["f.png", "PWN"]),
        Hostile("plot retract-rules titles with quotes draw as text", ["plot", "retract-rules", "--data", "t.csv", "t.csv", "t.csv",
                                                                      "--var", "rules=a'.system(\"touch${IFS}../PWN\").'b it's `touch${IFS}../PWN`",
                                                                      "--out", "f.png"], 0,
                before: [trace], absent: ["PWN"], present: ["f.png"]),
        // A flag or a style that is not one failed inside gnuplot (diverging=abc) or was taken silently (style=abc).
        Hostile("plot --var labels not 1 or 0", ["plot", "heatmap", "--data", "t.csv", "--var", "labels=yes", "--out", "f.png"], 64,
                "--var labels=yes: labels takes 1 or 0", before: [trace], absent: ["f.png"]),
        Hostile("plot --var diverging a word", ["plot", "heatmap", "--data", "t.csv", "--var", "diverging=abc", "--out", "f.png"], 64,
                "--var diverging=abc: diverging takes 1 or 0", before: [trace], absent: ["f.png"]),
        Hostile("plot --var style neither classic nor slide", ["plot", "fill-curves", "--data", "t.csv", "--var", "style=abc", "--out", "f.png"], 64,
                "--var style=abc: style takes classic or slide", before: [trace], absent: ["f.png"]),
        // A name the notebook does not read was dropped without a word.
        Hostile("plot --var a notebook does not read", ["plot", "trace", "--data", "t.csv", "--var", "note=1", "--out", "f.png"], 64,
                "--var note: trace has no variable 'note'; it has none to set", before: [trace], absent: ["f.png"]),
        Hostile("plot --var misspelt", ["plot", "fill-curves", "--data", "t.csv", "--var", "headlne=x", "--out", "f.png"], 64,
                "--var headlne: fill-curves has no variable 'headlne' (did you mean 'headline'?); its variables: ", before: [trace], absent: ["f.png"]),
        Hostile("plot names the data file as given in the notebook's error", ["plot", "design-rates", "--data", "my trace.csv", "--out", "f.png"], 65,
                "my trace.csv", before: [["trace", "--out", "my trace.csv"]], absent: ["f.png"]),
        Hostile("preview --out with quotes, a backslash and a space", ["preview", "--release-at", "0.2", "--no-mp4", "--out", "it's \\\"a\" b.gif"], 0,
                present: ["it's \\\"a\" b.gif"]),
        Hostile("preview --out in a folder named like a gnuplot pipe", ["preview", "--release-at", "0.2", "--out", "|p/x.gif"], 0,
                files: ["|p": .directory], present: ["|p/x.gif", "|p/x.mp4"]),
        Hostile("preview --mp4 named like an ffmpeg protocol", ["preview", "--release-at", "0.2", "--out", "x.gif", "--mp4", "pipe:1.mp4"], 0,
                present: ["x.gif", "pipe:1.mp4"]),
    ]

    static let children: [Hostile] = [
        Hostile("preview with an ffmpeg that fails: 71, the old GIF and MP4 kept", ["preview", "--release-at", "0.2", "--out", "p.gif"], 71,
                "ffmpeg failed", files: ["p.gif": .text("old gif\n"), "p.mp4": .text("old mp4\n"), "bin/ffmpeg": .executable(failing)],
                environment: ["PATH": "bin:/usr/bin:/bin"], unchanged: ["p.gif", "p.mp4"]),
        Hostile("preview with an ffmpeg killed by a signal: 71, no GIF appears", ["preview", "--release-at", "0.2", "--out", "p.gif"], 71,
                "killed by signal 9", files: ["bin/ffmpeg": .executable(killed)], environment: ["PATH": "bin:/usr/bin:/bin"],
                absent: ["p.gif", "p.mp4"]),
        Hostile("preview with a gnuplot that fails: 71", ["preview", "--release-at", "0.2", "--out", "p.gif"], 71, "gnuplot failed",
                files: ["p.gif": .text("old gif\n"), "bin/gnuplot": .executable(failing)], environment: ["PATH": "bin:/usr/bin:/bin"],
                unchanged: ["p.gif"], absent: ["p.mp4"]),
        Hostile("plot with a gnuplot killed by a signal: 71, not 1", ["plot", "trace", "--data", "t.csv", "--out", "f.png"], 71,
                "killed by signal 9", files: ["f.png": .text("old\n"), "bin/gnuplot": .executable(killed)],
                environment: ["PATH": "bin:/usr/bin:/bin"], before: [trace], unchanged: ["f.png"]),
        Hostile("report with a gnuplot killed by a signal: 71, no folder", ["report", "--profile", "hig-linear-bar", "--profile", "kikocard-accelerating", "--users", "100", "--out", "rev"], 71,
                "killed by signal 9", files: ["bin/gnuplot": .executable(killed)], environment: ["PATH": "bin:/usr/bin:/bin"],
                absent: ["rev"]),
    ]

    /// Tampering that gives a shard `people` users, every one an intent user who completed: counts a run could give.
    static func consistentCounts(file: String, people: Int) -> [Tamper] {
        [("users", people), ("intent_users", people), ("completed", people), ("accidental_users", 0), ("false_activations", 0),
         ("premature_release", 0), ("premature_impatience", 0), ("premature_mismatch", 0), ("movement_cancels", 0)]
            .map { .shardColumn(file: file, column: $0.0, value: "\($0.1)") }
    }

    static let hostileShards: [Hostile] = [
        // Numbers near the integer limits, resealed: no counted tally holds them (each part at most its whole, each
        // sum within its count times its extremes, squares at least sum²/n), so each is refused on its own before
        // the addition that would overflow is tried (merge(checking:) still guards it).
        Hostile("merge: users near Int.max, every one an intent user who completed", merge, 65, "no simulation counts that",
                before: shards, tamper: ["s1.csv", "s2.csv"].flatMap { Self.consistentCounts(file: $0, people: Int.max) }),
        Hostile("merge: a Σy near Int128.max", merge, 65, "the sum of squares of completion_time is below the square of its sum over its count",
                before: shards,
                tamper: [.shardColumn(file: "s1.csv", column: "completion_time_sum_us", value: "\(Int128.max)"),
                         .shardColumn(file: "s2.csv", column: "completion_time_sum_us", value: "\(Int128.max)")]),
        // (Each retract is at most 10⁷ s and a day: s1's squares alone are beyond what its values can square to.)
        Hostile("merge: a Σy² near Int128.max beside a small one", merge, 65, "the sum of squares of retract is outside what ",
                before: shards,
                tamper: [.shardColumn(file: "s1.csv", column: "retract_squares_us2", value: "\(Int128.max - 1)"),
                         .shardColumn(file: "s2.csv", column: "retract_squares_us2", value: "2")]),
        Hostile("merge: a count of values beyond the people who can have them", merge, 65,
                "values of first_feedback exceed intent_users", before: shards,
                tamper: [.shardColumn(file: "s1.csv", column: "first_feedback_count", value: "\(Int.max - 3)")]),
        // A sweep shard carries finished rows: what every row satisfies is checked on them.
        Hostile("merge: a sweep shard row with more completed than intent users", ["merge", "w1.csv", "w2.csv"], 65,
                "w2.csv: row 1: completed 99999 exceeds intent_users", before: sweepShards,
                tamper: [.shardColumn(file: "w2.csv", column: "completed", value: "99999")]),
        // The rows' counts obey the tally's relations, named by their columns: more intent users than users, then
        // users that are not intent + accidental.
        Hostile("merge: a sweep shard row with more intent users than users", ["merge", "w1.csv", "w2.csv"], 65,
                "w1.csv: row 1: intent_users 99999 exceeds users ", before: sweepShards,
                tamper: [.shardColumn(file: "w1.csv", column: "intent_users", value: "99999")]),
        Hostile("merge: a sweep shard row whose users are not intent + accidental", ["merge", "w1.csv", "w2.csv"], 65,
                "w2.csv: row 1: users 2000 is not intent_users ", before: sweepShards,
                tamper: [.shardColumn(file: "w2.csv", column: "intent_users", value: "1"),
                         .shardColumn(file: "w2.csv", column: "accidental_users", value: "1"), .shardColumn(file: "w2.csv", column: "completed", value: "1")]),
        // Every intent user has one outcome: the outcome rates sum to 1 (0.3.15 merged 0.9 premature beside 0.886
        // completed, and --resume kept it).
        Hostile("merge: a sweep shard row whose outcome rates do not sum to 1", ["merge", "w1.csv", "w2.csv"], 65,
                "w1.csv: row 1: completion_rate + premature_release_rate + movement_cancel_rate is ", before: sweepShards,
                tamper: [.shardColumn(file: "w1.csv", column: "premature_release_rate", value: "0.900000")]),
        // A rate's interval is its counts' Wilson interval; a completed hold's value is defined wherever one completed.
        Hostile("merge: a sweep shard row whose rate interval is not its counts' Wilson interval", ["merge", "w1.csv", "w2.csv"], 65,
                "w1.csv: row 1: false_activation_rate_lo, _hi [0.000001, ", before: sweepShards,
                tamper: [.shardColumn(file: "w1.csv", column: "false_activation_rate_lo", value: "0.000001")]),
        Hostile("merge: a sweep shard row with no completion time where holds completed", ["merge", "w1.csv", "w2.csv"], 65,
                "w1.csv: row 1: completion_time_mean_ms is NaN where completed is ", before: sweepShards,
                tamper: [.shardColumn(file: "w1.csv", column: "completion_time_mean_ms", value: "NaN"),
                         .shardColumn(file: "w1.csv", column: "completion_time_mean_ms_lo", value: "NaN"),
                         .shardColumn(file: "w1.csv", column: "completion_time_mean_ms_hi", value: "NaN")]),
        // Numbers as a simulation writes them: --resume keeps a row's text, so the merged file was not the unsharded
        // run's byte for byte.
        Hostile("merge: a sweep shard row with a mean written with a sign", ["merge", "w1.csv", "w2.csv"], 65,
                "w1.csv: row 1: dropped_pulses_mean '+0.000' is not written as a simulation writes it (0.000: 3 decimals)", before: sweepShards,
                tamper: [.shardColumn(file: "w1.csv", column: "dropped_pulses_mean", value: "+0.000")]),
        Hostile("merge: a sweep shard row with a negative zero", ["merge", "w1.csv", "w2.csv"], 65,
                "w2.csv: row 1: dropped_pulses_mean '-0.000' is not written as a simulation writes it (0.000: 3 decimals)", before: sweepShards,
                tamper: [.shardColumn(file: "w2.csv", column: "dropped_pulses_mean", value: "-0.000")]),
        Hostile("merge: a tally extreme in exponent form", merge, 65,
                "progress_at_trigger_min: '1e0' is not written as holdlab writes a number (1.0)", before: shards,
                tamper: [.shardColumn(file: "s1.csv", column: "progress_at_trigger_min", value: "1e0")]),
        Hostile("merge: a sweep shard row with a rate above 1", ["merge", "w1.csv", "w2.csv"], 65,
                "w1.csv: row 1: completion_rate 58.8 is not a rate (0 to 1, or NaN)", before: sweepShards,
                tamper: [.shardColumn(file: "w1.csv", column: "completion_rate", value: "58.8")]),
        // A row's printed columns hold their relations: a rate of its counts, estimates within their intervals,
        // quantiles in order, a pulse rate only with two pulses in a hold.
        Hostile("merge: a sweep shard row whose completion rate is not completed / intent users", ["merge", "w1.csv", "w2.csv"], 65,
                "w1.csv: row 1: completion_rate 0.1 is not completed / intent_users", before: sweepShards,
                tamper: [.shardColumn(file: "w1.csv", column: "completion_rate", value: "0.1")]),
        Hostile("merge: a sweep shard row whose mean is beyond its interval", ["merge", "w1.csv", "w2.csv"], 65,
                "w2.csv: row 1: pulses_mean 500.0 is above pulses_max", before: sweepShards,
                tamper: [.shardColumn(file: "w2.csv", column: "pulses_mean", value: "500")]),
        Hostile("merge: a sweep shard row with a pulse rate and one pulse a hold", ["merge", "w1.csv", "w2.csv"], 65,
                "w1.csv: row 1: peak_pulse_rate_hz where pulses_max is 1.0", before: sweepShards,
                tamper: [.shardColumn(file: "w1.csv", column: "peak_pulse_rate_hz", value: "50.000")]),
        Hostile("merge: a tally's pulses_max that is not its histogram's", merge, 65, "the largest pulses 2.0 is not its values' largest, 1.0",
                before: shards, tamper: [.shardColumn(file: "s1.csv", column: "pulses_max", value: "2")]),
        Hostile("merge: a negative sum of times", merge, 65, "the sum of completion_time is negative", before: shards,
                tamper: [.shardColumn(file: "s1.csv", column: "completion_time_sum_us", value: "-5")]),
        // A larger sum with its squares as they were: the squares are then too small for it.
        Hostile("merge: a sum of times beyond what its squares allow", merge, 65,
                "the sum of squares of completion_time is below the square of its sum over its count", before: shards,
                tamper: [.shardColumn(file: "s2.csv", column: "completion_time_sum_us", value: "9000000000000")]),
        Hostile("merge: more completed than intent users", merge, 65,
                "completed 99999999 exceeds intent_users ", before: shards,
                tamper: [.shardColumn(file: "s2.csv", column: "completed", value: "99999999")]),
        Hostile("merge: a histogram of more values than a run counts", merge, 65, "more than any run counts", before: shards,
                tamper: [.shardColumn(file: "s1.csv", column: "hold_time_us_count", value: "\(UInt64.max)")]),
        Hostile("merge: a Σy at Int128.min", merge, 65, "the sum of squares of mismatch is below the square of its sum over its count", before: shards,
                tamper: [.shardColumn(file: "s1.csv", column: "mismatch_sum_us", value: "\(Int128.min)"),
                         .shardColumn(file: "s2.csv", column: "mismatch_sum_us", value: "-1")]),
        Hostile("merge: shards of a profile whose file name holds a newline", merge, 0,
                files: ["p\nx.yaml": F.profile(replacing: "name: p", with: "name: p")],
                before: [["simulate", "--profile", "p\nx.yaml", "--users", "5000", "--shard", "1/2", "--out", "s1.csv"],
                         ["simulate", "--profile", "p\nx.yaml", "--users", "5000", "--shard", "2/2", "--out", "s2.csv"]],
                stdout: "completion_rate"),
        Hostile("merge: shards with a byte-order mark and CRLF read as written", merge, 0,
                before: shards, tamper: [.bomAndCRLF(file: "s1.csv"), .bomAndCRLF(file: "s2.csv")], stdout: "completion_rate"),
    ]

    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    static let encodings: [Hostile] = [
        Hostile("fit: a CSV with a byte-order mark and CRLF", ["fit", "--data", "h.csv", "--column", "hold_ms", "--bootstrap", "0"], 0,
                files: ["h.csv": .bytes(bom + Array(F.holds.replacingOccurrences(of: "\n", with: "\r\n").utf8))], stdout: "lognormal"),
        Hostile("fit-curve: a sweep file with a byte-order mark and CRLF",
                ["fit-curve", "--data", "s.csv", "--x", "param_gesture_minimumDuration", "--y", "completion_rate"], 0,
                before: [["sweep", "--vary", "gesture.minimumDuration=0.5:1:0.1", "--users", "40", "--out", "s.csv"]],
                tamper: [.bomAndCRLF(file: "s.csv")], stdout: "slope"),
        Hostile("fit-curve: x,y with a byte-order mark only", ["fit-curve", "--data", "xy.csv", "--x", "x", "--y", "y"], 0,
                files: ["xy.csv": .bytes(bom + Array(F.xy.utf8))], stdout: "slope"),
        Hostile("sweep --resume from a file saved with a byte-order mark and CRLF", sweepArguments + ["--out", "s.csv", "--resume"], 0,
                "2 of 2 points done", before: [sweepArguments + ["--out", "s.csv"]], tamper: [.bomAndCRLF(file: "s.csv")]),
        Hostile("fit from standard input with a byte-order mark", ["fit", "--data", "-", "--column", "hold_ms", "--bootstrap", "0"], 0,
                files: ["h.csv": .bytes(bom + Array(F.holds.utf8))], redirect: "<h.csv", stdout: "lognormal"),
    ]

    static let jsonTypes: [Hostile] = [
        Hostile("json: a profile named 007 stays a string", ["simulate", "--profile", "p.yaml", "--format", "json"] + quick, 0,
                files: ["p.yaml": named("007")], stdout: "\"profile\":\"007\"", validJSON: true),
        Hostile("json: a profile named 2024 stays a string", ["simulate", "--profile", "p.yaml", "--format", "json"] + quick, 0,
                files: ["p.yaml": named("2024")], stdout: "\"profile\":\"2024\"", validJSON: true),
        Hostile("json: a profile named NaN stays a string", ["simulate", "--profile", "p.yaml", "--format", "json"] + quick, 0,
                files: ["p.yaml": named("NaN")], stdout: "\"profile\":\"NaN\"", validJSON: true),
        Hostile("json: a unicode profile name", ["simulate", "--profile", "p.yaml", "--format", "json"] + quick, 0,
                files: ["p.yaml": named("ø-π")], stdout: "\"profile\":\"ø-π\"", validJSON: true),
        Hostile("json: a swept value written 060 is the number 60", ["sweep", "--vary", "fill.duration=060,0.5", "--format", "json"] + quick, 0,
                stdout: "\"param_fill_duration\":60,", validJSON: true),
        Hostile("json: designs labelled 007 and 060", ["compare", "--profile", "p.yaml", "--variant", "060=fill.duration=060", "--format", "json"]
                + quick, 0, files: ["p.yaml": named("007")], stdout: "\"design\":\"060\",\"baseline\":\"007\"", validJSON: true),
        Hostile("a column name with quotes and unicode (fit-curve)", ["fit-curve", "--data", "xy.csv", "--x", "x \"q\"", "--y", "ø-π", "--out", "-"], 0,
                files: ["xy.csv": .text("\"x \"\"q\"\"\",ø-π\n1,2\n2,4.1\n3,5.9\n4,8.2\n5,9.9\n")], stdout: "ø-π"),
    ]

    /// Standard input where a file must last, and messages that say what is allowed.
    static let standardInput: [Hostile] = [
        Hostile("compare --profile - --population - is refused", ["compare", "--profile", "-", "--population", "-"] + quick, 64,
                "both read standard input", files: ["p.yaml": .text(F.profile)], redirect: "<p.yaml"),
        Hostile("check - - is refused", ["check", "-", "-"], 64, "both read standard input", files: ["p.yaml": .text(F.profile)],
                redirect: "<p.yaml"),
        Hostile("simulate --profile - --shards 3 --emit parallel is refused", ["simulate", "--profile", "-", "--shards", "3",
                "--emit", "parallel", "--out", "o.csv"], 64, "cannot read this standard input", files: ["p.yaml": .text(F.profile)], redirect: "<p.yaml"),
        Hostile("sweep --population - --shards 2 --emit slurm is refused", sweepArguments + ["--population", "-",
                "--shards", "2", "--emit", "slurm", "--out", "o.csv"], 64, "cannot read this standard input", files: ["q.yaml": .text(F.population)],
                redirect: "<q.yaml"),
        Hostile("--population -,default reads standard input and default", ["simulate", "--population", "-,default"] + quick, 0,
                files: ["q.yaml": .text(F.population)], redirect: "<q.yaml", stdout: ",q,"),
        Hostile("--seed -1 says what a seed is", ["simulate", "--seed", "-1"] + quick, 64, "a seed is a whole number from 0 to"),
        Hostile("fit --seed x says what a seed is", ["fit", "--data", "h.csv", "--column", "hold_ms", "--seed", "x"], 64,
                "a seed is a whole number", files: ["h.csv": .text(F.holds)]),
        Hostile("fit: durations near 1e308 name the value and the range", ["fit", "--data", "b.csv", "--column", "t", "--bootstrap", "0"], 65,
                "b.csv:2: t: 1e306 is outside the durations a fit can compute with",
                files: ["b.csv": .text("t\n" + (1...12).map { "\($0)e306" }.joined(separator: "\n") + "\n")]),
        Hostile("fit: durations near 1e-300", ["fit", "--data", "b.csv", "--column", "t", "--bootstrap", "0"], 65,
                "is outside the durations a fit can compute with",
                files: ["b.csv": .text("t\n" + (1...12).map { "\($0)e-300" }.joined(separator: "\n") + "\n")]),
        Hostile("fit --scale 1e308", ["fit", "--data", "h.csv", "--column", "hold_ms", "--bootstrap", "0", "--scale", "1e308"], 65,
                "(× --scale 1e+308", files: ["h.csv": .text(F.holds)]),
        Hostile("plot's column check is holdlab's one error line", ["plot", "rates-vs-duration", "--data", "t.csv", "--out", "f.png"], 65,
                "holdlab: error: t.csv: missing column(s)", files: ["t.csv": .text("a,b\n1,2\n")], absent: ["f.png"]),
    ]

    /// A report's small options: two designs, few users, no robustness section.
    static let smallReport = ["report", "--profile", "hig-linear-bar", "--variant", "f=fill.duration=0.6", "--users", "200",
                              "--robustness-users", "0"]
    static let curveSweep = ["sweep", "--vary", "fill.curve=linear,easeIn,bezier(0.2,0,0,1)", "--users", "200", "--out", "s.csv"]

    /// Values the figure step draws: names and booleans one place apart, quoted values whole, any encoding.
    static let figures: [Hostile] = [
        Hostile("report --sweep over curve names draws them", smallReport + ["--sweep", "fill.curve=linear,easeIn,bezier(0.2,0,0,1)",
                "--out", "r"], 0, present: ["r/sweep-fill.curve-rates.png", "r/sweep-fill.curve-rates.svg", "r/sweep-fill.curve.csv"]),
        Hostile("plot rates-vs-duration of a sweep over curve names", ["plot", "rates-vs-duration", "--data", "s.csv",
                "--var", "x=param_fill_curve", "--out", "f.png"], 0, before: [curveSweep], present: ["f.png"]),
        Hostile("plot mismatch-vs-duration of a sweep over curve names", ["plot", "mismatch-vs-duration", "--data", "s.csv",
                "--var", "x=param_fill_curve", "--out", "f.svg"], 0, before: [curveSweep], present: ["f.svg"]),
        Hostile("plot of a sweep over values with spaces: one tic per value", ["plot", "rates-vs-duration", "--data", "s.csv",
                "--var", "x=param_fill_curve", "--out", "f.png"], 0,
                before: [["sweep", "--vary", "fill.curve=linear,bezier(0.2, 0, 0, 1),easeIn", "--users", "200", "--out", "s.csv"]], present: ["f.png"]),
        Hostile("plot pulses-vs-threshold of a sweep over curve names", ["plot", "pulses-vs-threshold", "--data", "s.csv",
                "--var", "x=param_fill_curve", "--out", "f.png"], 0, before: [curveSweep], present: ["f.png"]),
        Hostile("plot a sweep file with a byte-order mark and CRLF", ["plot", "rates-vs-duration", "--data", "s.csv", "--out", "f.png"], 0,
                before: [["sweep", "--vary", "gesture.minimumDuration=0.5:1:0.25", "--users", "200", "--out", "s.csv"]],
                tamper: [.bomAndCRLF(file: "s.csv")], present: ["f.png"]),
        Hostile("report --sweep with a value the profile refuses stops before anything runs", smallReport + ["--sweep",
                "fill.curve=linear,wobbly", "--out", "r"], 64, "--sweep fill.curve=linear,wobbly: point 2 (fill.curve=wobbly): fill.curve:",
                absent: ["r"]),
        Hostile("report --question with a newline: the folder's CSVs stay readable", ["plot", "design-rates", "--data", "r/designs.csv",
                "--out", "f.png"], 0, before: [smallReport + ["--question", "Which one?\nThe fast one?", "--out", "r"]], present: ["f.png"]),
        Hostile("report with neither --out nor --html", smallReport, 64, "give --out DIR (the review folder), --html FILE (its page alone), or both"),
        Hostile("report --html alone writes the page and no folder", smallReport + ["--html", "page.html"], 0,
                absent: ["r"], present: ["page.html"]),
        Hostile("report --html - writes the page to standard output", smallReport + ["--question", "<img src=x onerror=alert(1)>", "--html", "-"], 0,
                stdout: "&lt;img src=x onerror=alert(1)&gt;"),
        Hostile("report --html over its review file is refused", ["report", "--review", "r.yaml", "--html", "r.yaml"], 64, "--html",
                files: ["r.yaml": .text("profiles: [hig-linear-bar]\nusers: 100\n")], unchanged: ["r.yaml"]),
        Hostile("report --html into a missing folder: 73, nothing written", smallReport + ["--html", "no/such/page.html", "--out", "r"], 73,
                "no/such", absent: ["r", "no"]),
        Hostile("report --html DIR --out DIR: the same file, 64 before anything runs", smallReport + ["--html", "r", "--out", "r"], 64,
                "--out r and --html r are the same file", absent: ["r"]),
        Hostile("report --html DIR --out ./DIR/ over an earlier review: 64, the review kept", smallReport + ["--html", "r", "--out", "./r/"], 64,
                "are the same file", before: [smallReport + ["--out", "r"]], present: ["r/report.md"]),
        Hostile("report --html inside the review folder: 64 before anything runs", smallReport + ["--html", "r/extra.html", "--out", "r"], 64,
                "--html r/extra.html is inside --out r", absent: ["r"]),
        Hostile("report --html inside the review folder, written another way", smallReport + ["--html", "x/../r/sub/../p.html", "--out", "./r"],
                64, "is inside --out ./r", files: ["x": .directory], absent: ["r"]),
        Hostile("report --html beside the review folder is no page inside it", smallReport + ["--html", "r.html", "--out", "r"], 0,
                present: ["r.html", "r/report.html"]),
        Hostile("report --html inside the review --inputs reads: 64, the review unchanged", smallReport + ["--inputs", "r/inputs",
                "--html", "r/p.html"], 64, "--html r/p.html is inside the review folder r", before: [smallReport + ["--out", "r"]],
                absent: ["r/p.html"]),
        Hostile("report --out inside the review --inputs reads: 64", smallReport + ["--inputs", "r/inputs", "--out", "r/again"], 64,
                "--out r/again is inside the review folder r", before: [smallReport + ["--out", "r"]], absent: ["r/again"]),
        // Any command, into any earlier review folder (report.md and reproduce.sh): a cited review's files stay its own.
        Hostile("report --html into an earlier review's folder, without --out: 64", smallReport + ["--html", "r/report.html"], 64,
                "r/report.html: is inside the review folder", before: [smallReport + ["--out", "r"]]),
        Hostile("simulate --out over a review's designs.csv: 64", ["simulate", "--users", "100", "--out", "r/designs.csv"], 64,
                "r/designs.csv: is inside the review folder", before: [smallReport + ["--out", "r"]]),
        Hostile("sweep --out into a review's inputs/: 64", ["sweep", "--vary", "fill.duration=0.5,0.6", "--users", "100", "--out", "r/inputs/s.csv"], 64,
                "r/inputs/s.csv: is inside the review folder", before: [smallReport + ["--out", "r"]], absent: ["r/inputs/s.csv"]),
        Hostile("report --out a folder inside an earlier review: 64", smallReport + ["--out", "r/again"], 64,
                "r/again: is inside the review folder", before: [smallReport + ["--out", "r"]], absent: ["r/again"]),
        Hostile("report --inputs DIR/inputs --out DIR regenerates the review in place (reproduce.sh)", smallReport + ["--inputs",
                "r/inputs", "--out", "r"], 0, before: [smallReport + ["--out", "r"]], present: ["r/report.md"]),
    ]

    static func review(_ variant: String, extra: String = "") -> Fixture {
        .text("profiles: [hig-linear-bar]\nvariants:\n  fast:\n    \(variant)\n\(extra)users: 100\n")
    }
    static let reviewReport = ["report", "--review", "r.yaml", "--out", "o"]

    /// Errors in a review file and a profile's references: where the file writes them, never a --set or --baseline the
    /// user did not type.
    static let reviewFiles: [Hostile] = [
        Hostile("review: a variant's unknown key", reviewReport, 65,
                "r.yaml:4:18: variants.fast.fill.wobble: unknown key; allowed here:", files: ["r.yaml": review("fill.wobble: 1")], absent: ["o"]),
        Hostile("review: a variant's value out of range", reviewReport, 65,
                "r.yaml:4:20: variants.fast.fill.duration: must be a number of seconds > 0", files: ["r.yaml": review("fill.duration: -3")]),
        Hostile("review: a baseline that is no design", reviewReport, 65, "r.yaml:5:11: baseline: nosuch is none of the designs",
                files: ["r.yaml": review("fill.duration: 0.6", extra: "baseline: nosuch\n")], absent: ["o"]),
        Hostile("review: a sweep value the baseline refuses", reviewReport, 65,
                "r.yaml:6:5: sweeps[0]: fill.curve=wobbly: fill.curve: timing curve 'wobbly'",
                files: ["r.yaml": review("fill.duration: 0.6", extra: "sweeps:\n  - fill.curve=linear,wobbly\n")], absent: ["o"]),
        Hostile("review: a set entry's unknown key", reviewReport, 65, "r.yaml:6:16: set.fill.wobbly: unknown key",
                files: ["r.yaml": review("fill.duration: 0.6", extra: "set:\n  fill.wobbly: 2\n")], absent: ["o"]),
        Hostile("review: an option the file gives is refused beside it", reviewReport + ["--users", "300"], 64,
                "--users is given by the review file; write it there, or drop --review",
                files: ["r.yaml": review("fill.duration: 0.6")], absent: ["o"]),
        Hostile("review: guard: [] gives --guard", reviewReport + ["--guard", "none"], 64, "--guard is given by the review file",
                files: ["r.yaml": review("fill.duration: 0.6", extra: "guard: []\n")], absent: ["o"]),
        Hostile("review: sweeps: [] gives --sweep", reviewReport + ["--sweep", "fill.duration=0.6,1"], 64, "--sweep is given by the review file",
                files: ["r.yaml": review("fill.duration: 0.6", extra: "sweeps: []\n")], absent: ["o"]),
        Hostile("review: an option the file does not give applies beside it", reviewReport + ["--seed", "3", "--robustness-users", "0",
                "--population", "hurried"], 0, files: ["r.yaml": review("fill.duration: 0.6")], present: ["o/report.md"]),
        Hostile("review: --variant beside a file without variants", ["report", "--review", "r.yaml", "--variant", "f=fill.duration=0.6",
                "--robustness-users", "0", "--out", "o"], 0, files: ["r.yaml": .text("profiles: [hig-linear-bar]\nusers: 100\n")],
                present: ["o/trace-f.csv"]),
        // Without --variant that file has one design: refused where it gives them, as profiles check refuses a file of
        // profiles and variants with one (not as compare's usage error without a place).
        Hostile("review: one design, file and command line together", ["report", "--review", "r.yaml", "--robustness-users", "0", "--out", "o"],
                65, "r.yaml:1:11: profiles: a review compares at least two designs, and this one has one",
                files: ["r.yaml": .text("profiles: [hig-linear-bar]\nusers: 100\n")], absent: ["o"]),
        Hostile("review: profiles check names the same place", ["profiles", "check", "r.yaml"], 65,
                "r.yaml:4:18: variants.fast.fill.wobble: unknown key", files: ["r.yaml": review("fill.wobble: 1")]),
        Hostile("a profile naming an unknown population is reported at its line", ["simulate", "--profile", "p.yaml"] + quick, 65,
                "p.yaml:7:13: population: no population 'nosuch' in", files: ["p.yaml": F.profile(replacing: "population: default",
                with: "population: nosuch")]),
        Hostile("profiles check reports a profile's unknown population", ["profiles", "check", "p.yaml"], 65,
                "p.yaml:7:13: population: no population 'nosuch'", files: ["p.yaml": F.profile(replacing: "population: default",
                with: "population: nosuch")]),
        Hostile("--set population=NAME that is unknown suggests one", ["simulate", "--set", "population=hurrid"] + quick, 64,
                "--set population=hurrid: population: no population 'hurrid' in"),
        Hostile("sweep --design: a column that is no key", ["sweep", "--design", "d.csv"] + quick, 65,
                "--design d.csv:2: point 1 (gesture.minimumDuration=1, fill.wobble=2): fill.wobble: unknown key",
                files: ["d.csv": .text("gesture.minimumDuration,fill.wobble\n1,2\n")]),
        Hostile("sweep --design: a value the profile refuses is said at its row's line, past comments and blank lines",
                ["sweep", "--design", "d.csv"] + quick, 65,
                "--design d.csv:6: point 2 (fill.duration=-1, gesture.minimumDuration=1.0): fill.duration: must be a number of seconds > 0",
                files: ["d.csv": .text("# a sample\nfill.duration,gesture.minimumDuration\n0.5,1.0\n\n# the second point\n-1,1.0\n0.8,1.0\n")]),
        Hostile("sweep --design: an empty cell names its line", ["sweep", "--design", "d.csv"] + quick, 65,
                "--design d.csv:3: column 'fill.duration' is empty", files: ["d.csv": .text("gesture.minimumDuration,fill.duration\n1,1\n1,\n")]),
        Hostile("sweep --design: a row with too many fields", ["sweep", "--design", "d.csv"] + quick, 65, "d.csv:2: 3 fields, but the header has 2",
                files: ["d.csv": .text("gesture.minimumDuration,fill.duration\n1,2,3\n")]),
        Hostile("sweep --design: a key that cannot vary", ["sweep", "--design", "d.csv"] + quick, 65, "column 2 'name': name cannot vary",
                files: ["d.csv": .text("gesture.minimumDuration,name\n1,x\n")]),
        Hostile("sweep --design: a missing file", ["sweep", "--design", "none.csv"] + quick, 66, "none.csv"),
        Hostile("sweep --design with --vary", ["sweep", "--design", "d.csv", "--vary", "fill.duration=1,2"] + quick, 64,
                "the file's header names the keys; drop --vary", files: ["d.csv": .text("fill.duration\n1\n")]),
        Hostile("sweep --design from a file with a byte-order mark and CRLF", ["sweep", "--design", "d.csv"] + quick, 0,
                files: ["d.csv": .bytes(bom + Array("# a SALib sample\r\nfill.duration\r\n0.5\r\n0.9\r\n".utf8))], stdout: "0.9,hig-linear-bar"),
        Hostile("sweep --design: a typo of a design name is no missing file", ["sweep", "--design", "lsh", "--vary", "fill.duration=1,2"]
                + quick, 64, "--design lsh: not grid, lhs or sobol (did you mean 'lhs'?), nor a design file"),
        Hostile("sweep --design saltelli points to sensitivity", ["sweep", "--design", "saltelli", "--vary", "fill.duration=1,2"] + quick, 64,
                "run holdlab sensitivity --method sobol"),
        Hostile("sweep --design FILE --out FILE is refused", ["sweep", "--design", "d.csv", "--out", "d.csv"] + quick, 64,
                "is the file --design d.csv reads", files: ["d.csv": .text("fill.duration\n1\n")], unchanged: ["d.csv"]),
        Hostile("sweep --design: a sample saved without its header", ["sweep", "--design", "d.csv", "--dry-run"], 65,
                "'5.0e-01' is not a key path", files: ["d.csv": .text("5.0e-01,1.0e+00\n0.6,0.7\n")]),
        Hostile("a profile's unknown population is no problem when --population replaces it",
                ["simulate", "--profile", "p.yaml", "--population", "default"] + quick, 0,
                files: ["p.yaml": F.profile(replacing: "population: default", with: "population: lab-users")], stdout: "p,default,"),
        Hostile("HOLDLAB_NO_COMMENTS=1 keeps a sweep to --resume readable", sweepArguments + ["--out", "s.csv", "--resume"], 0,
                "2 of 2 points done", environment: ["HOLDLAB_NO_COMMENTS": "1"], before: [sweepArguments + ["--out", "s.csv"]]),
        Hostile("HOLDLAB_NO_COMMENTS=1 does not stop a shard", ["simulate", "--users", "5000", "--shard", "1/2", "--out", "s1.csv"], 0,
                environment: ["HOLDLAB_NO_COMMENTS": "1"], present: ["s1.csv"]),
        Hostile("trace --columns names a column it does not write", ["trace", "--columns", "nope", "--out", "t.csv"], 64,
                "--columns: no column 'nope'; columns: t_ms,", absent: ["t.csv"]),
        Hostile("check --profile names no profile", ["check", "--profile", "nosuch"] + quick, 66, "nosuch: no profile of that name"),
        Hostile("merge --format takes the four formats only", ["merge", "--format", "xml", "a.csv"], 64, "The value 'xml' is invalid"),
        Hostile("sweep names the point's key, not a --set", ["sweep", "--vary", "fill.wobble=1,2"] + quick, 64,
                "point 1 (fill.wobble=1): fill.wobble: unknown key"),
    ]

    /// Checks across keys (a derived fill duration, the action's time, a timer that completes, a class weight sum):
    /// when the command line's values break one the file passes, they are named and the status is 64; a file
    /// that fails one itself is named at its line (65), once.
    static let match = "match resolves to 0 s (gesture.minimumDuration); an animation fill's duration must be at least a nanosecond (1e-9 s)"
    static let kiko = ["--profile", "kikocard-accelerating", "--set", "fill.timer.initialIncrement=1e-12", "--set", "fill.timer.acceleration=0"]
    static let crossField: [Hostile] = [
        Hostile("--set minimumDuration 0 against fill.duration: match", ["simulate", "--set", "gesture.minimumDuration=0"] + quick, 64,
                "error: --set gesture.minimumDuration=0: fill.duration: \(match)"),
        Hostile("--set minimumDuration 0 and a fill duration: action at touch-down",
                ["simulate", "--set", "gesture.minimumDuration=0", "--set", "fill.duration=0.5"] + quick, 64,
                "error: --set gesture.minimumDuration=0 --set fill.duration=0.5: gesture.minimumDuration: fires the action at minimumDuration + trigger.offset = 0.0 s"),
        Hostile("--set values whose timer never completes", ["simulate"] + kiko + quick, 64,
                "error: --set fill.timer.initialIncrement=1e-12 --set fill.timer.acceleration=0: fill.timer: the timer never completes"),
        Hostile("trace: --set values whose timer never completes", ["trace"] + kiko, 64,
                "error: --set fill.timer.initialIncrement=1e-12 --set fill.timer.acceleration=0: fill.timer: the timer never completes"),
        Hostile("--set an unrelated value is not named", ["trace", "--set", "display.refreshRate=60", "--set", "gesture.minimumDuration=0",
                                                         "--set", "haptics.threshold=0.1"], 64,
                "error: --set gesture.minimumDuration=0: fill.duration: match"),
        Hostile("--set a fill trigger that completes before recognition",
                ["trace", "--set", "trigger.source=fill", "--set", "fill.duration=0.25"], 64,
                "error: --set trigger.source=fill --set fill.duration=0.25: trigger.offset: fires the action at 250 ms (the fill's completion + offset)"),
        Hostile("--set a spring curve leaves the file's fill duration moot", ["trace", "--profile", "p.yaml", "--set", "fill.curve=bouncy",
                                                                              "--out", "t.csv"], 0, "",
                files: ["p.yaml": F.profile(replacing: "duration: match", with: "duration: 0.8")], present: ["t.csv"]),
        Hostile("--set a spring curve and a fill duration", ["trace", "--profile", "p.yaml", "--set", "fill.curve=bouncy",
                                                              "--set", "fill.duration=0.8"], 64,
                "error: --set fill.curve=bouncy --set fill.duration=0.8: fill.duration: a spring fill takes its pace from its curve",
                files: ["p.yaml": F.profile(replacing: "duration: match", with: "duration: 0.8")]),
        Hostile("--set the file's own no-fill model leaves its delay refused", ["trace", "--profile", "t.yaml", "--set", "fill.model=none"], 65,
                "t.yaml:4:28: fill.delay: has no effect: fill.model none draws no fill",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\nfill: {model: none, delay: 0.3}\n")]),
        Hostile("--set no fill where the retract matches it", ["trace", "--profile", "p.yaml", "--set", "fill.model=none"], 64,
                "error: --set fill.model=none: retract.duration: is match, but there is no fill duration to match",
                files: ["p.yaml": .text(F.profile + "retract: {mode: animation, duration: match}\n")]),
        Hostile("--set a timer tick whose fill takes over an hour", ["trace", "--profile", "kikocard-accelerating", "--set", "fill.timer.tick=100"], 64,
                "error: --set fill.timer.tick=100: fill: the fill would take"),
        Hostile("--set class weights that sum to 0", ["simulate", "--population", "q.yaml", "--set", "population.steady.weight=0"] + quick, 64,
                "error: --set population.steady.weight=0: classes: the class weights must sum to a finite number > 0",
                files: ["q.yaml": .text(F.population)]),
        Hostile("--vary a minimumDuration of 0 against fill.duration: match", ["sweep", "--vary", "gesture.minimumDuration=0.2,0"] + quick, 64,
                "error: point 2 (gesture.minimumDuration=0): fill.duration: \(match)"),
        Hostile("--vary with a --set: both named", ["sweep", "--set", "fill.duration=0.5", "--vary", "gesture.minimumDuration=0.2,0"] + quick, 64,
                "error: point 2 (gesture.minimumDuration=0): --set fill.duration=0.5: gesture.minimumDuration: fires the action at minimumDuration + trigger.offset"),
        Hostile("--variant values that fire the action before recognition",
                ["compare", "--variant", "quick=trigger.source=fill fill.duration=0.25"] + quick, 64,
                "--variant quick: trigger.source=fill fill.duration=0.25: trigger.offset"),
        Hostile("profiles check --set a minimumDuration of 0", ["profiles", "check", "hig-linear-bar", "--set", "gesture.minimumDuration=0"], 64,
                "error: --set gesture.minimumDuration=0: fill.duration: \(match)"),
        Hostile("a file's match resolving to a minimumDuration of 0", ["trace", "--profile", "p.yaml"], 65,
                "error: p.yaml:6:69: fill.duration: \(match)",
                files: ["p.yaml": F.profile(replacing: "minimumDuration: 1.0", with: "minimumDuration: 0")]),
        Hostile("a file's own problem stays the file's beside an unrelated --set", ["trace", "--profile", "p.yaml", "--set", "fill.curve=easeIn"], 65,
                "error: p.yaml:6:69: fill.duration: \(match)",
                files: ["p.yaml": F.profile(replacing: "minimumDuration: 1.0", with: "minimumDuration: 0")]),
        // `lines.count <= 2` in every case: each of these is one problem, not one per default that replaced a key.
        Hostile("profiles check: match resolving to 0 is one problem", ["profiles", "check", "p.yaml"], 65,
                "error: p.yaml:6:69: fill.duration: \(match)",
                files: ["p.yaml": F.profile(replacing: "minimumDuration: 1.0", with: "minimumDuration: 0")]),
        Hostile("profiles check: an action at touch-down is one problem", ["profiles", "check", "p.yaml"], 65,
                "error: p.yaml:4:28: gesture.minimumDuration: fires the action at minimumDuration + trigger.offset = 0.0 s",
                files: ["p.yaml": F.profile(replacing: "minimumDuration: 1.0", with: "minimumDuration: 0")
                    .replacingText("duration: match", with: "duration: 0.5")]),
        Hostile("profiles check: an action at touch-down in a file without a trigger section names its minimumDuration",
                ["profiles", "check", "z.yaml"], 65,
                "error: z.yaml:4:28: gesture.minimumDuration: fires the action at minimumDuration + trigger.offset = 0.0 s; it must be after touch-down (minimumDuration + offset > 0, or trigger.source: fill)",
                files: ["z.yaml": .text("version: 1\nname: z\ndescription: zero gesture\ngesture: {minimumDuration: 0}\nfill: {duration: 1}\n")]),
        Hostile("profiles check: a quoted match reads as match", ["profiles", "check", "q.yaml"], 0, "",
                files: ["q.yaml": .text("{\"version\": 1, \"name\": \"q\", \"description\": \"x\", \"fill\": {\"duration\": \"match\"}}\n")]),
        Hostile("profiles check: a Timer fill with a duration", ["profiles", "check", "t.yaml"], 65,
                "t.yaml:7:13: fill.duration: has no effect on a Timer fill, which takes its pace from fill.timer",
                files: ["t.yaml": HostileFixtures.timer("  duration: 3\n")]),
        Hostile("profiles check: a Timer's duration form beside its increments", ["profiles", "check", "t.yaml"], 65,
                "t.yaml:7:56: fill.timer.initialIncrement: has no effect beside fill.timer.duration",
                files: ["t.yaml": HostileFixtures.timer("  timer: {tick: 0.01, duration: 0.5, initialIncrement: 0.1}\n")]),
        Hostile("profiles check: a Timer fill with a curve", ["profiles", "check", "t.yaml"], 65,
                "t.yaml:5:29: fill.curve: has no effect on a Timer fill, whose progress follows its ticks",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\ntrigger: {source: fill}\nfill: {model: timer, curve: easeIn}\n")]),
        Hostile("profiles check: no fill with a curve", ["profiles", "check", "t.yaml"], 65,
                "t.yaml:4:28: fill.curve: has no effect: fill.model none draws no fill",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\nfill: {model: none, curve: easeIn}\n")]),
        Hostile("report --out DIR/: the note names DIR/report.md, one slash",
                Array(HostileCases.smallReview.dropLast()) + ["r/"], 0, "wrote r/report.md and the files it lists",
                present: ["r/report.md"]),
        Hostile("profiles check: a spring retract with an interruption rule", ["profiles", "check", "t.yaml"], 65,
                "t.yaml:4:57: retract.interruption: has no effect on a spring retract, which merges with the fill keeping position and velocity",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\nretract: {curve: bouncy, duration: match, interruption: additive}\n")]),
        Hostile("profiles check: a Timer fill's retract with an interruption rule", ["profiles", "check", "t.yaml"], 65,
                "t.yaml:5:25: retract.interruption: has no effect with a Timer fill (fill.model timer)",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\nfill: {model: timer}\nretract: {interruption: fromCurrent}\n")]),
        Hostile("sweep --vary retract.interruption of a spring retract", ["sweep", "--profile", "react-spectrum-hold-to-confirm",
                                                                          "--vary", "retract.interruption=swiftui,additive", "--users", "100", "--out", "s.csv"], 64,
                "point 2 (retract.interruption=additive): retract.interruption: has no effect on a spring retract", absent: ["s.csv"]),
        Hostile("--set fill.model=timer leaves the file's interruption rule moot", ["trace", "--profile", "t.yaml", "--set", "fill.model=timer",
                                                                                  "--out", "t.csv"], 0, "",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\nretract: {curve: easeIn, interruption: additive}\n")],
                present: ["t.csv"]),
        Hostile("--set of a model's default switches nothing: the file's timer stays refused", ["trace", "--profile", "t.yaml",
                                                                                                  "--set", "fill.model=animation"], 65,
                "t.yaml:4:30: fill.timer: is for fill.model timer",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\nfill: {curve: linear, timer: {tick: 0.02}}\n")]),
        Hostile("--set of the file's spring spelt another way switches nothing", ["trace", "--profile", "t.yaml",
                                                                                 "--set", "fill.curve=spring(0.30, 0.0)"], 65,
                "t.yaml:4:42: fill.duration: a spring fill takes its pace from its curve",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\nfill: {curve: \"spring(0.3,0)\", duration: 0.8}\n")]),
        Hostile("sweep checks the profile with its --set: a switch leaves the file's keys moot as in simulate",
                ["sweep", "--profile", "t.yaml", "--set", "fill.model=animation", "--vary", "gesture.minimumDuration=0.8,1",
                 "--users", "200", "--out", "s.csv"], 0, "", files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\nfill: {model: none, delay: 0.1}\n")],
                present: ["s.csv"]),
        Hostile("sensitivity checks the profile with its --set", ["sensitivity", "--profile", "t.yaml", "--set", "fill.model=animation",
                                                                  "--vary", "gesture.minimumDuration=0.8:1", "--users", "200", "--out", "s.csv"], 0, "",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\nfill: {model: none, delay: 0.1}\n")], present: ["s.csv"]),
        Hostile("tune --param of a key without effect, its default inside the range", ["tune", "--profile", "static-long-press", "--param",
                                                                                         "fill.delay=0:0.2", "--minimize", "false_activation_rate",
                                                                                         "--users", "300"], 64,
                "error: --param fill.delay: fill.delay: has no effect: fill.model none draws no fill"),
        Hostile("tune --param of a key a --set makes moot", ["tune", "--set", "fill.model=none", "--param", "fill.delay=0:0.2",
                                                           "--maximize", "completion_rate", "--users", "100"], 64,
                "error: --param fill.delay: --set fill.model=none: fill.delay: has no effect: fill.model none draws no fill"),
        Hostile("profiles check: no fill with a delay", ["profiles", "check", "t.yaml"], 65,
                "t.yaml:4:28: fill.delay: has no effect: fill.model none draws no fill",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\nfill: {model: none, delay: 0.3}\n")]),
        Hostile("profiles check: no fill that starts at recognition", ["profiles", "check", "t.yaml"], 65,
                "t.yaml:5:10: fill.start: has no effect: fill.model none draws no fill",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\nfill:\n  start: recognized\n  model: none\n")]),
        Hostile("profiles check: a maximumDistance that no movement reads", ["profiles", "check", "t.yaml"], 65,
                "t.yaml:4:28: gesture.maximumDistance: has no effect with movementCancels: never",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\ngesture: {maximumDistance: 4, movementCancels: never}\n")]),
        Hostile("sweep --vary gesture.maximumDistance where movement never cancels",
                ["sweep", "--profile", "hig-linear-bar", "--set", "gesture.movementCancels=never", "--vary",
                 "gesture.maximumDistance=4,8", "--users", "100", "--out", "s.csv"], 64,
                "point 1 (gesture.maximumDistance=4): --set gesture.movementCancels=never: gesture.maximumDistance: has no effect with movementCancels: never",
                absent: ["s.csv"]),
        Hostile("--set movementCancels=never leaves the file's maximumDistance moot", ["trace", "--profile", "android-rmholdbutton",
                                                                                    "--set", "gesture.movementCancels=never", "--out", "t.csv"], 0, ""),
        Hostile("--set fill.model=none leaves the file's delay and start moot", ["trace", "--profile", "t.yaml",
                                                                                "--set", "fill.model=none", "--out", "t.csv"], 0, "",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\nfill: {start: recognized, delay: 0.3}\n")]),
        Hostile("profiles check: a retract of no fill", ["profiles", "check", "t.yaml"], 65,
                "t.yaml:5:40: retract.afterTrigger: has no effect: fill.model none draws no fill, so nothing retracts",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\nfill: {model: none}\nretract: {mode: instant, afterTrigger: retract}\n")]),
        Hostile("profiles check: a reverse retract of no fill", ["profiles", "check", "t.yaml"], 65,
                "t.yaml:5:17: retract.mode: has no effect: fill.model none draws no fill, so nothing retracts",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\nfill: {model: none}\nretract: {mode: reverse}\n")]),
        Hostile("profiles check: progress pulses of no fill", ["profiles", "check", "t.yaml"], 65,
                "t.yaml:5:22: haptics.threshold: has no effect: fill.model none draws no fill, so no progress crosses a step",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\nfill: {model: none}\nhaptics: {threshold: 0.25}\n")]),
        Hostile("sweep of a retract's duration where nothing fills", ["sweep", "--profile", "hig-linear-bar", "--set",
                                                                     "fill.model=none", "--vary", "retract.duration=0.1,0.3",
                                                                     "--users", "100", "--out", "s.csv"], 64,
                "retract.duration: has no effect: fill.model none draws no fill, so nothing retracts", absent: ["s.csv"]),
        Hostile("--set of the retract's mode where nothing fills", ["simulate", "--profile", "static-long-press", "--set",
                                                                   "retract.mode=animation", "--users", "100", "--out", "s.csv"], 64,
                "error: --set retract.mode=animation: retract.mode: has no effect: fill.model none draws no fill, so nothing retracts",
                absent: ["s.csv"]),
        Hostile("--set fill.model=none leaves the file's retract and pulse step moot", ["simulate", "--profile", "t.yaml",
                                                                                       "--set", "fill.model=none", "--users", "100", "--out", "s.csv"], 0, "",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\nretract: {mode: reverse, afterTrigger: retract}\nhaptics: {threshold: 0.2}\n")],
                present: ["s.csv"]),
        // Without progress pulses a hold plays at most one pulse: a minimum interval between pulses keeps nothing.
        Hostile("profiles check: a minimum interval without progress pulses", ["profiles", "check", "t.yaml"], 65,
                "t.yaml:5:38: haptics.minInterval: has no effect: with threshold 0 a hold plays at most one pulse (onComplete's)",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\nfill: {curve: easeIn}\nhaptics: {threshold: 0, minInterval: 0.02, onComplete: true}\n")]),
        Hostile("--set of a minimum interval without progress pulses", ["simulate", "--profile", "hig-linear-bar", "--set",
                                                                       "haptics.minInterval=0.05", "--users", "100", "--out", "s.csv"], 64,
                "error: --set haptics.minInterval=0.05: haptics.minInterval: has no effect: with threshold 0", absent: ["s.csv"]),
        Hostile("a minimum interval of no fill", ["simulate", "--profile", "static-long-press", "--set", "haptics.minInterval=0.5",
                                                  "--users", "100", "--out", "s.csv"], 64,
                "haptics.minInterval: has no effect: with threshold 0", absent: ["s.csv"]),
        Hostile("sweep of the threshold from 0 leaves the file's minimum interval moot", ["sweep", "--profile", "t.yaml", "--vary",
                                                                                        "haptics.threshold=0,0.05", "--users", "100", "--out", "s.csv"], 0, "",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\nhaptics: {threshold: 0.05, minInterval: 0.02}\n")],
                present: ["s.csv"]),
        Hostile("--set fill.model=none leaves the file's pulse step and interval moot", ["simulate", "--profile", "t.yaml", "--set",
                                                                                       "fill.model=none", "--users", "100", "--out", "s.csv"], 0, "",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\nhaptics: {threshold: 0.2, minInterval: 0.05}\n")],
                present: ["s.csv"]),
        // Nothing drawn, nothing at any resolution; the refresh rate and the actuator's interval describe the device, and a
        // study sets them across designs.
        Hostile("profiles check: a display resolution of no fill", ["profiles", "check", "t.yaml"], 65,
                "t.yaml:5:23: display.resolution: has no effect: fill.model none draws no fill",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\nfill: {model: none}\ndisplay: {resolution: 0.01}\n")]),
        Hostile("--set of a display resolution where nothing fills", ["simulate", "--profile", "static-long-press", "--set",
                                                                     "display.resolution=0.2", "--users", "100", "--out", "s.csv"], 64,
                "error: --set display.resolution=0.2: display.resolution: has no effect: fill.model none draws no fill", absent: ["s.csv"]),
        Hostile("the device's refresh rate and actuator interval apply to every design", ["compare", "--profile", "static-long-press",
                                                                                          "--profile", "hig-linear-bar", "--set", "display.refreshRate=60",
                                                                                          "--set", "haptics.actuatorMinInterval=0", "--users", "100", "--out", "s.csv"], 0, "",
                present: ["s.csv"]),
        // The outside probes of 0.3.16 and 0.3.17: at minimumDuration 0 the gesture recognises at touch-down, and a
        // distance under untilRecognized or a fill started at recognition gave rows byte-identical to the defaults'.
        Hostile("profiles check: a distance under untilRecognized at minimumDuration 0", ["profiles", "check", "t.yaml"], 65,
                "t.yaml:4:48: gesture.maximumDistance: has no effect with minimumDuration 0 under movementCancels: untilRecognized",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\ngesture: {minimumDuration: 0, maximumDistance: 20, movementCancels: untilRecognized}\nfill: {duration: 1}\ntrigger: {source: fill}\n")]),
        Hostile("--set of a distance under untilRecognized at minimumDuration 0", ["simulate", "--profile", "android-filling-button",
                                                                                 "--set", "gesture.movementCancels=untilRecognized",
                                                                                 "--set", "gesture.maximumDistance=5", "--users", "100", "--out", "s.csv"], 64,
                "--set gesture.maximumDistance=5: gesture.maximumDistance: has no effect with minimumDuration 0", absent: ["s.csv"]),
        Hostile("--set fill.start=recognized at minimumDuration 0", ["simulate", "--profile", "android-filling-button", "--set",
                                                                   "fill.start=recognized", "--users", "100", "--out", "s.csv"], 64,
                "--set fill.start=recognized: fill.start: recognized has no effect with gesture.minimumDuration 0", absent: ["s.csv"]),
        Hostile("a sweep through minimumDuration 0 drops what it makes moot", ["sweep", "--profile", "kikocard-accelerating", "--vary",
                                                                              "gesture.minimumDuration=0,0.5", "--users", "100", "--out", "s.csv"], 0, "",
                present: ["s.csv"]),
        // A YAML file where a CSV goes: its first line was read as the one column ("the columns are: version: 2").
        Hostile("fit of a population file", ["fit", "--data", "p.yaml", "--column", "hold_ms", "--bootstrap", "0"], 65,
                "p.yaml: this is a YAML file (its first line is 'version: 2'), not a CSV",
                files: ["p.yaml": .text("version: 2\nname: p\ndescription: x\nclasses: []\n")]),
        Hostile("sweep --design of a profile", ["sweep", "--design", "./h.yaml", "--users", "100", "--out", "s.csv"], 65,
                "h.yaml: this is a YAML file (its first line is 'version: 1'), not a CSV",
                files: ["h.yaml": .text("version: 1\nname: h\ndescription: x\ngesture: {minimumDuration: 1, maximumDistance: 10}\n")],
                absent: ["s.csv"]),
        Hostile("sweep --design of a YAML file of one-field lines", ["sweep", "--design", "./h.yaml", "--users", "100", "--out", "s.csv"], 65,
                "h.yaml: this is a YAML file (its first line is 'version: 1'), not a CSV",
                files: ["h.yaml": .text("version: 1\nname: x\n")], absent: ["s.csv"]),
        Hostile("plot of a profile", ["plot", "heatmap", "--data", "h.yaml", "--out", "f.png"], 65,
                "h.yaml: this is a YAML file (its first line is 'version: 1'), not a CSV",
                files: ["h.yaml": .text("# a profile\nversion: 1\nname: h\ndescription: x\n")], absent: ["f.png"]),
        Hostile("fit-curve of a profile", ["fit-curve", "--data", "h.yaml", "--x", "a", "--y", "b"], 65,
                "h.yaml: this is a YAML file (its first line is 'version: 1'), not a CSV",
                files: ["h.yaml": .text("version: 1\nname: h\ndescription: x\n")]),
        Hostile("fit --telemetry of a profile", ["fit", "--telemetry", "h.yaml", "--base-population", "default"], 65,
                "h.yaml: this is a YAML file (its first line is 'version: 1'), not a CSV",
                files: ["h.yaml": .text("version: 1\nname: h\ndescription: x\n")]),
        Hostile("a population given as a profile is named a population", ["simulate", "--profile", "p.yaml", "--users", "100",
                                                                           "--out", "s.csv"], 65,
                "error: p.yaml:1:1: this is a population file (it has classes:), not a profile; give it with --population p.yaml",
                files: ["p.yaml": .text("version: 2\nname: p\ndescription: x\nclasses:\n  - {name: a, weight: 1, intent: confirm, behavior: hold, hold: {dist: constant, value: 1}}\n")],
                absent: ["s.csv"]),
        Hostile("a profile given as a population is named a profile", ["simulate", "--population", "h.yaml",
                                                                       "--users", "100", "--out", "s.csv"], 65,
                "error: h.yaml:1:1: this is a profile (gesture:, fill:), not a population; give it with --profile h.yaml",
                files: ["h.yaml": .text("version: 1\nname: h\ndescription: x\ngesture: {minimumDuration: 1}\nfill: {curve: easeIn}\n")],
                absent: ["s.csv"]),
        Hostile("a review file given to profiles show is named a review", ["profiles", "show", "r.yaml"], 65,
                "error: r.yaml:1:1: this is a review file (profiles:, variants:), not a profile; run it with holdlab report --review r.yaml",
                files: ["r.yaml": .text("profiles: [hig-linear-bar]\nvariants:\n  a: {fill.curve: easeIn}\n")]),
        Hostile("a profile given as a review is named a profile, once", ["report", "--review", "h.yaml", "--out", "o"], 65,
                "error: h.yaml:1:1: this is a profile (gesture:, fill:), not a review; give it with --profile h.yaml",
                files: ["h.yaml": .text("version: 1\nname: h\ndescription: x\ngesture: {minimumDuration: 1}\nfill: {curve: easeIn}\n")],
                absent: ["o"]),
        Hostile("a CSV given as a population is named a CSV", ["simulate", "--population", "./a.csv", "--users", "100",
                                                               "--out", "s.csv"], 65,
                "error: ./a.csv:1:1: this is a CSV file (holdlab's output), not a population: a population is a YAML mapping (docs/POPULATIONS.md)",
                before: [["simulate", "--users", "100", "--out", "a.csv"]], absent: ["s.csv"]),
        Hostile("a CSV given as a profile by its bare name: the file is named, and how to read it", ["simulate", "--profile", "a.csv",
                                                                                                   "--users", "100", "--out", "s.csv"], 66,
                "; a file a.csv is here, but a name without '/' or .yaml is looked up in the library: give ./a.csv to read it as a profile file",
                before: [["simulate", "--users", "100", "--out", "a.csv"]], absent: ["s.csv"]),
        Hostile("profiles check of a CSV says it is a CSV", ["profiles", "check", "./a.csv"], 65,
                "error: ./a.csv:1:1: this is a CSV file (holdlab's output), not a profile", before: [["simulate", "--users", "100", "--out", "a.csv"]]),
        Hostile("a CSV given as a profile by its path is named a CSV", ["simulate", "--profile", "./a.csv", "--users", "100",
                                                                         "--out", "s.csv"], 65,
                "error: ./a.csv:1:1: this is a CSV file (holdlab's output), not a profile", before: [["simulate", "--users", "100", "--out", "a.csv"]],
                absent: ["s.csv"]),
        Hostile("profiles check: an instant retract with a duration", ["profiles", "check", "t.yaml"], 65,
                "t.yaml:4:36: retract.duration: has no effect on an instant retract (mode: instant)",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\nretract: {mode: instant, duration: 0.5}\n")]),
        Hostile("profiles check: a reverse retract with a curve", ["profiles", "check", "t.yaml"], 65,
                "t.yaml:4:33: retract.curve: has no effect on a reverse retract (mode: reverse), which plays the fill backwards over its duration; it is for mode animation",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: x\nretract: {mode: reverse, curve: easeIn}\n")]),
        Hostile("sweep --vary retract.curve of an instant retract", ["sweep", "--profile", "kikocard-accelerating", "--vary",
                                                                      "retract.curve=easeIn,easeOut", "--users", "100"], 64,
                "point 1 (retract.curve=easeIn): retract.curve: has no effect on an instant retract"),
        Hostile("--set retract.mode=instant leaves the file's retract curve moot", ["trace", "--profile", "android-rmholdbutton",
                                                                                  "--set", "retract.mode=instant", "--out", "t.csv"], 0, ""),
        Hostile("--set of a Timer key on an animated fill", ["trace", "--profile", "hig-linear-bar", "--set", "fill.timer.tick=0.016"], 64,
                "error: --set fill.timer.tick=0.016: fill.timer: is for fill.model timer"),
        Hostile("simulate: a shared --set that one of two profiles cannot take names that profile",
                ["simulate", "--profile", "kikocard-article-latency", "--profile", "hig-linear-bar", "--set",
                 "fill.timer.tick=0.016", "--users", "100", "--out", "s.csv"], 64,
                "error: --set fill.timer.tick=0.016: fill.timer: is for fill.model timer; an animation takes its pace from duration and curve (in profile hig-linear-bar; the --set applies to each of the 2 profiles)",
                absent: ["s.csv"]),
        Hostile("compare: a shared --set that one of three profiles cannot take names that profile",
                ["compare", "--profile", "hig-linear-bar", "--profile", "hig-linear-ring", "--profile",
                 "kikocard-article-latency", "--set", "fill.curve=easeIn", "--users", "100"], 64,
                "error: --set fill.curve=easeIn: fill.curve: has no effect on a Timer fill, whose progress follows its ticks (fill.timer); it is for fill.model animation (in profile kikocard-article-latency; the --set applies to each of the 3 profiles)"),
        Hostile("check: a shared --set that one of two profiles cannot take names that profile",
                ["check", "--profile", "hig-linear-bar", "--profile", "kikocard-accelerating", "--set", "fill.duration=0.5"], 64,
                "(in profile kikocard-accelerating; the --set applies to each of the 2 profiles)"),
        Hostile("sweep --vary fill.duration of a Timer fill: refused at its first point, not rows that never move",
                ["sweep", "--profile", "kikocard-accelerating", "--vary", "fill.duration=0.5,1,2", "--users", "100", "--out", "s.csv"], 64,
                "point 1 (fill.duration=0.5): fill.duration: has no effect on a Timer fill", absent: ["s.csv"]),
        Hostile("a --set that changes the model leaves the file's keys of the old one moot",
                ["trace", "--profile", "kikocard-accelerating", "--set", "fill.model=animation", "--out", "t.csv"], 0, ""),
        Hostile("... but not a --set of the old model's keys beside it",
                ["trace", "--profile", "kikocard-accelerating", "--set", "fill.model=animation", "--set", "fill.timer.duration=2",
                 "--out", "t.csv"], 64, "error: --set fill.model=animation --set fill.timer.duration=2: fill.timer: is for fill.model timer",
                absent: ["t.csv"]),
        Hostile("profiles check: a --set that one of two files cannot take names that file",
                ["profiles", "check", "hig-linear-bar", "static-long-press", "--set", "fill.delay=0.2"], 64,
                "error: --set fill.delay=0.2: fill.delay: has no effect: fill.model none draws no fill (in static-long-press; one of the 2 files checked)"),
        Hostile("profiles check: a review's set that one of its two profiles cannot take names that profile",
                ["profiles", "check", "r.yaml"], 65,
                "error: r.yaml:3:15: set.fill.delay: has no effect: fill.model none draws no fill (in profile static-long-press; the set applies to each of the 2 profiles)",
                files: ["r.yaml": .text("profiles: [hig-linear-bar, static-long-press]\nset:\n  fill.delay: 0.2\n")]),
        Hostile("report --review: a set beside a variant that makes it moot names the variant",
                ["report", "--review", "r.yaml", "--out", "o"], 65,
                "error: r.yaml:3:18: set.fill.duration: with variants.springy fill.curve=\"spring(0.3, 0)\": a spring fill takes its pace from its curve",
                files: ["r.yaml": .text("profiles: [hig-linear-bar]\nset:\n  fill.duration: 0.8\nvariants:\n  springy: {fill.curve: \"spring(0.3, 0)\"}\n")],
                absent: ["o"]),
        Hostile("profiles check: of two variants writing the same value, the one refused is named",
                ["profiles", "check", "r.yaml"], 65,
                "error: r.yaml:4:52: variants.b.fill.duration: with fill.curve=\"spring(0.3, 0)\": a spring fill",
                files: ["r.yaml": .text("profiles: [hig-linear-bar]\nvariants:\n  a: {fill.curve: \"spring(0.3, 0)\"}\n  b: {fill.curve: \"spring(0.3, 0)\", fill.duration: 0.8}\n")]),
        Hostile("a --set that mends one of a file's two problems leaves the other the file's (65 at its line)",
                ["simulate", "--profile", "t.yaml", "--set", "gesture.maximumDistance=10", "--users", "100", "--out", "s.csv"], 65,
                "error: t.yaml:9:10: retract.curve: has no effect on an instant retract",
                files: ["t.yaml": .text("version: 1\nname: t\ndescription: two problems\ngesture:\n  movementCancels: never\n  maximumDistance: 20\nretract:\n  mode: instant\n  curve: easeIn\n")],
                absent: ["s.csv"]),
        Hostile("report --sweep over a variant baseline names the variant's value at fault, not a --set",
                ["report", "--profile", "hig-linear-bar", "--variant", "fast=fill.duration=0.6 gesture.minimumDuration=0.8",
                 "--baseline", "fast", "--sweep", "fill.curve=easeIn,spring(0.3,0)", "--users", "100", "--out", "o"], 64,
                "error: --sweep fill.curve=easeIn,spring(0.3,0): point 2 (fill.curve=spring(0.3,0)): --variant fast fill.duration=0.6: fill.duration: a spring fill",
                absent: ["o"]),
        Hostile("profiles check: a review sweep names where the value at fault with it is written",
                ["profiles", "check", "r.yaml"], 65,
                "error: r.yaml:5:10: sweeps[0]: fill.curve=spring(0.3,0) with variants.fast fill.duration=0.6: fill.duration: a spring fill",
                files: ["r.yaml": .text("profiles: [hig-linear-bar]\nvariants:\n  fast: {fill.duration: 0.6, gesture.minimumDuration: 0.8}\nbaseline: fast\nsweeps: [\"fill.curve=easeIn,spring(0.3,0)\"]\n")]),
        Hostile("report --review: a --set at fault with a variant of the file names the variant where the file writes it",
                ["report", "--review", "r.yaml", "--set", "fill.delay=0.3", "--out", "o"], 64,
                "error: r.yaml:3:19: variants.a.fill.model: with --set fill.delay=0.3: fill.delay: has no effect: fill.model none draws no fill",
                files: ["r.yaml": .text("profiles: [hig-linear-bar]\nvariants:\n  a: {fill.model: none}\nusers: 100\n")], absent: ["o"]),
        // Whose a review's problem is, with the command line's --set: the file's (65) when the file alone has it at
        // the same key, the command line's (64) when only the --set makes it; `profiles check` says as report does.
        Hostile("report --review: a variant problem the file has without the --set is the file's, with the run's numbers",
                ["report", "--review", "r.yaml", "--set", "gesture.minimumDuration=0.6", "--out", "o"], 65,
                "error: r.yaml:3:25: variants.neg.trigger.offset: fires the action at 300 ms (minimumDuration + offset), before the gesture recognises at 600 ms",
                files: ["r.yaml": .text("profiles: [hig-linear-bar]\nvariants:\n  neg: {trigger.offset: -0.3}\nusers: 100\n")], absent: ["o"]),
        Hostile("profiles check REVIEW --set: a variant problem the file has without the --set is the file's",
                ["profiles", "check", "r.yaml", "--set", "gesture.minimumDuration=0.6"], 65,
                "error: r.yaml:3:25: variants.neg.trigger.offset: fires the action at 300 ms (minimumDuration + offset)",
                files: ["r.yaml": .text("profiles: [hig-linear-bar]\nvariants:\n  neg: {trigger.offset: -0.3}\nusers: 100\n")]),
        Hostile("report --review: a sweep only the --set breaks names the file's entry and the --set (64)",
                ["report", "--review", "s.yaml", "--set", "trigger.source=fill", "--out", "o"], 64,
                "error: s.yaml:5:10: sweeps[0]: point 1 (fill.duration=0.6): --set trigger.source=fill: trigger.offset: fires the action at 600 ms",
                files: ["s.yaml": .text("profiles: [hig-linear-bar]\nvariants:\n  a: {fill.curve: easeIn}\nusers: 100\nsweeps: [\"fill.duration=0.6,0.9\"]\n")],
                absent: ["o"]),
        Hostile("profiles check REVIEW --set: a sweep only the --set breaks is the command line's (64)",
                ["profiles", "check", "s.yaml", "--set", "trigger.source=fill"], 64,
                "error: s.yaml:5:10: sweeps[0]: fill.duration=0.6 with --set trigger.source=fill: trigger.offset: fires the action at 600 ms",
                files: ["s.yaml": .text("profiles: [hig-linear-bar]\nvariants:\n  a: {fill.curve: easeIn}\nusers: 100\nsweeps: [\"fill.duration=0.6,0.9\"]\n")]),
        Hostile("profiles check REVIEW --set: a --set that mends a variant leaves the review valid",
                ["profiles", "check", "rv.yaml", "--set", "gesture.minimumDuration=0.5"], 0,
                files: ["late.yaml": F.lateTrigger, "rv.yaml": F.shortVariantReview], stdout: "ok: rv.yaml (review)"),
        Hostile("profiles check REVIEW --set: a variant's problem the --set leaves is the file's, as report says",
                ["profiles", "check", "rv.yaml", "--set", "gesture.minimumDuration=0.75"], 65,
                "rv.yaml:4:26: variants.short.fill.duration: trigger.offset: fires the action at 600 ms (the fill's completion + offset), before the gesture recognises at 750 ms",
                files: ["late.yaml": F.lateTrigger, "rv.yaml": F.shortVariantReview]),
        Hostile("profiles check REVIEW --set: a --set at fault with a variant is the command line's, as report says",
                ["profiles", "check", "r.yaml", "--set", "fill.delay=0.3"], 64,
                "error: r.yaml:3:19: variants.a.fill.model: with --set fill.delay=0.3: fill.delay: has no effect: fill.model none draws no fill",
                files: ["r.yaml": .text("profiles: [hig-linear-bar]\nvariants:\n  a: {fill.model: none}\nusers: 100\n")]),
        Hostile("profiles check REVIEW --set: a review that writes set takes no --set, as report refuses it",
                ["profiles", "check", "t.yaml", "--set", "fill.curve=easeIn"], 64, "the review writes set, and report refuses --set beside it",
                files: ["t.yaml": .text("profiles: [hig-linear-bar]\nset:\n  fill.delay: 0.1\nusers: 100\n")]),
        Hostile("profiles check REVIEW --set: a --set of a variant's key is the command line's",
                ["profiles", "check", "u.yaml", "--set", "fill.curve=easeOut"], 64,
                "error: u.yaml:3:19: variants.a.fill.curve: fill.curve is also given by --set; give it in one place",
                files: ["u.yaml": .text("profiles: [hig-linear-bar]\nvariants:\n  a: {fill.curve: easeIn}\nusers: 100\n")]),
        Hostile("profiles check REVIEW --set: a --set no profile takes is said as it is",
                ["profiles", "check", "u.yaml", "--set", "fill.duration=abc"], 64,
                "error: --set fill.duration=abc: fill.duration: must be a number of seconds > 0 or match (got 'abc')",
                files: ["u.yaml": .text("profiles: [hig-linear-bar]\nvariants:\n  a: {fill.curve: easeIn}\nusers: 100\n")]),
        Hostile("report --review: a --set one of the file's two profiles refuses is the command line's (64)",
                ["report", "--review", "two.yaml", "--set", "fill.delay=0.2", "--out", "o"], 64,
                "error: --set fill.delay=0.2: fill.delay: has no effect: fill.model none draws no fill (in profile static-long-press; the --set applies to each of the 2 profiles)",
                files: ["two.yaml": .text("profiles: [hig-linear-bar, static-long-press]\nusers: 100\n")], absent: ["o"]),
        Hostile("report --review: a --set of a class the population lacks is the command line's (64)",
                ["report", "--review", "two.yaml", "--set", "population.hurried.share=2", "--out", "o"], 64,
                "error: --set population.hurried.share=2: no class 'hurried' in population default",
                files: ["two.yaml": .text("profiles: [hig-linear-bar, static-long-press]\nusers: 100\n")], absent: ["o"]),
        Hostile("report --review: a file that writes set is checked without the --set report refuses beside it",
                ["report", "--review", "t2.yaml", "--set", "gesture.minimumDuration=0.6", "--out", "o"], 65,
                "error: t2.yaml:5:25: variants.neg.trigger.offset: fires the action at 700 ms (minimumDuration + offset), before the gesture recognises at 1000 ms",
                files: ["t2.yaml": .text("profiles: [hig-linear-bar]\nset:\n  fill.delay: 0.1\nvariants:\n  neg: {trigger.offset: -0.3}\nusers: 100\n")],
                absent: ["o"]),
        // Over a profile invalid for another reason, a varied value its key does not take is said first, wherever it
        // stands in the list.
        Hostile("sweep over an invalid profile: a bad varied value second in the list is said",
                ["sweep", "--profile", "zero.yaml", "--vary", "haptics.threshold=0.1,abc", "--users", "50", "--out", "o.csv"], 64,
                "error: point 2 (haptics.threshold=abc): haptics.threshold: must be a progress step from 0 to 1",
                files: ["zero.yaml": .text("version: 1\nname: zero\ndescription: x\ngesture: {minimumDuration: 0}\n")], absent: ["o.csv"]),
        Hostile("sweep over an invalid profile: a bad varied value first in the list is said",
                ["sweep", "--profile", "zero.yaml", "--vary", "haptics.threshold=abc,0.1", "--users", "50", "--out", "o.csv"], 64,
                "error: point 1 (haptics.threshold=abc): haptics.threshold: must be a progress step from 0 to 1",
                files: ["zero.yaml": .text("version: 1\nname: zero\ndescription: x\ngesture: {minimumDuration: 0}\n")], absent: ["o.csv"]),
        Hostile("sweep over an invalid profile with good values says the file's problem at its line",
                ["sweep", "--profile", "zero.yaml", "--vary", "haptics.threshold=0.1,0.2", "--users", "50", "--out", "o.csv"], 65,
                "error: zero.yaml:4:28: gesture.minimumDuration: is 0 s",
                files: ["zero.yaml": .text("version: 1\nname: zero\ndescription: x\ngesture: {minimumDuration: 0}\n")], absent: ["o.csv"]),
        // The class of "who is blamed" across a study's values, whatever their order (outside probe, 2026-11-28).
        Hostile("sweep over a profile invalid alone: the file's problem whatever the values' order (match first)",
                ["sweep", "--profile", "trig.yaml", "--vary", "fill.duration=match,1.1", "--users", "50", "--dry-run"], 65,
                "error: trig.yaml:5:33: trigger.offset: fires the action at 700 ms", files: ["trig.yaml": .text("version: 1\nname: trig\ndescription: x\ngesture: {minimumDuration: 1.0}\ntrigger: {source: fill, offset: -0.3}\nfill: {model: animation, curve: linear, duration: match}\n")]),
        Hostile("sweep over a profile invalid alone: the file's problem whatever the values' order (1.1 first)",
                ["sweep", "--profile", "trig.yaml", "--vary", "fill.duration=1.1,match", "--users", "50", "--dry-run"], 65,
                "error: trig.yaml:5:33: trigger.offset: fires the action at 700 ms", files: ["trig.yaml": .text("version: 1\nname: trig\ndescription: x\ngesture: {minimumDuration: 1.0}\ntrigger: {source: fill, offset: -0.3}\nfill: {model: animation, curve: linear, duration: match}\n")]),
        Hostile("sweep over a valid profile: a value its key never takes is said after a value at fault with the file",
                ["sweep", "--profile", "trig2.yaml", "--vary", "fill.duration=1.0,abc", "--users", "50", "--dry-run"], 64,
                "error: point 2 (fill.duration=abc): fill.duration: must be a number of seconds > 0 or match (got 'abc')",
                files: ["trig2.yaml": .text("version: 1\nname: trig2\ndescription: x\ngesture: {minimumDuration: 1.0}\ntrigger: {source: fill, offset: -0.3}\nfill: {model: animation, curve: linear, duration: 1.5}\n")]),
        Hostile("tune over a profile invalid alone, --param partly beyond its key: the file's problem",
                ["tune", "--profile", "trig.yaml", "--param", "haptics.threshold=0:2", "--minimize", "completion_time_mean_ms",
                 "--users", "20", "--out", "t.csv"], 65, "error: trig.yaml:5:33: trigger.offset: fires the action at 700 ms",
                files: ["trig.yaml": .text("version: 1\nname: trig\ndescription: x\ngesture: {minimumDuration: 1.0}\ntrigger: {source: fill, offset: -0.3}\nfill: {model: animation, curve: linear, duration: match}\n")], absent: ["t.csv"]),
        Hostile("a --set of the value the file already has leaves the file's problem the file's",
                ["simulate", "--profile", "trig.yaml", "--set", "trigger.offset=-0.3", "--users", "50", "--out", "s.csv"], 65,
                "error: trig.yaml:5:33: trigger.offset: fires the action at 700 ms", files: ["trig.yaml": .text("version: 1\nname: trig\ndescription: x\ngesture: {minimumDuration: 1.0}\ntrigger: {source: fill, offset: -0.3}\nfill: {model: animation, curve: linear, duration: match}\n")], absent: ["s.csv"]),
        Hostile("a --set of another bad value for the file's bad key is the --set's",
                ["simulate", "--profile", "trig.yaml", "--set", "trigger.offset=-0.5", "--users", "50", "--out", "s.csv"], 64,
                "error: --set trigger.offset=-0.5: trigger.offset: fires the action at 500 ms", files: ["trig.yaml": .text("version: 1\nname: trig\ndescription: x\ngesture: {minimumDuration: 1.0}\ntrigger: {source: fill, offset: -0.3}\nfill: {model: animation, curve: linear, duration: match}\n")],
                absent: ["s.csv"]),
        Hostile("a --set of another value for a key without effect is the --set's",
                ["simulate", "--profile", "b.yaml", "--set", "fill.delay=0.3", "--users", "20", "--out", "s.csv"], 64,
                "error: --set fill.delay=0.3: fill.delay: has no effect: fill.model none draws no fill", files: ["b.yaml": .text("version: 1\nname: b\ndescription: x\nfill: {model: none, delay: 0.2}\n")],
                absent: ["s.csv"]),
        Hostile("a --set of the file's own value, however spelt, leaves a key without effect the file's",
                ["simulate", "--profile", "b.yaml", "--set", "fill.delay=0.20", "--users", "20", "--out", "s.csv"], 65,
                "error: b.yaml:4:28: fill.delay: has no effect: fill.model none draws no fill", files: ["b.yaml": .text("version: 1\nname: b\ndescription: x\nfill: {model: none, delay: 0.2}\n")],
                absent: ["s.csv"]),
        Hostile("profiles check: a --set of the file's own bad value leaves it the file's, as simulate says",
                ["profiles", "check", "f.yaml", "--set", "haptics.threshold=2"], 65, "error: f.yaml:4:22: haptics.threshold: must be a progress step",
                files: ["f.yaml": .text("version: 1\nname: f\ndescription: x\nhaptics: {threshold: 2}\n")]),
        Hostile("report --review: a --set of another bad value for a profile's bad key is the --set's (64)",
                ["report", "--review", "r10.yaml", "--set", "haptics.threshold=3", "--out", "o"], 64,
                "error: --set haptics.threshold=3: haptics.threshold: must be a progress step from 0 to 1 (0 = no progress pulses) (got '3')",
                files: ["f.yaml": .text("version: 1\nname: f\ndescription: x\nhaptics: {threshold: 2}\n"), "r10.yaml": .text("question: p\nprofiles: [f.yaml]\nvariants:\n  a: {haptics.onComplete: true}\npopulations: [default]\nusers: 50\n")], absent: ["o"]),
        Hostile("profiles check REVIEW: a --set of another bad value for a profile's bad key is the --set's (64)",
                ["profiles", "check", "r10.yaml", "--set", "haptics.threshold=3"], 64,
                "error: --set haptics.threshold=3: haptics.threshold: must be a progress step", files: ["f.yaml": .text("version: 1\nname: f\ndescription: x\nhaptics: {threshold: 2}\n"), "r10.yaml": .text("question: p\nprofiles: [f.yaml]\nvariants:\n  a: {haptics.onComplete: true}\npopulations: [default]\nusers: 50\n")]),
        Hostile("a --set inside a section the --set model makes moot is refused",
                ["simulate", "--profile", "kikocard-accelerating", "--set", "fill.model=animation", "--set", "fill.timer.tick=0.02",
                 "--users", "50", "--out", "s.csv"], 64, "fill.timer: is for fill.model timer", absent: ["s.csv"]),
        Hostile("profiles check: a review sweep lists a value its key never takes wherever it stands",
                ["profiles", "check", "s.yaml"], 65, "error: s.yaml:5:10: sweeps[0]: fill.duration=abc: fill.duration: must be a number",
                files: ["trig2.yaml": .text("version: 1\nname: trig2\ndescription: x\ngesture: {minimumDuration: 1.0}\ntrigger: {source: fill, offset: -0.3}\nfill: {model: animation, curve: linear, duration: 1.5}\n"),
                        "s.yaml": .text("profiles: [trig2.yaml]\nvariants:\n  v: {haptics.onComplete: true}\nusers: 100\nsweeps: [\"fill.duration=1.0,abc\"]\n")]),
        Hostile("profiles check: a review sweep names a variant baseline's values where the file writes them",
                ["profiles", "check", "r.yaml"], 65,
                "error: r.yaml:5:10: sweeps[0]: fill.duration=1.0 with variants.v trigger.source=fill, variants.v trigger.offset=-0.3: trigger.offset",
                files: ["r.yaml": .text("profiles: [hig-linear-bar]\nvariants:\n  v: {trigger.source: fill, trigger.offset: -0.3, fill.duration: 1.5}\nbaseline: v\nsweeps: [\"fill.duration=1.5,1.0\"]\n")]),
        Hostile("report --review: a sweep names a variant baseline's values where the file writes them",
                ["report", "--review", "r.yaml", "--set", "gesture.minimumDuration=1.1", "--out", "o"], 64,
                "point 2 (fill.duration=1.3): --set gesture.minimumDuration=1.1: variants.v trigger.source=fill: variants.v trigger.offset=-0.3: trigger.offset",
                files: ["r.yaml": .text("profiles: [hig-linear-bar]\nvariants:\n  v: {trigger.source: fill, trigger.offset: -0.3, fill.duration: 1.5}\nbaseline: v\nusers: 100\nsweeps: [\"fill.duration=1.5,1.3\"]\n")],
                absent: ["o"]),
        Hostile("report --sweep over a variant baseline names its values as the variant's",
                ["report", "--profile", "hig-linear-bar", "--variant", "v=trigger.source=fill trigger.offset=-0.3 fill.duration=1.5",
                 "--baseline", "v", "--sweep", "fill.duration=1.5,1.0", "--users", "100", "--out", "o"], 64,
                "point 2 (fill.duration=1.0): --variant v trigger.source=fill: --variant v trigger.offset=-0.3: trigger.offset", absent: ["o"]),
        Hostile("a population --set naming a population that does not run says so, not as a class",
                ["simulate", "--population", "default,motor-impaired", "--set", "population.hurried.deliberate.reaction.mu=0.2",
                 "--users", "10", "--out", "s.csv"], 64,
                "error: --set population.hurried.deliberate.reaction.mu=0.2: 'hurried' is neither a population that runs here (default, motor-impaired) nor a class of one",
                absent: ["s.csv"]),
        // The second outside probe of 0.3.14: a whole class's value, or a running population named with no class or
        // an unknown one, was said to name "neither a population that runs here (default, motor-impaired) nor a class".
        Hostile("a population --set of a whole class of a running population asks for a value in it",
                ["simulate", "--population", "default,motor-impaired", "--set", "population.motor-impaired.deliberate={reaction: 1}",
                 "--users", "10", "--out", "s.csv"], 64,
                "error: --set population.motor-impaired.deliberate={reaction: 1}: name a value of class deliberate, e.g. population.motor-impaired.deliberate.weight=0.5",
                absent: ["s.csv"]),
        Hostile("a population --set of a running population without a class names its classes",
                ["simulate", "--population", "default,motor-impaired", "--set", "population.motor-impaired.deliberat=2",
                 "--users", "10", "--out", "s.csv"], 64,
                "error: --set population.motor-impaired.deliberat=2: no class 'deliberat' in population motor-impaired (did you mean 'deliberate'?); classes: deliberate,",
                absent: ["s.csv"]),
        Hostile("a population --set of a class among several populations asks which",
                ["simulate", "--population", "default,motor-impaired", "--set", "population.deliberate.reaction.mu=0.2",
                 "--users", "10", "--out", "s.csv"], 64, "name one, population.NAME.deliberate.reaction.mu", absent: ["s.csv"]),
        Hostile("preview: a shared --set that one of two profiles cannot take names that profile",
                ["preview", "--profile", "hig-linear-bar", "--profile", "static-long-press", "--set", "fill.delay=0.3",
                 "--out", "p.gif", "--no-mp4"], 64,
                "error: --set fill.delay=0.3: fill.delay: has no effect: fill.model none draws no fill (in profile static-long-press; the --set applies to each of the 2 profiles)",
                absent: ["p.gif"]),
        Hostile("simulate: a --set every profile refuses alike names none of them",
                ["simulate", "--profile", "kikocard-accelerating", "--profile", "kikocard-article-latency", "--set",
                 "fill.curve=easeIn", "--users", "100", "--out", "s.csv"], 64,
                "error: --set fill.curve=easeIn: fill.curve: has no effect on a Timer fill, whose progress follows its ticks (fill.timer); it is for fill.model animation\n",
                absent: ["s.csv"]),
        Hostile("profiles check: a review problem of a variant and a set is reported at the key it is about",
                ["profiles", "check", "r.yaml"], 65,
                "error: r.yaml:5:18: set.fill.duration: with variants.springy fill.curve=\"spring(0.3, 0)\": a spring fill",
                files: ["r.yaml": .text("profiles: [hig-linear-bar]\nvariants:\n  springy: {fill.curve: \"spring(0.3, 0)\"}\nset:\n  fill.duration: 0.8\n")]),
        Hostile("profiles check: a --set every file refuses alike is said once, naming none",
                ["profiles", "check", "kikocard-accelerating", "kikocard-article-latency", "--set", "fill.curve=easeIn"], 64,
                "error: --set fill.curve=easeIn: fill.curve: has no effect on a Timer fill, whose progress follows its ticks (fill.timer); it is for fill.model animation\n"),
        Hostile("report with one design says a comparison, not compare", ["report", "--profile", "hig-linear-bar", "--out", "o"], 64,
                "error: a comparison needs at least two designs", absent: ["o"]),
        Hostile("profiles check: a review variant of minimumDuration 0", ["profiles", "check", "r.yaml"], 65,
                "error: r.yaml:3:36: variants.quick.gesture.minimumDuration: fill.duration: \(match)",
                files: ["r.yaml": .text("profiles: [hig-linear-bar]\nvariants:\n  quick: {gesture.minimumDuration: 0}\n")]),
        Hostile("tune: a --param curve range of numbers", ["tune", "--param", "fill.curve=1:2", "--minimize", "completion_rate"] + quick, 64,
                "error: no candidate in the --param ranges is a valid profile; for example fill.curve="),
        Hostile("tune: a negative --param minimumDuration range", ["tune", "--param", "gesture.minimumDuration=-5:-1", "--minimize", "completion_rate"] + quick, 64,
                "for example gesture.minimumDuration=-1.2: gesture.minimumDuration: must be a number of seconds ≥ 0"),
        Hostile("tune: a --param refresh-rate range below 1", ["tune", "--param", "display.refreshRate=0:0.5", "--minimize", "completion_rate"] + quick, 64,
                "display.refreshRate: must be frames per second from 1 to 1000"),
        Hostile("tune: a --param offset range before touch-down", ["tune", "--param", "trigger.offset=-5:-2", "--minimize", "completion_rate"] + quick, 64,
                "trigger.offset: fires the action at minimumDuration + trigger.offset"),
        Hostile("tune: two --param ranges with no valid profile",
                ["tune", "--param", "gesture.minimumDuration=-5:-1", "--param", "display.refreshRate=0:0.5", "--minimize", "completion_rate"] + quick, 64,
                "error: no candidate in the --param ranges is a valid profile; for example gesture.minimumDuration="),
    ]

    /// Found from outside in the tenth round: exit statuses, outputs, read-back rows, messages.
    static let tenthRound: [Hostile] = [
        Hostile("report with a gnuplot that fails on its own figures: 71, not 65", ["report", "--profile", "hig-linear-bar", "--profile", "kikocard-accelerating", "--users", "100", "--out", "rev"], 71,
                "gnuplot on", files: ["bin/gnuplot": .executable(failing)], environment: ["PATH": "bin:/usr/bin:/bin"],
                absent: ["rev"]),
        Hostile("fit with a directory as standard input: 66", ["fit", "-", "--column", "x"], 66, "standard input: is a directory",
                files: ["d": .directory], redirect: "<d"),
        Hostile("fit-curve with a directory as standard input: 66", ["fit-curve", "--data", "-", "--x", "a", "--y", "b"], 66,
                "standard input: is a directory", files: ["d": .directory], redirect: "<d"),
        Hostile("compare --per-user - with --out FILE writes the users to standard output",
                ["compare", "--profile", "hig-linear-bar", "--variant", "fast=fill.duration=0.6", "--users", "50", "--per-user", "-", "--out", "c.csv"], 0,
                stdout: "press_end_ms", present: ["c.csv"]),
        Hostile("compare: two outputs to standard output", ["compare", "--profile", "hig-linear-bar", "--variant", "fast=fill.duration=0.6",
                                                              "--users", "50", "--per-user", "-", "--summaries", "-", "--out", "c.csv"], 64,
                "--summaries and --per-user would all write to standard output", absent: ["c.csv"]),
        Hostile("compare --summaries - beside the differences on standard output", ["compare", "--profile", "hig-linear-bar", "--variant", "fast=fill.duration=0.6",
                                                                                  "--users", "50", "--summaries", "-"], 64,
                "--out and --summaries would all write to standard output, which carries the differences without --out FILE"),
        Hostile("compare: intervals of a mean of one value are noted", ["compare", "--profile", "hig-linear-bar", "--variant", "fast=fill.duration=0.6 gesture.minimumDuration=0.3",
                                                                        "--users", "1", "--out", "c.csv"], 0,
                "intervals are written as NaN where a design or the baseline has the value for only one person", present: ["c.csv"]),
        Hostile("trace --release-at beyond 120 s names no other command", ["trace", "--release-at", "300"], 64,
                "--release-at must be a number of seconds from 0 to 120 (got 300.0)."),
        Hostile("a --profiles-dir that does not exist is named", ["simulate", "--profiles-dir", "nowhere", "--users", "10"], 66,
                "in nowhere: that folder does not exist"),
        Hostile("a --profiles-dir that is a file is named", ["simulate", "--profiles-dir", "f", "--users", "10"], 66,
                "in f: that is a file, not a folder", files: ["f": .text("x\n")]),
        Hostile("sweep --resume of a file another holdlab version wrote", sweepArguments + ["--out", "s.csv", "--resume"], 65,
                "was written by holdlab 0.0.1-", before: [sweepArguments + ["--out", "s.csv"]],
                tamper: [.replace(file: "s.csv", text: "# holdlab: ", with: "# holdlab: 0.0.1-")]),
        Hostile("sweep --resume of a row with a count no simulation writes", sweepArguments + ["--out", "s.csv", "--resume"], 65,
                "row 1 is not a row holdlab wrote: completed", before: [sweepArguments + ["--out", "s.csv"]],
                tamper: [.replace(file: "s.csv", text: ",default,40,1,35,29,", with: ",default,40,1,35,99,")]),
        Hostile("simulate --set name=…: a profile's name cannot be set", ["simulate", "--set", "name=other", "--users", "10"], 64,
                "--set name=other: a profile's name is how the library finds it"),
        Hostile("compare: a variant that sets the version", ["compare", "--variant", "v=version=2", "--users", "10"], 64,
                "version is the file's schema version; it cannot be set"),
        Hostile("simulate: the same profile twice", ["simulate", "--profile", "hig-linear-bar", "--profile", "hig-linear-bar", "--users", "10"], 64,
                "--profile hig-linear-bar is given twice"),
        Hostile("check: two files of one name", ["check", "--profile", "a.yaml", "--profile", "b.yaml", "--users", "100"], 64,
                "--profile a.yaml and --profile b.yaml are both named p",
                files: ["a.yaml": .text(F.profile), "b.yaml": .text(F.profile)]),
        Hostile("a description with a comma and asterisks is text, not an alias", ["profiles", "check", "p.yaml"], 0,
                files: ["p.yaml": F.profile(replacing: "description: ", with: "description: fill 1.0 s, *not* 0.8 s; Smith, Jones, &c. ")]),
        Hostile("preview: the same profile twice", ["preview", "--profile", "hig-linear-bar", "--profile", "hig-linear-bar", "--out", "p.gif"], 64,
                "--profile hig-linear-bar is given twice", absent: ["p.gif"]),
        Hostile("preview: a variant labelled as the profile", ["preview", "--variant", "hig-linear-bar=fill.duration=0.6", "--out", "p.gif"], 64,
                "--variant hig-linear-bar has the label of --profile hig-linear-bar", absent: ["p.gif"]),
        Hostile("plot with a directory as standard input: 66, no crash", ["plot", "design-rates", "--data", "-", "--out", "p.png"], 66,
                "standard input: is a directory", files: ["d": .directory], redirect: "<d", absent: ["p.png"]),
        Hostile("an anchor on a key is refused", ["profiles", "check", "p.yaml"], 65, "anchors and aliases (&k, *k)",
                files: ["p.yaml": F.profile(replacing: "gesture:", with: "&k gesture:")]),
        Hostile("sweep --resume of a row whose count is NaN", sweepArguments + ["--out", "s.csv", "--resume"], 65,
                "row 1 is not a row holdlab wrote: intent_users 'NaN' is not a count", before: [sweepArguments + ["--out", "s.csv"]],
                tamper: [.replace(file: "s.csv", text: ",default,40,1,35,29,", with: ",default,40,1,NaN,29,")]),
        Hostile("merge: a sweep shard row with a negative hold time", ["merge", "w1.csv", "w2.csv"], 65,
                "w1.csv: row 1: hold_time_p50_ms -5 is negative", before: sweepShards,
                tamper: [.shardColumn(file: "w1.csv", column: "hold_time_p50_ms", value: "-5")]),
        Hostile("tune --format json --columns of the trajectory keeps the block key",
                ["tune", "--param", "gesture.minimumDuration=0.6:1.2", "--minimize", "gesture.minimumDuration", "--users", "200",
                 "--format", "json", "--columns", "evaluation"], 0, stdout: "{\"block\":0,\"evaluation\":"),
        Hostile("report with a --profiles-dir that does not exist names the folder", ["report", "--variant", "f=fill.duration=0.6",
                                                                                   "--profiles-dir", "nowhere", "--users", "50", "--out", "r"], 66,
                "hig-linear-bar: no profile of that name in nowhere: that folder does not exist", absent: ["r"]),
        Hostile("report with an unknown population lists the known ones", ["report", "--variant", "f=fill.duration=0.6",
                                                                         "--population", "nobody", "--users", "50", "--out", "r"], 66,
                "nobody: no population of that name in ", absent: ["r"]),
        Hostile("merge: a sweep shard whose varied value was changed and resealed", ["merge", "w1.csv", "w2.csv", "--out", "m.csv"], 65,
                "the varied values of the shards' rows are not the points of their plan", before: sweepShards,
                tamper: [.shardColumn(file: "w1.csv", column: "param_fill_duration", value: "0.7")], absent: ["m.csv"]),
        Hostile("merge: a Σy² beyond the count times the largest value's square", merge, 65,
                "the sum of squares of completion_time is above its count times its largest square", before: shards,
                tamper: [.shardColumn(file: "s1.csv", column: "completion_time_squares_us2", value: "1" + String(repeating: "0", count: 37))]),
        Hostile("merge: a pulse count's Σy² beyond the count times the largest count's square", merge, 65,
                "the sum of squares of pulses is above its count times its largest square", before: shards,
                tamper: [.shardColumn(file: "s2.csv", column: "pulses_squares", value: "1000000000000")]),
        Hostile("fit --emit-population café.yaml: the population is named café and the library loads it by that name",
                ["simulate", "--profiles-dir", "lib", "--profile", "p", "--users", "50", "--out", "s.csv"], 0,
                files: ["d.csv": .text("t\n" + (1...40).map { "\(0.5 + Double($0) / 40)" }.joined(separator: "\n") + "\n"),
                        "lib/p.yaml": F.profile(replacing: "population: default", with: "population: café"),
                        "lib/populations": .directory],
                before: [["fit", "--data", "d.csv", "--column", "t", "--bootstrap", "0", "--out", "f.csv",
                          "--emit-population", "lib/populations/café.yaml"]],
                present: ["s.csv", "lib/populations/café.yaml"]),
        Hostile("fit reads a number of 200 digits as strtod does", ["fit", "--data", "d.csv", "--column", "t", "--bootstrap", "0", "--out", "f.csv"], 0,
                files: ["d.csv": .text("t\n" + (1...20).map { "0.\($0)" }.joined(separator: "\n") + "\n1." + String(repeating: "0", count: 200) + "\n")],
                present: ["f.csv"]),
        Hostile("a cell of 3,000 characters is quoted by its start and length", ["fit", "--data", "d.csv", "--column", "t"], 65,
                "d.csv:2: t: '" + String(repeating: "x", count: 60) + "…' (3000 characters) is not a number",
                files: ["d.csv": .text("t\n" + String(repeating: "x", count: 3000) + "\n")]),
        Hostile("a --set value of 120,000 characters is cut in its message", ["simulate", "--set", "fill.curve=" + String(repeating: "y", count: 120_000),
                                                                              "--users", "10", "--out", "s.csv"], 64,
                "…yyyyyyyyy: (120012 characters) fill.curve: timing curve 'yyyy", absent: ["s.csv"]),
        Hostile("a YAML value of a megabyte is cut in its message", ["profiles", "check", "p.yaml"], 65,
                "(1000003 characters) not recognised",
                files: ["p.yaml": F.profile(replacing: "curve: linear", with: "curve: " + String(repeating: "x", count: 1_000_000))]),
        Hostile("fit --emit-population -.yaml: '-' names standard input, not that file", ["fit", "--data", "d.csv", "--column", "t",
                                                                                           "--emit-population", "./-.yaml"], 64,
                "(not - alone, which names standard input)", files: ["d.csv": .text("t\n1\n2\n3\n")], absent: ["-.yaml"]),
    ]

    static let all: [Hostile] = outputPaths + streams + sameFile + usage + profiles + data + signals
        + gnuplotNames + children + hostileShards + encodings + jsonTypes + standardInput + figures + reviewFiles + crossField
        + tenthRound
}

extension Fixture {
    func replacingText(_ old: String, with new: String) -> Fixture {
        guard case .text(let text) = self else { return self }
        return .text(text.replacingOccurrences(of: old, with: new))
    }
}

@Suite("Hostile inputs and faults: the status and message of the policy, no crash, nothing half-written")
struct HostileInputTests {
    @Test("the table has at least 120 cases with distinct names")
    func size() {
        #expect(HostileCases.all.count >= 120)
        #expect(Set(HostileCases.all.map(\.name)).count == HostileCases.all.count)
    }

    @Test(arguments: HostileCases.all)
    func hostile(_ hostile: Hostile) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (path, fixture) in hostile.files.sorted(by: { $0.key < $1.key }) {
            let url = directory.appendingPathComponent(path)
            // A fixture's folders are made for it (`lib/populations/x.yaml`).
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            switch fixture {
            case .text(let text): try Data(text.utf8).write(to: url)
            case .bytes(let bytes): try Data(bytes).write(to: url)
            case .directory: try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            case .symlink(let target): try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
            case .executable(let text):
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
                chmod(url.path, 0o755)
            }
        }
        if !hostile.before.isEmpty {
            // The cases that share a setup (shards of one simulation, of one sweep) share what it wrote: it is run
            // once, by the first case to need it, and its files are copied for the others.
            let key = "\(hostile.before)|\(hostile.files.sorted { $0.key < $1.key })"
            let written = try BeforeFiles.shared.files(for: key, except: Set(hostile.files.keys)) {
                for arguments in hostile.before {
                    let prepared = try Self.run(Hostile("", arguments, 0), in: directory)
                    try #require(prepared.status == 0, "before \(arguments): \(prepared.stderr)")
                }
                return directory
            }
            for (path, data) in written {
                let url = directory.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: url)
            }
        }
        for change in hostile.tamper { try Self.apply(change, in: directory) }
        let result = try Self.run(hostile, in: directory)
        let context = "\(hostile.arguments) \(hostile.redirect): status \(result.status), stderr: \(result.stderr)"
        #expect(result.status == hostile.status, "\(context)")
        if !hostile.message.isEmpty && !hostile.redirect.contains("2>&-") {
            #expect(result.stderr.contains(hostile.message), "\(context)")
        }
        if let stdout = hostile.stdout { #expect(result.stdout.contains(stdout), "\(context)") }
        if hostile.validJSON {
            let lines = result.stdout.split(separator: "\n")
            #expect(!lines.isEmpty, "\(context)")
            for line in lines {
                #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
            }
        }
        for marker in ["Fatal error", "Program crashed", "Backtrac", "gsl_", "GSL status", "Illegal instruction"] {
            #expect(!result.stderr.contains(marker), "\(context)")
        }
        if hostile.status == 141 { #expect(result.stderr.isEmpty, "\(context)") }
        if hostile.status != 0 && hostile.status < 100 {
            // One error line, plus at most a "see 'holdlab help …'" line (notebooks print their one line themselves).
            let lines = result.stderr.split(separator: "\n").filter { !$0.hasPrefix("holdlab: note") }
            #expect(lines.count <= 2, "\(context)")
            #expect(lines.filter { $0.hasPrefix("holdlab: error:") }.count <= 1, "\(context)")
        }
        let left = FileManager.default.enumerator(atPath: directory.path)?.allObjects.compactMap { $0 as? String } ?? []
        #expect(!left.contains { $0.contains(".partial") || $0.contains(".tmp") || $0.hasSuffix(".plot") || $0.contains(".preview")
            || $0.contains(".frame-") || $0.hasSuffix(".previous") }, "temporaries left: \(left)")
        for path in hostile.unchanged {
            guard case .text(let text) = hostile.files[path] else { continue }
            #expect((try? String(contentsOf: directory.appendingPathComponent(path), encoding: .utf8)) == text, "\(path) changed")
        }
        for path in hostile.absent {
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(path).path), "\(path) exists")
        }
        for path in hostile.present {
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(path).path), "\(path) missing")
        }
    }

    /// Makes a `Tamper` change.
    static func apply(_ change: Tamper, in directory: URL) throws {
        switch change {
        case .shardColumn(let file, let column, let value):
            let url = directory.appendingPathComponent(file)
            var lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            lines.removeLast()  // after the final newline
            lines.removeLast()  // the old seal
            let header = try #require(lines.firstIndex { !$0.hasPrefix("#") })
            let names = lines[header].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let index = try #require(names.firstIndex(of: column), "no column \(column)")
            for row in (header + 1)..<lines.count where !lines[row].hasPrefix("#") {
                var fields = lines[row].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                fields[index] = value
                lines[row] = fields.joined(separator: ",")
            }
            let content = lines.joined(separator: "\n") + "\n"
            let rows = lines.count - header - 1
            try (content + "# shard_end: \(rows) rows fnv1a64:\(testFNV1a64(content))\n").write(to: url, atomically: true, encoding: .utf8)
        case .bomAndCRLF(let file):
            let url = directory.appendingPathComponent(file)
            let text = try String(contentsOf: url, encoding: .utf8)
            try Data(([0xEF, 0xBB, 0xBF] as [UInt8]) + Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)).write(to: url)
        case .replace(let file, let text, let replacement):
            let url = directory.appendingPathComponent(file)
            let old = try String(contentsOf: url, encoding: .utf8)
            let range = try #require(old.range(of: text), "\(file) has no '\(text)'")
            try Data(old.replacingCharacters(in: range, with: replacement).utf8).write(to: url)
        case .remove(let file):
            try FileManager.default.removeItem(at: directory.appendingPathComponent(file))
        case .empty(let file):
            try Data().write(to: directory.appendingPathComponent(file))
        }
    }

    /// Runs the case: directly, through /bin/sh for redirections and memory caps, or with a broken pipe. A process
    /// ended by a signal reports 1000 + the signal.
    static func run(_ hostile: Hostile, in directory: URL) throws -> CLI.Result {
        let executable = try CLI.executable.path
        let direct = hostile.redirect.isEmpty && hostile.memoryKiB == nil
        let limit = hostile.memoryKiB.map { "ulimit -v \($0); " } ?? ""
        let environment = [
            "HOLDLAB_PROFILES": CLI.root.appendingPathComponent("Profiles").path,
            "HOLDLAB_NOTEBOOKS": CLI.root.appendingPathComponent("Notebooks").path,
        ].merging(hostile.environment) { $1 }
        let result = try runProcess(
            direct ? executable : "/bin/sh",
            direct ? hostile.arguments : ["-c", "\(limit)exec \"$0\" \"$@\" \(hostile.redirect)", executable] + hostile.arguments,
            in: directory, environment: environment, brokenPipe: hostile.brokenPipe)
        return CLI.Result(status: result.exited ? result.status : 1000 + result.status, stdout: result.stdout, stderr: result.stderr)
    }
}

/// The files the `before` commands of hostile cases wrote, kept per setup (its commands and the fixture files they
/// could read), so that each setup runs once however many cases tamper with its output.
final class BeforeFiles: @unchecked Sendable {
    static let shared = BeforeFiles()
    private let lock = NSLock()
    private var written: [String: [String: Data]] = [:]

    /// The files (by path relative to the case's folder) that `make` writes into the folder it returns, leaving out
    /// the fixture files (`except`); `make` runs only for a setup not seen before, under the lock, so cases that
    /// share it wait for the first.
    func files(for key: String, except fixtures: Set<String>, make: () throws -> URL) throws -> [String: Data] {
        lock.lock()
        defer { lock.unlock() }
        if let files = written[key] { return files }
        let directory = try make()
        var files: [String: Data] = [:]
        let paths = FileManager.default.enumerator(atPath: directory.path)?.allObjects.compactMap { $0 as? String } ?? []
        for path in paths where !fixtures.contains(path) {
            let url = directory.appendingPathComponent(path)
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            files[path] = try Data(contentsOf: url)
        }
        written[key] = files
        return files
    }
}

@Suite("Interrupted and damaged sweeps resume to the uninterrupted file, byte for byte")
struct InterruptionResumeTests {
    static let sweep = ["sweep", "--vary", "gesture.minimumDuration=0.4:0.9:0.1", "--users", "300", "--out", "s.csv"]

    static func run(_ arguments: [String], in directory: URL, environment: [String: String] = [:]) throws -> CLI.Result {
        var hostile = Hostile("", arguments, 0)
        hostile.environment = environment
        return try HostileInputTests.run(hostile, in: directory)
    }

    static func temporaries(in directory: URL) throws -> [String] {
        // Temporaries: files being written, and the folder gnuplot draws in (`.NAME.PID.plot`).
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.contains(".partial") || $0.contains(".tmp") || $0.hasSuffix(".plot")
        }
    }

    @Test("SIGINT, SIGTERM and SIGHUP mid-sweep: status 128+n, no temporary, and --resume gives the uninterrupted file")
    func signalThenResume() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("s.csv")
        let whole = try Self.run(Self.sweep, in: directory)
        #expect(whole.status == 0, "\(whole.stderr)")
        let expected = try Data(contentsOf: file)
        for (signal, status) in [("INT", Int32(130)), ("TERM", 143), ("HUP", 129)] {
            try FileManager.default.removeItem(at: file)
            // The first write holds points 1–4; the signal arrives while the second (the last) is being written.
            let cut = try Self.run(Self.sweep, in: directory, environment: ["HOLDLAB_TEST_SIGNAL": "\(signal):2"])
            #expect(cut.status == status, "\(signal): \(cut.stderr)")
            #expect(try Self.temporaries(in: directory).isEmpty)
            let partial = try String(contentsOf: file, encoding: .utf8)
            #expect(CLI.dataLines(partial).count == 5, "header and four points kept")
            let resumed = try Self.run(Self.sweep + ["--resume"], in: directory)
            #expect(resumed.status == 0 && resumed.stderr.contains("4 of 6 points done"), "\(resumed.stderr)")
            #expect(try Data(contentsOf: file) == expected)
        }
    }

    @Test("a file cut mid-row or with a short last row: that point is computed again, saying so")
    func damagedLastRow() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("s.csv")
        #expect(try Self.run(Self.sweep, in: directory).status == 0)
        let expected = try String(contentsOf: file, encoding: .utf8)
        var lines = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()  // the empty string after the final newline
        let last = lines.removeLast()
        let cases: [(String, String)] = [
            ("cut mid-row", lines.joined(separator: "\n") + "\n" + last.prefix(last.count / 2)),
            ("cut after a comma", lines.joined(separator: "\n") + "\n" + last.prefix { $0 != "," } + ","),
            ("short last row", lines.joined(separator: "\n") + "\n" + last.split(separator: ",").dropLast(3).joined(separator: ",") + "\n"),
            ("last row with an empty field", lines.joined(separator: "\n") + "\n" + last.replacingOccurrences(of: ",300,", with: ",,") + "\n"),
            ("cut inside the header", expected.components(separatedBy: "param_gesture")[0] + "param_ges"),
            ("empty file", ""),
        ]
        for (name, text) in cases {
            try text.write(to: file, atomically: true, encoding: .utf8)
            let resumed = try Self.run(Self.sweep + ["--resume"], in: directory)
            #expect(resumed.status == 0, "\(name): \(resumed.stderr)")
            #expect(resumed.stderr.contains("holdlab: note: --resume:"), "\(name): \(resumed.stderr)")
            #expect(try String(contentsOf: file, encoding: .utf8) == expected, "\(name)")
        }
    }

    @Test("a damaged row before the last, another header or another seed: refused (65), the file untouched")
    func refused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("s.csv")
        #expect(try Self.run(Self.sweep, in: directory).status == 0)
        let expected = try String(contentsOf: file, encoding: .utf8)
        let rows = CLI.dataLines(expected).map(String.init)
        let cases: [(String, String, String)] = [
            ("damaged middle row", expected.replacingOccurrences(of: rows[2], with: String(rows[2].prefix(20))), "row 2"),
            ("other header", expected.replacingOccurrences(of: rows[0], with: rows[0].replacingOccurrences(of: "completion_rate,", with: "completion,")),
             "different header"),
            ("other seed", expected.replacingOccurrences(of: "per point, seed 1", with: "per point, seed 2"), "different users"),
            ("more rows than points", expected + rows[1] + "\n", "rows but the sweep has"),
        ]
        for (name, text, message) in cases {
            try text.write(to: file, atomically: true, encoding: .utf8)
            let resumed = try Self.run(Self.sweep + ["--resume"], in: directory)
            #expect(resumed.status == 65 && resumed.stderr.contains(message), "\(name): \(resumed.stderr)")
            #expect(try String(contentsOf: file, encoding: .utf8) == text, "\(name): the file changed")
        }
    }

    @Test("SIGTERM while gnuplot draws: 143, gnuplot stopped, no temporary figure, the old figure kept")
    func interruptedPlot() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // A notebook that opens its output, then takes its time: the temporary figure exists when the signal lands.
        try "set terminal svg\nset output out\npause 2\nplot x\n".write(
            to: directory.appendingPathComponent("slow.gp"), atomically: true, encoding: .utf8)
        try "a\n1\n".write(to: directory.appendingPathComponent("d.csv"), atomically: true, encoding: .utf8)
        try "old figure\n".write(to: directory.appendingPathComponent("f.svg"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = try CLI.executable
        process.arguments = ["plot", "./slow.gp", "--data", "d.csv", "--out", "f.svg"]
        process.currentDirectoryURL = directory
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<200 where try Self.temporaries(in: directory).isEmpty && process.isRunning {
            usleep(20_000)
        }
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 143)
        usleep(2_500_000)  // had gnuplot survived, it would have written its figure by now
        #expect(try Self.temporaries(in: directory).isEmpty)
        #expect(try String(contentsOf: directory.appendingPathComponent("f.svg"), encoding: .utf8) == "old figure\n")
    }

    @Test("a real SIGINT from outside while simulate writes --per-user: 130, no temporary, no file")
    func externalInterrupt() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = Process()
        process.executableURL = try CLI.executable
        process.arguments = ["simulate", "--users", "5000000", "--threads", "1", "--per-user", "pu.csv", "--out", "out.csv"]
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["HOLDLAB_PROFILES"] = CLI.root.appendingPathComponent("Profiles").path
        process.environment = environment
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait (bounded) until the temporary exists, so the signal lands mid-write.
        for _ in 0..<600 where try Self.temporaries(in: directory).isEmpty && process.isRunning {
            usleep(50_000)
        }
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 130)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
