import Foundation
import HoldLabTestSupport
import Testing

@Suite("Outputs through symbolic links and descriptor names")
struct OutputLinkTests {
    @Test("an output that is a symbolic link keeps the link: the file it points to is replaced")
    func symbolicLink() throws {
        let directory = try CLI.temporaryDirectory()
        let real = directory.appendingPathComponent("real.csv")
        try "old\n".write(to: real, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("link.csv").path, withDestinationPath: "real.csv")
        let run = try CLI.run(["simulate", "--users", "100", "--out", "link.csv"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        let kind = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("link.csv").path)[.type] as? FileAttributeType
        #expect(kind == .typeSymbolicLink)
        #expect(try String(contentsOf: real, encoding: .utf8).hasPrefix("# holdlab: "))
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(left == ["link.csv", "real.csv"])
    }

    @Test("a name for standard output's file is written in place, and is refused beside '-'")
    func descriptorName() throws {
        let directory = try CLI.temporaryDirectory()
        // A link to this process's descriptor 1, as /dev/stdout is: with standard output a pipe to the test, the
        // rows arrive there and the link stays a link.
        let link = directory.appendingPathComponent("out").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/proc/self/fd/1")
        let run = try CLI.run(["simulate", "--users", "100", "--out", "out"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("# holdlab: ") && run.stdout.contains("hig-linear-bar,default,100,"))
        #expect((try FileManager.default.attributesOfItem(atPath: link)[.type] as? FileAttributeType) == .typeSymbolicLink)
        // Redirected to a regular file, that file is standard output: --per-user - and --out naming it are one file.
        let shell = try runProcess("/bin/sh", ["-c", "\"$0\" simulate --users 100 --out out --per-user - > captured.txt", try CLI.executable.path],
                                   in: directory)
        #expect(shell.status == 64 && shell.stderr.contains("are the same file"), "\(shell.stderr)")
        #expect((try FileManager.default.attributesOfItem(atPath: link)[.type] as? FileAttributeType) == .typeSymbolicLink)
    }

    @Test("--emit scripts: a line break in a --set value stays inside its comment; one in --out is refused")
    func scriptLines() throws {
        let directory = try CLI.temporaryDirectory()
        let script = try CLI.run(["simulate", "--users", "9000", "--shards", "2", "--emit", "parallel",
                                  "--set", "description=a\ntouch INJECTED", "--out", "j.csv"], in: directory)
        #expect(script.status == 0, "\(script.stderr)")
        // The header is comments to its end (the value itself stays inside single quotes in the shard's command).
        let header = script.stdout.split(separator: "\n", omittingEmptySubsequences: false).prefix { $0 != "set -euo pipefail" }
        #expect(header.count > 3 && header.allSatisfy { $0.hasPrefix("#") }, "\(header)")
        #expect(script.stdout.contains("--set 'description=a\\ntouch INJECTED'") || script.stdout.contains("description=a\\ntouch"))
        let refused = try CLI.run(["simulate", "--users", "9000", "--shards", "2", "--emit", "slurm", "--out", "x\ntouch y.csv"], in: directory)
        #expect(refused.status == 64 && refused.stderr.contains("cannot be written into a job script"), "\(refused.stderr)")
    }
}
