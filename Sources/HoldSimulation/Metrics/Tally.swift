import Foundation
import Histogram
import HoldModel

/// Everything `simulate` reports about one profile, accumulated hold by hold through `HoldContribution`: a count per
/// `HoldEvent`, and per `HoldValue` what it declares (Σy and Σy² with a count, quantiles, an extreme). Mergeable and
/// exact: integer sums, histogram counts, minima and maxima, so the result does not depend on order or threads.
struct Tally: HoldSink {
    /// Per `HoldEvent`.
    var counts = Slots16<Int>(repeating: 0)
    /// Per `HoldValue`: Σy and Σy² in its integer units, and how many values. Every time is within `Instant.limit`
    /// (10⁷ s, 10¹³ µs; a retract's end is at most a control's hours later), so y² < 1.1·10²⁶: Σy² stays below
    /// Int128's 1.7·10³⁸ for more than 10¹² values, beyond any run.
    var sums = Slots16<Int128>(repeating: 0)
    var squares = Slots16<Int128>(repeating: 0)
    var valueCounts = Slots16<Int>(repeating: 0)
    /// Per `HoldValue`, the largest and smallest `real` where kept.
    var maxima = Slots16<Double>(HoldValue.allCases.map(\.maximumStart), padding: -.infinity)
    var minima = Slots16<Double>(repeating: .infinity)
    /// Every reported quantile keeps the 4 significant digits docs/commands/simulate.md promises, over every value a
    /// hold can give: times up to `highestMicroseconds`, pulse counts up to 10⁷ (a fill of at most an hour at
    /// 1,000 Hz requests far fewer).
    var completionTime = Quantiles(highest: Self.highestMicroseconds, digits: .four)
    var holdTime = Quantiles(highest: Self.highestMicroseconds, digits: .four)
    var pulses = Quantiles(highest: 10_000_000, digits: .four)
    var mismatch = SignedQuantiles(highest: Self.highestMicroseconds, digits: .four)

    /// The largest time the quantiles keep, in µs: `Instant.limit` (10⁷ s) and a day more, so that no time a hold
    /// can give (a press end is at most the limit, a trigger or a mismatch at most a control's hours) is counted as
    /// a smaller one. (0.3.2 and before stopped at an hour: longer holds were counted as an hour, and a median of
    /// holds of 2.5 h read 3,600,000 ms.)
    static let highestMicroseconds = UInt64(Instant.limit / 1000) + 86_400_000_000

    /// The quantile stores a `HoldValue` can use.
    enum QuantileStore { case completionTime, holdTime, pulses, mismatch }

    subscript(event: HoldEvent) -> Int {
        get { counts[event.rawValue] }
        set { counts[event.rawValue] = newValue }
    }

    @inline(__always)
    mutating func count(_ event: HoldEvent) { counts[event.rawValue] &+= 1 }

    /// Sums use wrapping arithmetic: they are exact integers that cannot overflow (see `sums`), so the overflow
    /// checks would only cost instructions on every person.
    @inline(__always)
    mutating func take(_ value: HoldValue, _ amount: Int64, real: Double) {
        let index = value.rawValue
        if value.keepsMean {
            let y = Int128(amount)
            sums[index] &+= y
            squares[index] &+= y &* y
        }
        valueCounts[index] &+= 1
        switch value.quantiles {
        case .completionTime: completionTime.record(amount)
        case .holdTime: holdTime.record(amount)
        case .pulses: pulses.record(amount)
        case .mismatch: mismatch.record(amount)
        case nil: break
        }
        if value.keepsMaximum && real > maxima[index] { maxima[index] = real }
        if value.keepsMinimum && real < minima[index] { minima[index] = real }
    }

    /// Counts a person without intent to confirm.
    @inline(__always)
    mutating func addAccidental(fired: Bool) {
        HoldContribution.accidental(fired: fired, into: &self)
    }

    /// Counts one person's hold.
    @inline(__always)
    mutating func add(_ hold: CountedHold) {
        HoldContribution.hold(hold, into: &self)
    }

    /// Counts one person's run.
    @inline(__always)
    mutating func add(_ run: UserRun) {
        add(CountedHold(run))
    }

    /// Records every pending run of equal values into the histograms (see `Quantiles`); call before reading.
    mutating func finish() {
        completionTime.finish()
        holdTime.finish()
        pulses.finish()
        mismatch.finish()
    }

