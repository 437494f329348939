import Foundation
import Testing

@Suite("holdlab benchmark, profiles list, trace --seed")
struct MiscCommandTests {
    @Test("benchmark prints one CSV row per case and thread count; bad counts are refused")
    func benchmark() throws {
        let result = try CLI.run(["benchmark", "--users", "4000", "--threads", "1", "--fit-rows", "300"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "case,profile,users,threads,seconds,users_per_second,max_rss_mib,ns_per_user")
        #expect(lines.count == 4)
        #expect(lines[1].hasPrefix("default,hig-linear-bar,4000,1,") && lines[2].hasPrefix("kikocard-timer-latency,kikocard-accelerating,400,1,"))
        #expect(lines[3].hasPrefix("fit,all-families-B200,300,1,"))
        for line in lines.dropFirst() {
            let fields = line.split(separator: ",")
            #expect(fields.count == 8 && (Double(fields[5]) ?? 0) > 0 && (Double(fields[6]) ?? 0) > 0 && (Double(fields[7]) ?? 0) > 0)
        }
        #expect(try CLI.run(["benchmark", "--fit-rows", "5"]).status == 64)
        #expect(try CLI.run(["benchmark", "--users", "0"]).status == 64)
        #expect(try CLI.run(["benchmark", "--users", "100", "--set", "fill.curve=wobbly"]).status == 65)
        #expect(try CLI.run(["benchmark", "--threads", "0"]).status == 64)
    }

    @Test("profiles list names every profile with its description, and the populations")
    func list() throws {
        let result = try CLI.run(["profiles", "list"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("  kikocard-accelerating ") && result.stdout.contains("LongPressGesture 0.5 s"))
        #expect(result.stdout.contains("Populations in") && result.stdout.contains("  motor-impaired"))
        #expect(!result.stdout.contains("INVALID"))
        let empty = try CLI.run(["profiles", "list", "--profiles-dir", try CLI.temporaryDirectory().path])
        #expect(empty.status == 0 && empty.stdout.contains("Profiles in"))
    }

    @Test("trace --seed draws the Timer latencies: the same seed repeats, another differs")
    func traceSeed() throws {
        let one = try CLI.run(["trace", "--profile", "kikocard-article-latency", "--seed", "3"])
        let again = try CLI.run(["trace", "--profile", "kikocard-article-latency", "--seed", "3"])
        let other = try CLI.run(["trace", "--profile", "kikocard-article-latency", "--seed", "4"])
        #expect(one.status == 0 && one.stdout == again.stdout)
        #expect(CLI.dataLines(one.stdout) != CLI.dataLines(other.stdout))
        // Late ticks only delay the fill: the action fires after the ideal 2.100 s.
        let trigger = CLI.dataLines(one.stdout).first { $0.hasSuffix(",trigger") }
        #expect((trigger.flatMap { Double($0.split(separator: ",")[0]) } ?? 0) > 2100)
    }
}

@Suite("Progress bar")
struct ProgressBarTests {
    @Test("a bar with throughput and ETA on a terminal's stderr, nothing when stderr is a pipe")
    func terminalOnly() throws {
        let directory = try CLI.temporaryDirectory()
        let out = directory.appendingPathComponent("s.csv").path
        let arguments = ["sweep", "--vary", "gesture.minimumDuration=0.3:1.5:0.1", "--users", "5000", "--out", out]
        // script(1) gives the command a pseudo-terminal and copies what it shows to its own standard output.
        let command = ([try CLI.executable.path] + arguments).joined(separator: " ")
        let tty = try CLI.runTool("/usr/bin/script", ["-q", "-c", command, "/dev/null"])
        #expect(tty.contains("sweep [") && tty.contains("ETA") && tty.contains("100%"))
        let piped = try CLI.run(arguments)
        #expect(piped.status == 0 && piped.stderr.isEmpty)
    }
}
