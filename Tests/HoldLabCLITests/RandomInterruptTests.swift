import Foundation
import HoldLabTestSupport
import Testing

/// `report` and `preview` interrupted at random moments by SIGINT, SIGTERM or SIGHUP while they simulate, write and
/// run the real gnuplot and ffmpeg: every run must end with the signal's documented status (or 0 when it finished
/// first), leave no temporary, leave no child running (found by process id through an environment variable every
/// child inherits), and leave its outputs all as they were or all complete.
@Suite("Random interrupts of report and preview while gnuplot and ffmpeg run", .serialized)
struct RandomInterruptTests {
    static let signals: [(name: String, number: Int32, status: Int32)] = [("INT", SIGINT, 130), ("TERM", SIGTERM, 143), ("HUP", SIGHUP, 129)]

    /// One command under test: its arguments, the outputs it replaces, and how to put the previous outputs in place.
    struct Subject: Sendable {
        var name: String
        var arguments: [String]
        /// Files (relative to the run's directory) that make up the outputs; a folder is listed by its files.
        var outputs: @Sendable (URL) throws -> [String: Data]
        var setUp: @Sendable (URL) throws -> Void
    }

    static let subjects: [Subject] = [
        Subject(
            name: "report",
            // Small: a few seconds a run, most of it in gnuplot (figures for the comparison, the sweep, the slides).
            arguments: ["report", "--profile", "hig-linear-bar", "--profile", "kikocard-accelerating", "--users", "200",
                        "--robustness-users", "100", "--robustness-points", "2", "--sweep", "gesture.minimumDuration=0.5,1",
                        "--out", "rev"],
            outputs: { directory in try files(in: directory.appendingPathComponent("rev")) },
            setUp: { directory in
                let folder = directory.appendingPathComponent("rev")
                try? FileManager.default.removeItem(at: folder)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data("previous review\n".utf8).write(to: folder.appendingPathComponent("report.md"))
            }),
        Subject(
            name: "preview",
            arguments: ["preview", "--release-at", "0.3", "--out", "p.gif"],
            outputs: { directory in
                var found: [String: Data] = [:]
                for name in ["p.gif", "p.mp4"] {
                    if let data = try? Data(contentsOf: directory.appendingPathComponent(name)) { found[name] = data }
                }
                return found
            },
            setUp: { directory in
                try Data("previous gif\n".utf8).write(to: directory.appendingPathComponent("p.gif"))
                try Data("previous mp4\n".utf8).write(to: directory.appendingPathComponent("p.mp4"))
            }),
    ]