    /// Adds another tally. Integer sums, histogram counts, minima and maxima: the result does not depend on order.
    mutating func merge(_ other: Tally) {
        for index in 0..<16 {
            counts[index] += other.counts[index]
            sums[index] += other.sums[index]
            squares[index] += other.squares[index]
            valueCounts[index] += other.valueCounts[index]
            maxima[index] = max(maxima[index], other.maxima[index])
            minima[index] = min(minima[index], other.minima[index])
        }
        completionTime.merge(other.completionTime)
        holdTime.merge(other.holdTime)
        pulses.merge(other.pulses)
        mismatch.merge(other.mismatch)
    }

    /// Adds another tally read from outside (a shard file) if no count, sum or histogram total would overflow (or
    /// a histogram exceed `Int.max` values); returns what would have overflowed, and then changes nothing.
    ///
    /// `merge` is for tallies this process counted, whose sums cannot overflow (see `sums`); a file's numbers can
    /// be anything a valid seal covers, so they are checked here rather than trapping in the addition.
    mutating func merge(checking other: Tally) -> String? {
        for index in 0..<16 {
            let what = HoldEvent(rawValue: index).map { "the count of \(TallyCoding.column(of: $0))" } ?? "count \(index)"
            if counts[index].addingReportingOverflow(other.counts[index]).overflow { return what }
            let value = HoldValue(rawValue: index).map { TallyCoding.snakeCase($0) } ?? "value \(index)"
            if sums[index].addingReportingOverflow(other.sums[index]).overflow { return "the sum of \(value)" }
            if squares[index].addingReportingOverflow(other.squares[index]).overflow { return "the sum of squares of \(value)" }
            if valueCounts[index].addingReportingOverflow(other.valueCounts[index]).overflow { return "the count of \(value)" }
        }
        let limit = UInt64(Int.max)
        for (name, mine, theirs) in [
            ("completion_time_us", completionTime.count, other.completionTime.count),
            ("hold_time_us", holdTime.count, other.holdTime.count),
            ("pulses_per_hold", pulses.count, other.pulses.count),
            ("mismatch_us", mismatch.count, other.mismatch.count),
        ] {
            let (total, overflow) = mine.addingReportingOverflow(theirs)
            if overflow || total > limit { return "the number of values in \(name)" }
        }
        merge(other)
        return nil
    }

    /// What no tally `HoldContribution` counted can hold (a shard file's tally that was edited and resealed): every
    /// person is an intent user or an accidental one, every intent user completed, let go early or was cancelled,
    /// and each subset is at most its set; nil for a tally that could have been counted.
    func inconsistency() -> String? {
        if let problem = Self.countProblem({ self[$0] }) { return problem }
        for value in HoldValue.allCases where valueCounts[value.rawValue] > self[value.over] {
            return "\(valueCounts[value.rawValue]) values of \(TallyCoding.snakeCase(value)) exceed \(TallyCoding.column(of: value.over)) \(self[value.over])"
        }
        // Every intent user had a first feedback or none (`HoldContribution.hold`); every completed hold with a fill
        // looked full (a mismatch) or did not (completed unseen). Each count is at most its whole here, so the
        // differences cannot overflow.
        let feedback = valueCounts[HoldValue.firstFeedback.rawValue]
        if self[.intent] - feedback != self[.noFeedback] {
            return "\(feedback) values of first_feedback and \(TallyCoding.column(of: .noFeedback)) \(self[.noFeedback]) "
                + "do not add up to \(TallyCoding.column(of: .intent)) \(self[.intent])"
        }
        let mismatches = valueCounts[HoldValue.mismatch.rawValue]
        if mismatches > self[.completedWithFill] - self[.completedUnseen] {
            return "\(mismatches) values of mismatch exceed the \(self[.completedWithFill] - self[.completedUnseen]) completed "
                + "holds with a fill that looked full (\(TallyCoding.column(of: .completedWithFill)) − \(TallyCoding.column(of: .completedUnseen)))"
        }
        // The sums: of no values 0; of squares at least the square of the sum over the count (Cauchy–Schwarz); of a
        // value that is never negative, not negative; of a value with quantiles, within the count times its smallest
        // and largest quantile (each exact to 4 significant digits: a thousandth of slack, and a unit).
        for value in HoldValue.meanValues {
            let index = value.rawValue
            let name = TallyCoding.snakeCase(value)
            let n = valueCounts[index], sum = sums[index], square = squares[index]
            if n == 0 {
                if sum != 0 || square != 0 { return "the sum of \(name) is not 0 over no values" }
                continue
            }
            let count = Double(n), total = Double(sum)
            // n·Σy² ≥ (Σy)², exactly: both sides in 256 bits.
            let scaled = square.magnitude.multipliedFullWidth(by: UInt128(n)), squared = sum.magnitude.multipliedFullWidth(by: sum.magnitude)
            if square < 0 || scaled.high < squared.high || (scaled.high == squared.high && scaled.low < squared.low) {
                return "the sum of squares of \(name) is below the square of its sum over its count"
            }
            if value != .mismatch && sum < 0 { return "the sum of \(name) is negative" }
            if value.quantiles != nil, let low = quantile(of: value, atPercentile: 0),
               let high = quantile(of: value, atPercentile: 100) {
                let lowest = Double(low) - abs(Double(low)) * 1e-3 - 1, highest = Double(high) + abs(Double(high)) * 1e-3 + 1
                if total < count * lowest || total > count * highest {
                    return "the sum of \(name) is outside its count times its smallest and largest values"
                }
                // No value lies further from 0 than the larger of the two, so neither can its square.
                let reach = Swift.max(abs(lowest), abs(highest))
                if Double(square) > count * reach * reach * (1 + 1e-9) {
                    return "the sum of squares of \(name) is above its count times its largest square"
                }
            }
            if let problem = sumsBeyondTheirValues(value, sum: sum, squares: square, count: n) { return problem }
        }
        return extremeProblem()
    }

