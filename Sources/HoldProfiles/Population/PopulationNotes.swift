import GSL

extension Population {
    /// The share of a class's durations below which a note is due: 1 % of a class's holds, reactions or patience
    /// drawn as 0 s changes its rates by about as much.
    public static let negativeMassNoted = 0.01

    /// What a run of this population should know before its numbers are read: for each class that can be drawn
    /// (weight above 0), each duration distribution with at least `negativeMassNoted` of its probability below
    /// 0 s, whose draws there are taken as 0 s (a hold released at touch-down, a reaction at the cue, patience
    /// that gives up at once): the class's figures then describe those zeros, not the distribution. Exact, from the
    /// distribution's CDF (GSL's `gsl_cdf_*_P`).
    public var notes: [String] {
        var notes: [String] = []
        for userClass in classes where userClass.weight > 0 {
            var durations: [(String, Distribution, String)] = []
            switch userClass.behavior {
            case .hold(let duration): durations = [("hold", duration, "a release at touch-down")]
            case .react(let reaction, let patience):
                durations = [("reaction", reaction, "a release at the cue"), ("patience", patience, "giving up at touch-down")]
            case .anticipate: break
            }
            for (key, distribution, meaning) in durations where distribution.lowerBound < 0 {
                // P(X < 0): the CDF at the largest double below 0 (a point mass at 0 is not below it).
                let below = distribution.cdf(-Double.leastNonzeroMagnitude)
                guard below >= Self.negativeMassNoted else { continue }
                notes.append("population \(name), class \(userClass.name): \(Self.percent(below)) of its \(key) distribution "
                    + "\(distribution) is below 0 s; those draws are taken as 0 s (\(meaning))")
            }
        }
        return notes
    }

    /// `p` as a percentage of three significant digits ("15.9 %", "100 %"), with as many more as it takes not to
    /// round a share below 1 up to 100 % ("99.997 %"); "100 %" is all of it.
    static func percent(_ p: Double) -> String {
        if p >= 1 { return "100 %" }
        var digits = 3
        var text = String(format: "%.3g", p * 100)
        while text == "100" && digits < 17 {
            digits += 1
            text = String(format: "%.\(digits)g", p * 100)
        }
        return "\(text) %"
    }
}
