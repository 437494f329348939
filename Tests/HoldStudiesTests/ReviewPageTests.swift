import Foundation
import HoldLabIO
@testable import HoldStudies
import Testing

@Suite("report.html: escaping, the data blob, the policy hashes")
struct ReviewPageTests {
    @Test("text from a profile, a review file or the command line is escaped: & < > \" '")
    func escaping() {
        #expect(ReviewPage.escape("<img src=x onerror=alert(1)> & \"q\" 'a'")
                == "&lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot; &#39;a&#39;")
        // Inside the JSON blob nothing can end the script element or start markup.
        let json = JSONValue.text(.object([("q", .string("</script><img src=x onerror=alert(1)>&\u{2028}"))]))
        #expect(!json.contains("<") && !json.contains(">") && !json.contains("&"))
        let decoded = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
        #expect(decoded?["q"] == "</script><img src=x onerror=alert(1)>&\u{2028}")
    }

    @Test("SHA-256 of the policy's hashes: FIPS 180-4's vectors")
    func sha256() {
        #expect(SHA256.base64("") == "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
        #expect(SHA256.base64("abc") == "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=")
        // Two blocks.
        #expect(SHA256.base64("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "JI1qYdIGOLjlwCaTDD5gOaM85Flk/yFn9uzt1BnbBsE=")
    }

    @Test("a markdown sentence becomes runs the script puts in with textContent")
    func runs() {
        let text = JSONValue.text(ReviewPage.inline("**fast** and `x<y` *rule:* done"))
        #expect(text == #"[["b","fast"],[""," and "],["c","x\u003cy"],[""," "],["i","rule:"],[""," done"]]"#)
    }

    @Test("the baseline's value of a swept key, read off the canonical profile")
    func baselineValue() {
        let yaml = "version: 1\nname: p\ngesture: {minimumDuration: 1, maximumDistance: 10}\nfill:\n  curve: linear\n  duration: match\n"
            + "display: {refreshRate: 120, resolution: 0.001}\n"
        #expect(ReviewPage.value(at: "fill.curve", in: yaml) == "linear")
        #expect(ReviewPage.value(at: "fill.duration", in: yaml) == "1")
        #expect(ReviewPage.value(at: "display.refreshRate", in: yaml) == "120")
        #expect(ReviewPage.value(at: "fill.wobble", in: yaml) == nil)
    }

    @Test("the release grid runs from 0.2 s to 1.5 × the trigger, in 10 ms steps")
    func grid() {
        let grid = ReviewPage.releaseGrid(triggerSeconds: 1.0, endSeconds: 1.45)
        #expect(grid.first == 0.2 && grid.last == 1.5 && grid.count == 12)
        #expect(grid == grid.sorted())
    }
}