    /// Why the sums of `value` cannot be of the values behind them, or nil: each value lies in its histogram bucket
    /// (those with quantiles: 6,163 holds of exactly 1 pulse sum to 6,163, not 6,000, which the thousandth of slack
    /// above let pass), within what a hold gives (a progress within 0 and 1, a time within `highestMicroseconds`),
    /// and a first feedback came while the finger was down, so within its hold time (whose buckets bound it).
    func sumsBeyondTheirValues(_ value: HoldValue, sum: Int128, squares: Int128, count n: Int) -> String? {
        let name = TallyCoding.snakeCase(value)
        var checks: [(SumBounds, String)] = []
        if let buckets = sumBounds(of: value) { checks.append((buckets, "its values' histogram buckets")) }
        func each(from low: Int128, to high: Int128) -> SumBounds { SumBounds.each(count: Int128(n), from: low, to: high) }
        switch value {
        case .droppedPulses:
            // Whole numbers from 0 (so each square at least its value), at most a pulse count's reach (`pulses`).
            if squares < sum { return "the sum of squares of \(name) is below its sum, which whole numbers from 0 cannot give" }
            checks.append((each(from: 0, to: 10_000_000), "\(n) counts of at most 10,000,000"))
        case .progressAtTrigger: checks.append((each(from: 0, to: 1_000_000_000), "\(n) progresses of 0 to 1"))
        case .firstFeedback, .retract:
            checks.append((each(from: 0, to: Int128(Self.highestMicroseconds)), "\(n) times of at most \(Self.highestMicroseconds) µs"))
        default: break
        }
        if value == .firstFeedback {
            // At most each hold's time; the bounds' low ends say nothing (not every hold had a first feedback).
            var held = sumBounds(of: .holdTime) ?? SumBounds()
            held.sum.low = 0
            held.squares.low = 0
            checks.append((held, "the hold times of the intent users it came to"))
        }
        for (bounds, what) in checks {
            let fits = bounds.holds(sum: sum, squares: squares)
            if !fits.sum { return "the sum of \(name) is outside what \(what) can sum to" }
            if !fits.squares { return "the sum of squares of \(name) is outside what \(what) can sum to" }
        }
        return nil
    }

