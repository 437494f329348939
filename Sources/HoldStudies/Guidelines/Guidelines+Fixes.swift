import GSL
import HoldLabIO
import HoldModel
import HoldProfiles
import HoldSimulation

/// Fixes: a `--set` value found for a rule that fails or warns, checked by running the rule and then every rule
/// again with it (`Guidelines.check`), and a profile's fixes followed together.
extension Guidelines {
    /// `profile`, loaded with the `--set` values `sets`, with one more applied, and the ones of `sets` it takes the
    /// place of: those whose keys it leaves without effect (`retract.mode=instant` beside `--set
    /// retract.duration=0.3`: `Profile.applying(_:settingAside:)`); nil when the value does not apply to it.
    static func applying(_ set: String, to profile: Profile, given sets: [String]) -> (profile: Profile, replaces: [String])? {
        // Applied to what the user wrote: a key without effect in the checked profile (fill.duration under no fill)
        // takes effect with the fix as it would when the advice is followed.
        guard let override = try? Override(parsing: set), let (applied, replaces) = try? profile.applying(override, settingAside: sets),
              (try? applied.prepared()) != nil else { return nil }
        var changed = applied
        changed.name = profile.name
        return (changed, replaces)
    }

    /// The first candidate `--set` value with which `passes` holds and no rule that passed fails (`breaks`: the
    /// rules it makes fail or warn), as the result's fix; else the first that passes with the rules it breaks named
    /// (advice followed must not trade one failure for another unsaid); or a sentence saying that none passed.
    /// A candidate that leaves a key of the profile's `--set` values `sets` without effect takes that value's place
    /// (`GuidelineFix.replaces`).
    static func fix(_ profile: Profile, candidates: [String], note: String = "", sets: [String] = [],
                    breaks: (Profile) throws -> [String], passes: (Profile) throws -> Bool) throws -> GuidelineFix {
        var tried: [String] = []
        var trading: (candidate: String, broken: [String], replaces: [String])?
        for candidate in candidates where !tried.contains(candidate) {
            tried.append(candidate)
            guard let (changed, replaces) = applying(candidate, to: profile, given: sets), try passes(changed) else { continue }
            let broken = try breaks(changed)
            if broken.isEmpty { return GuidelineFix(setting: candidate, note: note, replaces: replaces) }
            if trading == nil { trading = (candidate, broken, replaces) }
        }
        if let trading {
            return GuidelineFix(setting: trading.candidate, note: "passes this rule but then " + trading.broken.map { "`\($0)`" }.joined(separator: " and ")
                + (trading.broken.count == 1 ? " no longer passes" : " no longer pass")
                + "; no single value HoldLab tried passes without that (tried " + tried.map { "`\($0)`" }.joined(separator: ", ") + ")",
                trades: true, replaces: trading.replaces)
        }
        return .sentence(tried.isEmpty ? "no single key HoldLab knows to try changes this"
            : "no single value HoldLab tried passes (tried " + tried.map { "`\($0)`" }.joined(separator: ", ") + ")")
    }

    /// The largest of 1…`high` − 1 for which `passes` holds, by halving, where `high` does not pass and a value
    /// that passes has every smaller one pass; 0 when none does.
    static func largestPassing(below high: Int, _ passes: (Int) -> Bool) -> Int {
        var (low, high) = (0, high)
        while high - low > 1 {
            let middle = (low + high) / 2
            if passes(middle) { low = middle } else { high = middle }
        }
        return low
    }

    /// `retract-time`'s duration: the longest retract on the millisecond grid whose traced early releases pass,
    /// between none and the profile's own (whose do not; a longer retract never empties sooner), as a `--set`
    /// value; nil when none does. A value the profile refuses counts as short (and, as every candidate that does
    /// not apply, is skipped by `fix`).
    static func longestRetract(_ profile: Profile, _ t: GuidelineThresholds, seed: UInt64, sets: [String]) -> String? {
        func setting(_ milliseconds: Int) -> String { "retract.duration=\(seconds(Double(milliseconds) / 1000))" }
        let own = profile.control.retract.durationSeconds ?? 4 * t.maxRetractMs / 1000
        let longest = largestPassing(below: Int((own * 1000).rounded(.up))) { milliseconds in
            guard let (changed, _) = applying(setting(milliseconds), to: profile, given: sets) else { return true }
            return (try? earlyReleases(changed, t, seed: seed).retract.status == .pass) ?? false
        }
        return longest > 0 ? setting(longest) : nil
    }

    static func isSpring(_ curve: TimingCurve) -> Bool {
        if case .spring = curve { return true }
        return false
    }

    /// A number of seconds as a `--set` value: at most 3 decimals (or `decimals`), no trailing zeros.
    static func seconds(_ value: Double, decimals: Int = 3) -> String {
        var text = CSV.number(value, decimals: decimals)
        while text.contains("."), text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// What a profile's fixes do applied together, each having been checked alone: nil for fewer than two (or two of
    /// one key, or values that trade a rule). Advice in separate cells reads as advice to follow at once; where it
    /// cannot be, the reader must be told.
    public static func together(_ request: GuidelineRequest, _ results: [GuidelineResult]) throws -> FixesTogether? {
        let fixing = results.filter { result in result.suggestion.map { !$0.trades && $0.setting != nil } ?? false }
        // One fix two rules give is one value to follow.
        var settings: [String] = []
        var replaces: [[String]] = []
        for fix in fixing.compactMap(\.suggestion) where !settings.contains(fix.setting ?? "") {
            settings.append(fix.setting ?? "")
            replaces.append(fix.replaces)
        }
        guard settings.count >= 2,
              let overrides = try? settings.map({ text throws(ProfileError) in try Override(parsing: text) }) else { return nil }
        // Two values of one key (or one inside the other) cannot both be followed.
        if let (first, second) = KeyPaths.firstOverlap(overrides.map(\.keyPath)),
           let a = overrides.first(where: { $0.keyPath == first }), let b = overrides.last(where: { $0.keyPath == second }) {
            return FixesTogether(settings: settings, replaces: replaces, outcome: .conflict(a.text, b.text))
        }
        var changed = request.profile
        do {
            for override in overrides { changed = try changed.applying(override, settingAside: request.sets).0 }
            _ = try changed.prepared()
        } catch let error as ProfileError {
            return FixesTogether(settings: settings, replaces: replaces, outcome: .refused(error.keyedMessage))
        } catch let error as ControlError {
            return FixesTogether(settings: settings, replaces: replaces, outcome: .refused("\(error.keyPath): \(error.message)"))
        }
        changed.name = request.profile.name
        var again = request
        again.profile = changed
        again.summary = nil
        again.impairedSummary = nil
        let after = try check(again, fixes: false)
        // A rule one of them fixes that does not pass with all of them, or one that passed and no longer does; a
        // rule that did not pass and has no fix among them is as it was.
        let fixed = Set(fixing.map(\.rule.id))
        let passed = Set(results.filter { $0.status == .pass }.map(\.rule.id))
        let broken = after.filter { $0.status != .pass && (fixed.contains($0.rule.id) || passed.contains($0.rule.id)) }
            .map { (rule: $0.rule.id, status: $0.status, fixed: fixed.contains($0.rule.id)) }
        if broken.isEmpty {
            return FixesTogether(settings: settings, replaces: replaces, outcome: after.allSatisfy { $0.status == .pass } ? .passEvery : .passFixed)
        }
        return FixesTogether(settings: settings, replaces: replaces, outcome: .broken(broken))
    }
}