    static func files(in folder: URL) throws -> [String: Data] {
        var found: [String: Data] = [:]
        for name in (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String]) ?? [] {
            var isDirectory: ObjCBool = false
            let url = folder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
            found[name] = isDirectory.boolValue ? Data() : try Data(contentsOf: url)
        }
        return found
    }

    /// The processes (other than `excluded`) whose environment holds `token`, with their command names: HoldLab's
    /// children and anything they started. Zombies (already ended) have no readable environment.
    static func processes(holding token: String, excluding excluded: Int32) -> [(pid: Int32, name: String)] {
        let needle = Data(token.utf8)
        var found: [(Int32, String)] = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), pid != excluded, pid != getpid(),
                  let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ"),
                  environment.range(of: needle) != nil else { continue }
            let name = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            found.append((pid, name))
        }
        return found
    }

    static func environment(token: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["HOLDLAB_PROFILES"] = CLI.root.appendingPathComponent("Profiles").path
        environment["HOLDLAB_NOTEBOOKS"] = CLI.root.appendingPathComponent("Notebooks").path
        environment["HOLDLAB_INTERRUPT_PROBE"] = token
        return environment
    }

    @Test("at least 40 interrupts at random moments: the signal's status, no temporary, no child left, outputs old or new")
    func randomInterrupts() throws {
        #expect(ChildFinder.installed("gnuplot"), "the test needs the real gnuplot (apt-get install gnuplot-nox)")
        #expect(ChildFinder.installed("ffmpeg"), "the test needs the real ffmpeg (apt-get install ffmpeg)")
        let seed = UInt64(ProcessInfo.processInfo.environment["HOLDLAB_INTERRUPT_SEED"].flatMap(UInt64.init)
            ?? UInt64(Date().timeIntervalSince1970 * 1000))
        var random = SplitMix(seed: seed)
        let perSubject = 22
        var interrupts = 0
        var duringChild: [String: Int] = [:]
        var statuses: [Int32: Int] = [:]
        for subject in Self.subjects {
            let directory = try CLI.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            // The complete outputs, and how long a whole run takes.
            let token = "probe-\(UUID().uuidString)"
            try subject.setUp(directory)
            let started = Date()
            let whole = try runProcess(try CLI.executable.path, subject.arguments, in: directory, environment: Self.environment(token: token))
            let duration = Date().timeIntervalSince(started)
            #expect(whole.status == 0, "\(subject.name): \(whole.stderr)")
            let complete = try subject.outputs(directory)
            #expect(complete.count >= 2)

            for round in 0..<perSubject {
                let token = "probe-\(UUID().uuidString)"
                try subject.setUp(directory)
                let previous = try subject.outputs(directory)
                let signal = Self.signals[Int(random.next() % 3)]
                // Moments spread over the whole run, a few right at the start, and every other one in its last 40 %
                // (where report draws its figures and preview encodes its MP4).
                let fraction = Double(random.next() % 10_000) / 10_000
                let delay = round < 2 ? Double(round) * 0.01
                    : (round % 2 == 0 ? fraction * 1.05 : 0.6 + fraction * 0.4) * duration
                let process = Process()
                process.executableURL = try CLI.executable
                process.arguments = subject.arguments
                process.currentDirectoryURL = directory
                process.environment = Self.environment(token: token)
                process.standardOutput = FileHandle.nullDevice
                let errors = Pipe()
                process.standardError = errors
                try process.run()
                let pid = process.processIdentifier
                var children: [(pid: Int32, name: String)]
                if subject.name == "preview" && round == 2 {
                    // One round waits for the encoder itself, so that an interrupt lands while ffmpeg runs whatever
                    // the machine's load does to the random moments (a loaded CI once had none of 22 land there).
                    let deadline = Date().addingTimeInterval(max(10, 3 * duration))
                    repeat {
                        children = Self.processes(holding: token, excluding: pid)
                        if children.contains(where: { $0.name == "ffmpeg" }) || !process.isRunning { break }
                        usleep(2_000)
                    } while Date() < deadline
                } else {
                    usleep(UInt32(delay * 1_000_000))
                }
                children = Self.processes(holding: token, excluding: pid)
                kill(pid, signal.number)
                let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                interrupts += 1
                for child in children { duringChild[child.name, default: 0] += 1 }
                let context = "\(subject.name) round \(round) (seed \(seed)): SIG\(signal.name) after \(String(format: "%.3f", delay)) s, children then \(children.map { "\($0.name) \($0.pid)" }): stderr \(stderr)"

                let status = process.terminationReason == .exit ? process.terminationStatus : 1000 + process.terminationStatus
                statuses[status, default: 0] += 1
                #expect(status == signal.status || status == 0, "undocumented status \(status): \(context)")
                let left = Self.processes(holding: token, excluding: pid)
                #expect(left.isEmpty, "children left running: \(left): \(context)")
                let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
                #expect(!entries.contains { $0.hasPrefix(".") }, "temporaries left: \(entries): \(context)")
                let after = try subject.outputs(directory)
                if status == 0 {
                    #expect(after == complete, "a finished run's outputs are incomplete: \(context)")
                } else {
                    #expect(after == previous || after == complete, "outputs half replaced: \(after.keys.sorted()): \(context)")
                }
                if status == signal.status && after == previous {
                    #expect(!stderr.contains("holdlab: error:"), "an interrupted run printed an error: \(context)")
                }
            }
        }
        #expect(interrupts >= 40)
        // The interrupts must land while the real tools run, not only around them.
        #expect(duringChild["gnuplot", default: 0] >= 5, "interrupts while gnuplot ran: \(duringChild)")
        #expect(duringChild["ffmpeg", default: 0] >= 1, "interrupts while ffmpeg ran: \(duringChild)")
        print("random interrupts (seed \(seed)): \(interrupts), statuses \(statuses.sorted { $0.key < $1.key }), while a child ran \(duringChild)")
    }
}

/// Whether a program is on `$PATH`.
enum ChildFinder {
    static func installed(_ name: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
        }
    }
}

/// A small seeded generator (SplitMix64), so a failing run can be repeated with HOLDLAB_INTERRUPT_SEED.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