    /// The first kept extreme no simulation gives: one over no values that moved from where it starts, one over
    /// values that is not finite, not its quantiles' own extreme (they keep a pulse count's exactly, a mismatch's to
    /// 4 significant digits), beyond Samuelson's bound from its sums (no value
    /// lies more than √(n − 1) population standard deviations from the mean), on the wrong side of its mean, and a
    /// pulse rate where no completed hold had two pulses, not above 0 or beyond one pulse a nanosecond.
    func extremeProblem() -> String? {
        for value in HoldValue.allCases where value.keepsMaximum || value.keepsMinimum {
            let index = value.rawValue, name = TallyCoding.snakeCase(value), n = valueCounts[index]
            let extreme = value.keepsMaximum ? maxima[index] : minima[index]
            let which = value.keepsMaximum ? "largest" : "smallest"
            let start = value.keepsMaximum ? value.maximumStart : .infinity
            // A value without a mean keeps no count in a shard (the pulse rate): its extreme is where it starts, or a
            // value's.
            if value.keepsMean ? n == 0 : extreme == start {
                if extreme != start { return "the \(which) \(name) is \(extreme) over no values" }
                continue
            }
            guard extreme.isFinite else { return "the \(which) \(name) is \(extreme), not a value's" }
            // In the integer units of the sums and quantiles (mismatch: µs, the extreme in seconds).
            let units = extreme * value.scale * value.realScale
            if value.quantiles != nil, let own = quantile(of: value, atPercentile: value.keepsMaximum ? 100 : 0) {
                // A mismatch's negative side is kept by magnitude to 4 significant digits: a thousandth of slack.
                let tolerance = value == .mismatch ? 1 + abs(units) * 1e-3 : 0
                if abs(units - Double(own)) > tolerance {
                    return "the \(which) \(name) \(extreme) is not its values' \(which), \(Double(own) / (value.scale * value.realScale))"
                }
            }
            if value.keepsMean {
                let count = Double(n), mean = Double(sums[index]) / count
                let variance = max(0, Double(squares[index]) / count - mean * mean)
                let reach = (Double(n - 1) * variance).squareRoot()
                // The sums are of values rounded to whole units (a progress to the billionth, a mismatch to the µs).
                let slack = 1 + abs(mean) * 1e-9 + reach * 1e-9
                let side = value.keepsMaximum ? units - mean : mean - units
                if side < -slack || side > reach + slack {
                    return "the \(which) \(name) \(extreme) is not within its values' spread about their mean \(mean / (value.scale * value.realScale))"
                }
            }
            if value == .pulseRate {
                guard let most = quantile(of: .pulses, atPercentile: 100), most >= 2 else {
                    return "a \(name) of \(extreme) where no completed hold had two pulses"
                }
                if !(extreme > 0 && extreme <= Instant.perSecond) {
                    return "the \(which) \(name) \(extreme) is not a rate of pulses (above 0, at most one a nanosecond)"
                }
            }
        }
        return nil
    }

    /// Every subset of people counted and the set it is part of.
    static let partsOfWholes: [(part: HoldEvent, whole: HoldEvent)] = [
        (.intent, .user), (.accidental, .user), (.completed, .intent), (.prematureRelease, .intent), (.movementCancel, .intent),
        (.prematureImpatience, .prematureRelease), (.prematureMismatch, .prematureRelease), (.falseActivation, .accidental),
        (.noFeedback, .intent), (.completedWithFill, .completed), (.completedUnseen, .completedWithFill),
        // Who gave up at their patience let go before any feedback came.
        (.prematureImpatience, .noFeedback),
    ]

    /// The first relation between counts of people that no simulation breaks, broken by `count`: each subset at most
    /// its set (`partsOfWholes`), every person intent or accidental, every intent user completed, let go early or
    /// was cancelled, and the two reasons to let go early apart. Only the relations whose events all have a count are
    /// checked (a sweep row has four), and the sentence names the counts by their columns
    /// (`TallyCoding.column(of:)`); nil when every relation holds.
    ///
    /// The counts may come from a file, so any Int: parts are compared with their whole before they are added, and a
    /// sum of parts that are each at most the whole cannot exceed twice Int.max, so it is taken as a difference.
    static func countProblem(_ count: (HoldEvent) -> Int?) -> String? {
        let column = TallyCoding.column(of:)
        for (part, whole) in partsOfWholes {
            guard let p = count(part), let w = count(whole), p > w else { continue }
            return "\(column(part)) \(p) exceeds \(column(whole)) \(w)"
        }
        // Each at most its whole now, so these differences cannot overflow.
        if let users = count(.user), let intent = count(.intent), let accidental = count(.accidental), users - intent != accidental {
            return "\(column(.user)) \(users) is not \(column(.intent)) \(intent) + \(column(.accidental)) \(accidental)"
        }
        if let intent = count(.intent), let completed = count(.completed), let early = count(.prematureRelease),
           let cancelled = count(.movementCancel), intent - completed - early != cancelled {
            return "\(column(.completed)) + \(column(.prematureRelease)) + \(column(.movementCancel)) is not \(column(.intent)) \(intent)"
        }
        if let early = count(.prematureRelease), let impatient = count(.prematureImpatience), let mismatched = count(.prematureMismatch),
           early - impatient < mismatched {
            return "\(column(.prematureImpatience)) + \(column(.prematureMismatch)) exceeds \(column(.prematureRelease)) \(early)"
        }
        return nil
    }

    /// The value at `percentile` (0–100) of a value's quantiles, in its integer units; nil without values (or
    /// without quantiles).
    func quantile(of value: HoldValue, atPercentile percentile: Double) -> Int64? {
        switch value.quantiles {
        case .completionTime: completionTime.value(atPercentile: percentile)
        case .holdTime: holdTime.value(atPercentile: percentile)
        case .pulses: pulses.value(atPercentile: percentile)
        case .mismatch: mismatch.value(atPercentile: percentile)
        case nil: nil
        }
    }

    /// What a value's quantile store allows its sums to be (`BucketCounts.sumBounds`), as `quantile(of:atPercentile:)`
    /// reads the store; nil without quantiles.
    func sumBounds(of value: HoldValue) -> SumBounds? {
        switch value.quantiles {
        case .completionTime: completionTime.sumBounds()
        case .holdTime: holdTime.sumBounds()
        case .pulses: pulses.sumBounds()
        case .mismatch: mismatch.sumBounds()
        case nil: nil
        }
    }

    /// The mean of a value over the holds that had it, with its 95 % interval, in reported units.
    func mean(of value: HoldValue) -> SampleMean {
        SampleMean(sum: sums[value.rawValue], squares: squares[value.rawValue], count: valueCounts[value.rawValue],
                   scale: value.scale)
    }

    /// A kept extreme in reported units; nil when no hold had the value (an extreme that starts infinite is
    /// finite once one had it; a pulse count's maximum starts at 0, so its count says).
    func maximum(of value: HoldValue) -> Double? {
        let largest = maxima[value.rawValue]
        guard largest.isFinite, valueCounts[value.rawValue] > 0 || !value.maximumStart.isFinite else { return nil }
        return largest * value.realScale
    }

    func minimum(of value: HoldValue) -> Double? {
        let smallest = minima[value.rawValue]
        return smallest.isFinite ? smallest * value.realScale : nil
    }
}

/// Sixteen values in place (a homogeneous tuple), read and written one at a time: a tally's counts, sums and
/// extremes, indexed by `HoldEvent` or `HoldValue`. An array would check uniqueness and bounds on every person, and
/// a SIMD vector is loaded and stored whole to change one lane.
struct Slots16<Element: BitwiseCopyable & Equatable & Sendable>: Equatable, Sendable {
    private var storage: (Element, Element, Element, Element, Element, Element, Element, Element,
                          Element, Element, Element, Element, Element, Element, Element, Element)

    init(repeating value: Element) {
        storage = (value, value, value, value, value, value, value, value,
                   value, value, value, value, value, value, value, value)
    }

    init(_ values: [Element], padding: Element) {
        self.init(repeating: padding)
        for (index, value) in values.prefix(16).enumerated() { self[index] = value }
    }

    subscript(index: Int) -> Element {
        @inline(__always) get {
            assert(index >= 0 && index < 16)
            return withUnsafeBytes(of: storage) {
                $0.load(fromByteOffset: index &* MemoryLayout<Element>.stride, as: Element.self)
            }
        }
        @inline(__always) set {
            assert(index >= 0 && index < 16)
            withUnsafeMutableBytes(of: &storage) {
                $0.storeBytes(of: newValue, toByteOffset: index &* MemoryLayout<Element>.stride, as: Element.self)
            }
        }
    }

    static func == (lhs: Slots16, rhs: Slots16) -> Bool { (0..<16).allSatisfy { lhs[$0] == rhs[$0] } }
}
