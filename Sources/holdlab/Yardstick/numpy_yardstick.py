#!/usr/bin/env python3
"""The NumPy yardstick of issue 32: `holdlab simulate --population hold-only --profile hig-linear-bar` in NumPy.

    python3 numpy_yardstick.py --users N --seed S [--chunk 32768]

prints the same CSV header (52 columns, in order) and one data row with the same decimals per column as holdlab, and
on standard error one line `compute_seconds=X`: the time of the computation after the imports (Python's start-up
and `import numpy` are not in it). `holdlab benchmark` runs this file (embedded in the binary) for its
`ratio_to_numpy` column, and `.ci/yardstick-check` compares its columns with holdlab's, statistically: the two draw
from different generators (NumPy's PCG64 here), so no value is bit for bit the same.

Written from the definitions (docs/COLUMNS.md, docs/DOMAIN.md, the metric registry in
Sources/HoldSimulation/Metrics/Metric.swift and HoldContribution.swift, the model in Sources/HoldModel), the way a
NumPy user writes a Monte Carlo simulation: users in chunks of 2^15, float64 arrays preallocated once and reused with
`out=`, no Python loop over users, one thread. Times are whole nanoseconds after touch-down held in float64 (exact
below 2^53), as holdlab's integer clock. The sums behind the means are float64 (holdlab's are exact integers of
microseconds, billionths and counts), of nanoseconds for the feedback and retract times (holdlab rounds each to the
microsecond first: the means differ by far less than their standard errors).

The person, as Sources/HoldSimulation/Users/SyntheticUsers.swift draws one: a class from a uniform, a frame phase
from a uniform, a hold from the class's distribution (log-logistic by inverting its CDF at a uniform, lognormal). An
accidental person (intent: none) counts only toward whether the action fired, so only their hold is drawn; an
intentional person's hold, frames, feedback, retract and mismatch are computed in closed form from the profile.
"""
import os

# One thread: set before NumPy is imported (its BLAS would read them then).
for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"

import argparse  # noqa: E402
import math  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

# --- The case: Profiles/hig-linear-bar.yaml and Profiles/populations/hold-only.yaml, written out -------------------
PROFILE = "hig-linear-bar"
POPULATION = "hold-only"
# Profiles/hig-linear-bar.yaml: gesture {minimumDuration: 1.0}, trigger {source: gesture, offset: 0}; fill {start:
# touchDown, delay: 0, model: animation, curve: linear, duration: match (minimumDuration)}; retract {mode: animation,
# curve: easeOut, duration: 0.2, interruption: swiftui, afterTrigger: retract}; haptics {threshold: 0, minInterval: 0,
# onComplete: true}; display {refreshRate: 120} (resolution: the default 0.001).
MINIMUM_DURATION = 1.0
TRIGGER_OFFSET = 0.0
FILL_DELAY = 0.0
FILL_DURATION = MINIMUM_DURATION
RETRACT_DURATION = 0.2
RETRACT_BEZIER = (0.0, 0.0, 0.58, 1.0)  # easeOut (Sources/HoldModel/Curves/TimingCurve.swift)
REFRESH_RATE = 120.0
RESOLUTION = 0.001
PULSES_PER_COMPLETION = 1  # onComplete with threshold 0: the completion pulse alone, never dropped
# Profiles/populations/hold-only.yaml: intentional (weight 0.8, intent: confirm, behavior: hold, hold loglogistic
# scale 0.9 shape 6); accidental (weight 0.2, intent: none, behavior: hold, hold lognormal median 0.12 sigma 0.6).
# Neither class moves, reacts or anticipates: no movement cancel, no impatience, no mismatch release.
INTENT_WEIGHT = 0.8 / (0.8 + 0.2)
LOGLOGISTIC_SCALE, LOGLOGISTIC_SHAPE = 0.9, 6.0
LOGNORMAL_MU, LOGNORMAL_SIGMA = math.log(0.12), 0.6

# --- The columns: Metric.all after profile, population, users and seed, and their decimals ------------------------
COLUMNS = [
    ("profile", None), ("population", None), ("users", None), ("seed", None),
    ("intent_users", 0), ("completed", 0),
    ("completion_rate", 6), ("completion_rate_lo", 6), ("completion_rate_hi", 6),
    ("premature_release_rate", 6), ("premature_impatience_rate", 6), ("premature_mismatch_rate", 6),
    ("movement_cancel_rate", 6), ("accidental_users", 0),
    ("false_activation_rate", 6), ("false_activation_rate_lo", 6), ("false_activation_rate_hi", 6),
    ("completion_time_mean_ms", 3), ("completion_time_mean_ms_lo", 3), ("completion_time_mean_ms_hi", 3),
    ("completion_time_p50_ms", 3), ("completion_time_p90_ms", 3), ("completion_time_p99_ms", 3),
    ("hold_time_p50_ms", 3),
    ("pulses_mean", 3), ("pulses_mean_lo", 3), ("pulses_mean_hi", 3),
    ("pulses_p50", 0), ("pulses_p95", 0), ("pulses_max", 0), ("peak_pulse_rate_hz", 3),
    ("dropped_pulses_mean", 3), ("dropped_pulses_mean_lo", 3), ("dropped_pulses_mean_hi", 3),
    ("completed_unseen_rate", 6),
    ("mismatch_mean_ms", 3), ("mismatch_mean_ms_lo", 3), ("mismatch_mean_ms_hi", 3),
    ("mismatch_p50_ms", 3), ("mismatch_p95_ms", 3), ("mismatch_max_ms", 3),
    ("progress_at_trigger_mean", 6), ("progress_at_trigger_mean_lo", 6), ("progress_at_trigger_mean_hi", 6),
    ("progress_at_trigger_min", 6),
    ("no_feedback_rate", 6), ("first_feedback_ms", 3), ("first_feedback_ms_lo", 3), ("first_feedback_ms_hi", 3),
    ("retract_mean_ms", 3), ("retract_mean_ms_lo", 3), ("retract_mean_ms_hi", 3),
]

NS = 1e9  # nanoseconds per second: the integer clock of Sources/HoldModel/Time/Instant.swift


def nanoseconds(seconds):
    """Instant.nanoseconds: seconds to the nearest nanosecond (halves away from zero)."""
    return float(math.floor(seconds * NS + 0.5))


# --- HdrHistogram's layout at 4 significant digits (Sources/HoldSimulation/Metrics/HistogramLayout.swift) ----------
SUB_HALF_MAGNITUDE = 14  # subBucketCount = 2^ceil(log2(2·10^4)) = 2^15, half of it 2^14
SUB_HALF = 1 << SUB_HALF_MAGNITUDE
SUB_MASK = (1 << 15) - 1
QUANTILE_HIGHEST = 3_600_000_000  # an hour in µs: the quantiles' `highest` (Tally.swift)


def hdr_keys(values, out, smallest):
    """HdrHistogram's countsArrayIndex, plus HDR_KEY_BASE, of non-negative whole numbers held in float64 (up to the
    quantiles' highest; `smallest` is their minimum). From 2^15 on the index is (bucket + 1)·2^14 + (v >> bucket) −
    2^14 with bucket = bit length − 15: the float's exponent field and its top 14 mantissa bits, one shift of its
    bits. Below 2^15 the index is the value itself (buckets of width 1)."""
    np.right_shift(values.view(np.int64), 38, out=out)
    if smallest < 2 ** 15:  # a hold shorter than 32.768 ms: about one in 10⁹ intentional holds
        np.copyto(out, values.astype(np.int64) + HDR_KEY_BASE, where=values < 2 ** 15)
    return out


HDR_KEY_BASE = (1023 + 15 - 2) << SUB_HALF_MAGNITUDE  # the key of index 0 (see hdr_keys)


def hdr_value(index):
    bucket = (index >> SUB_HALF_MAGNITUDE) - 1
    sub = (index & (SUB_HALF - 1)) + SUB_HALF
    if bucket < 0:
        sub -= SUB_HALF
        bucket = 0
    return sub << bucket


def hdr_highest_equivalent(value):
    bucket = (value | SUB_MASK).bit_length() - 15
    sub = value >> bucket
    width = 1 << (bucket + 1 if sub >= SUB_MASK + 1 else bucket)
    return value + width - 1


def value_at_percentile(counts, smallest, largest, percentile):
    """HdrHistogram's valueAtPercentile as BucketCounts.value(atPercentile:) reads it: the highest value equivalent
    to the bucket where the running count reaches the rank, clamped to the exact extremes. None without values."""
    total = int(counts.sum())
    if total == 0:
        return None
    if percentile == 0:
        return smallest
    if percentile >= 100:
        return largest
    requested = min(max(np.nextafter(percentile, 0.0), 0.0), 100.0)
    rank = max(1, math.ceil(requested * total / 100))
    index = int(np.searchsorted(np.cumsum(counts), rank))
    return max(min(hdr_highest_equivalent(hdr_value(index)), largest), smallest)


class BatchedHistogram:
    """Counts by bin (`key − base`), a batch of many chunks' keys at a time: one bincount per batch."""

    def __init__(self, capacity, base):
        self.pending = np.empty(capacity, dtype=np.int64)
        self.used = 0
        self.base = base
        self.counts = np.zeros(0, dtype=np.int64)

    def slot(self, count):
        """Where the next `count` keys go."""
        if self.used + count > len(self.pending):
            self.flush()
        start = self.used
        self.used += count
        return self.pending[start:self.used]

    def flush(self):
        if self.used == 0:
            return
        keys = self.pending[:self.used]
        keys -= self.base
        batch = np.bincount(keys)
        if len(batch) < len(self.counts):
            batch, self.counts = self.counts, batch
        batch[:len(self.counts)] += self.counts
        self.counts = batch
        self.used = 0


# --- Intervals -----------------------------------------------------------------------------------------------------
Z95 = 1.959963984540054
# t(0.975, ν) for ν = 1…10; beyond, the Cornish–Fisher expansion (error below 1e-6 from ν = 11 on).
T975_SMALL = [12.706204736, 4.302652730, 3.182446305, 2.776445105, 2.570581836, 2.446911851, 2.364624252,
              2.306004135, 2.262157163, 2.228138852]


def t975(nu):
    if nu <= 10:
        return T975_SMALL[int(nu) - 1]
    z = Z95
    return (z + (z**3 + z) / 4 / nu + (5 * z**5 + 16 * z**3 + 3 * z) / 96 / nu**2
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384 / nu**3
            + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160 / nu**4)


def wilson(successes, trials):
    """Proportion.wilson95 (Sources/HoldLabIO/Results/Proportion.swift)."""
    if trials == 0:
        return None, None
    n, p, z = float(trials), successes / trials, Z95
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


class Mean:
    """A mean with its 95 % Student t interval from Σ(y − c) and Σ(y − c)² (SampleMean.swift), y in integer units."""

    def __init__(self, shift, scale):
        self.shift, self.scale = shift, scale
        self.n, self.s1, self.s2 = 0, 0.0, 0.0

    def add_constant(self, value, count):
        d = value - self.shift
        self.n += count
        self.s1 += d * count
        self.s2 += d * d * count

    def add_shifted(self, shifted, count):
        """Values already shifted by `shift` (an array, used in place)."""
        self.n += count
        self.s1 += float(shifted.sum())
        self.s2 += float(np.dot(shifted, shifted))

    def result(self):
        if self.n == 0:
            return None, None, None
        mean = (self.shift + self.s1 / self.n) / self.scale
        if self.n < 2:
            return mean, None, None
        variance = max(0.0, self.s2 - self.s1 * self.s1 / self.n) / (self.n - 1)
        half = t975(self.n - 1) * math.sqrt(variance / self.n) / self.scale
        return mean, mean - half, mean + half


# --- The retract's easeOut curve, and the model constants ------------------------------------------------------------
def bezier_xy(t):
    x1, y1, x2, y2 = RETRACT_BEZIER
    s = 1 - t
    return 3 * s * s * t * x1 + 3 * s * t * t * x2 + t**3, 3 * s * s * t * y1 + 3 * s * t * t * y2 + t**3


def first_clock(level, duration):
    """BezierFill.firstInstant for a linear fill: the first whole nanosecond after its start whose progress
    (clock / duration) reaches `level`, by bisection."""
    low, high = 0, int(duration)
    while high - low > 1:
        mid = (low + high) // 2
        if mid / duration >= level:
            high = mid
        else:
            low = mid
    return float(low if low / duration >= level else high)


def model():
    """What does not depend on the person, computed once from the profile."""
    m = {}
    m["interval"] = NS / REFRESH_RATE  # FrameRate: frame k is shown at nearest((k + phase)·interval)
    m["frames_per_ns"] = REFRESH_RATE / NS
    recognition = nanoseconds(MINIMUM_DURATION)
    m["trigger"] = recognition + nanoseconds(TRIGGER_OFFSET)  # trigger.source: gesture
    m["fill_start"] = nanoseconds(FILL_DELAY)  # fill.start: touchDown
    m["fill_duration"] = nanoseconds(FILL_DURATION)
    visible, full = RESOLUTION, 1 - RESOLUTION
    m["visible_level"], m["full_level"] = visible, full
    # The first frames that show the linear fill started and full: the first frames at or after these instants.
    m["visible_at"] = m["fill_start"] + first_clock(visible, m["fill_duration"])
    m["full_at"] = m["fill_start"] + first_clock(full, m["fill_duration"])
    retract = nanoseconds(RETRACT_DURATION)
    m["retract"] = retract
    fill_end = m["fill_start"] + m["fill_duration"]
    assert m["trigger"] >= fill_end, "the closed forms below assume the fill is full when the action fires"
    # After a release at R the bar shows held(t)·(1 − e((t − R)/retract)) (swiftui interruption), held(t) = min(1,
    # (t − start)/duration), e the easeOut curve. It only decreases, so it is first drawn empty `empty_after(R)` ns
    # after the release: found on the curve's parameter by bisection for releases on a grid up to the fill's end
    # (held is 1 from there on), then tabulated finer (RetractPlan.firstEmptyFrame searches frames instead).
    coarse = 4096
    releases = m["fill_start"] + np.arange(coarse + 1) * (m["fill_duration"] / coarse)
    low, high = np.zeros(coarse + 1), np.ones(coarse + 1)
    for _ in range(48):
        mid = (low + high) / 2
        x, y = bezier_xy(mid)
        held = np.clip((releases + x * retract - m["fill_start"]) / m["fill_duration"], 0, 1)
        empty = held * (1 - y) < visible
        high = np.where(empty, mid, high)
        low = np.where(empty, low, mid)
    thresholds = bezier_xy(high)[0] * retract
    thresholds[releases - m["fill_start"] < visible * m["fill_duration"]] = 0.0  # empty at the release already
    # Read without interpolation: 2^16 cells of the fill (15 µs), each with the threshold at its middle (within
    # 120 ns of the exact one over the cell for releases from 0.1 s on; a frame is 8.3 ms), and a last cell for
    # every release from the fill's end on.
    cells = 1 << 16
    middles = m["fill_start"] + (np.arange(cells) + 0.5) * (m["fill_duration"] / cells)
    m["empty_table"] = np.append(np.interp(middles, releases, thresholds), thresholds[-1])
    m["empty_cells_per_ns"] = cells / m["fill_duration"]
    # A completed hold released at R no later than its held first full frame F sees it full at F (and never after)
    # when 1 − e((F − R)/retract) ≥ the full level: F − R at most `full_window` ns.
    low, high = 0.0, 1.0
    for _ in range(60):
        mid = (low + high) / 2
        if 1 - bezier_xy(mid)[1] >= full:
            low = mid
        else:
            high = mid
    m["full_window"] = math.floor(bezier_xy(low)[0] * retract)
    return m


# --- The simulation ------------------------------------------------------------------------------------------------
def simulate(users, seed, chunk):
    m = model()
    rng = np.random.default_rng(seed)  # PCG64
    interval, frames_per_ns, trigger = m["interval"], m["frames_per_ns"], m["trigger"]
    fill_start, fill_duration = m["fill_start"], m["fill_duration"]
    table, cells_per_ns = m["empty_table"], m["empty_cells_per_ns"]
    # Frame k is shown at nearest((k + phase)·interval); the first at or after an instant x is k = ⌈x/interval −
    # phase⌉. In frames: where the fill first looks started and full, and the trigger.
    visible_frames = m["visible_at"] * frames_per_ns
    full_frames = m["full_at"] * frames_per_ns
    # The last frame at or before the trigger: ⌊trigger/interval − phase⌋ (for a phase above 0; when trigger/interval
    # is whole, a phase of exactly 0 would show the next one at the trigger itself).
    k_trigger = math.floor(trigger * frames_per_ns) - (1 if (trigger * frames_per_ns).is_integer() else 0)
    # An accidental person's hold is lognormal: e^(μ + σΦ⁻¹(u)) at a uniform u (inverse transform). The action fires
    # when the hold, on the integer clock, reaches the trigger: nearest(hold·10⁹) ≥ trigger ⇔ u ≥ Φ((ln((trigger −
    # ½)/10⁹) − μ)/σ), so the comparison needs no Φ⁻¹ per person.
    u_fires = 0.5 * math.erfc(-((math.log((trigger - 0.5) / NS) - LOGNORMAL_MU) / LOGNORMAL_SIGMA) / math.sqrt(2))
    log_scale_ns = math.log(LOGLOGISTIC_SCALE * NS)
    # Mismatch (µs) lies within a frame of trigger − full_at: bins of single microseconds from −2^15.
    mismatch_offset = 1 << 15
    assert abs(trigger - m["full_at"]) + interval < 1000 * (mismatch_offset - 1)

    def buffer():
        return np.empty(chunk)
    classes = buffer()
    u, phase, offset, release, work, frame, cell_values = (buffer() for _ in range(7))
    comp_offset, comp_release, comp_work, comp_frame = (buffer() for _ in range(4))
    cells = np.empty(chunk, dtype=np.intp)
    mask = np.empty(chunk, dtype=bool)
    hold_histogram = BatchedHistogram(1 << 20, HDR_KEY_BASE)
    mismatch_histogram = BatchedHistogram(1 << 20, -mismatch_offset)
    hold_min, hold_max, progress_min = math.inf, 0.0, math.inf

    intent_users = completed = false_activations = no_feedback = unseen = 0
    completion_time = Mean(shift=trigger / 1000, scale=1000)
    pulses = Mean(shift=PULSES_PER_COMPLETION, scale=1)
    dropped = Mean(shift=0, scale=1)
    mismatch = Mean(shift=0, scale=1000)
    progress = Mean(shift=1e9, scale=1e9)
    first_feedback = Mean(shift=0, scale=1e6)
    retract_mean = Mean(shift=0, scale=1e6)

    done = 0
    while done < users:
        n = min(chunk, users - done)
        done += n
        # Who is who: a class per person.
        C = classes[:n]
        rng.random(out=C)
        k = int(np.count_nonzero(np.less(C, INTENT_WEIGHT, out=mask[:n])))
        a = n - k
        intent_users += k
        # Accidental people: whether their hold reached the trigger.
        if a:
            A = classes[:a]
            rng.random(out=A)
            false_activations += int(np.count_nonzero(A >= u_fires))
        if not k:
            continue
        U, PH, P, R, W, F, G = (x[:k] for x in (u, phase, offset, release, work, frame, cell_values))
        K = cells[:k]
        # Intentional people: a frame phase, and the log-logistic hold as its release instant on the integer clock,
        # R = nearest(scale·exp((ln u − ln(1 − u))/shape)·10⁹).
        rng.random(out=PH)
        rng.random(out=U)
        np.subtract(1.0, U, out=W)
        np.divide(U, W, out=W)
        np.log(W, out=W)
        W *= 1 / LOGLOGISTIC_SHAPE
        W += log_scale_ns
        np.exp(W, out=W)
        W += 0.5
        np.floor(W, out=R)
        # Hold time (touch-down to release) in µs, rounded half up, into the histogram.
        np.add(R, 500.0, out=W)
        W *= 1e-3  # never below the quotient: 0.001 rounds up in binary
        np.floor(W, out=W)
        hold_min = min(hold_min, float(W.min()))
        hold_max = max(hold_max, float(W.max()))
        if hold_max > QUANTILE_HIGHEST:
            np.minimum(W, QUANTILE_HIGHEST, out=W)
        hdr_keys(W, hold_histogram.slot(k), hold_min)
        # The phase as an offset of the frames in ns, with the ½ of the rounding to the nearest nanosecond: frame k
        # is shown at ⌊k·interval + P⌋.
        np.multiply(PH, interval, out=P)
        P += 0.5
        # The first frame that shows the fill started; feedback while the finger was down when it is before the
        # release (the trigger, the other feedback, comes later).
        np.subtract(visible_frames, PH, out=F)
        np.ceil(F, out=F)
        F *= interval
        F += P
        np.floor(F, out=F)
        np.less_equal(R, F, out=mask[:k])
        silent = int(np.count_nonzero(mask[:k]))
        no_feedback += silent
        if silent:
            F[mask[:k]] = 0.0  # no feedback: out of the mean (counted above)
        first_feedback.add_shifted(F, k - silent)
        # The retract: the first frame drawn empty, the first frame at or after R + empty_after(R), the table's cell
        # of the release (the last cell from the fill's end on).
        np.subtract(R, fill_start, out=W) if fill_start else np.copyto(W, R)
        W *= cells_per_ns
        np.copyto(K, W, casting="unsafe")
        np.take(table, K, out=G, mode="clip")
        G += R
        G *= frames_per_ns
        G -= PH
        np.ceil(G, out=G)
        G *= interval
        G += P
        np.floor(G, out=G)
        G -= R
        retract_mean.add_shifted(G, k)
        # Completed holds: released at or after the trigger.
        np.greater_equal(R, trigger, out=mask[:k])
        which = np.flatnonzero(mask[:k])
        c = len(which)
        if not c:
            continue
        completed += c
        CP, CR, CW, CF = comp_offset[:c], comp_release[:c], comp_work[:c], comp_frame[:c]
        np.take(P, which, out=CP)
        np.take(R, which, out=CR)
        # The first frame that draws the held fill full: ⌈full_frames − phase⌉ (the phase back from the offset).
        np.divide(CP, interval, out=CF)
        np.subtract(full_frames + 0.5 / interval, CF, out=CF)
        np.ceil(CF, out=CF)
        CF *= interval
        CF += CP
        np.floor(CF, out=CF)
        # Seen full: before the release, or on that frame during the first full_window ns of the retract.
        np.subtract(CF, CR, out=CW)
        unseen_mask = mask[:c]
        np.greater(CW, m["full_window"], out=unseen_mask)
        blind = int(np.count_nonzero(unseen_mask))
        unseen += blind
        # Mismatch: trigger − that frame, in µs rounded half up, of the holds that looked full.
        np.subtract(trigger + 500.0, CF, out=CW)
        CW /= 1000.0
        np.floor(CW, out=CW)
        seen = CW[~unseen_mask] if blind else CW
        mismatch.add_shifted(seen, c - blind)
        np.copyto(mismatch_histogram.slot(c - blind), seen, casting="unsafe")
        # Progress shown when the action fired: the last frame at or before the trigger, in billionths.
        np.add(CP, k_trigger * interval, out=CW)
        np.floor(CW, out=CW)
        if fill_start or fill_duration != 1e9:
            CW -= fill_start
            CW *= 1e9 / fill_duration
        if not (fill_start <= trigger - interval and trigger <= fill_start + fill_duration):
            np.clip(CW, 0.0, 1e9, out=CW)  # the frame is not within the fill
        progress_min = min(progress_min, float(CW.min()) / 1e9)
        CW -= progress.shift
        progress.add_shifted(CW, c)

    hold_histogram.flush()
    mismatch_histogram.flush()
    mismatch_counts = np.zeros(2 * mismatch_offset, dtype=np.int64)
    mismatch_counts[:len(mismatch_histogram.counts)] = mismatch_histogram.counts
    # Every completed hold fired at the trigger and played its one pulse, none dropped.
    completion_time.add_constant(trigger / 1000, completed)
    pulses.add_constant(PULSES_PER_COMPLETION, completed)
    dropped.add_constant(0, completed)
    return dict(
        m=m, intent=intent_users, completed=completed, accidental=users - intent_users,
        false_activations=false_activations, no_feedback=no_feedback, unseen=unseen,
        completion_time=completion_time, pulses=pulses, dropped=dropped, mismatch=mismatch, progress=progress,
        first_feedback=first_feedback, retract=retract_mean, hold_counts=hold_histogram.counts,
        hold_min=hold_min, hold_max=min(hold_max, QUANTILE_HIGHEST), mismatch_counts=mismatch_counts,
        mismatch_offset=mismatch_offset, progress_min=progress_min)


def signed_quantile(counts, offset, percentile):
    """SignedQuantiles.value(atPercentile:) for values whose magnitudes are below 2^15 (exact buckets): negatives
    and non-negatives as two histograms of magnitudes."""
    total = int(counts.sum())
    if total == 0:
        return None
    negative = counts[:offset][::-1]  # magnitude 1 at index 1 … of the negatives
    negative = np.concatenate(([0], negative[:-1])) if len(negative) else negative
    positive = counts[offset:]
    negatives = int(negative.sum())
    rank = max(1, math.ceil(percentile / 100 * total))

    def extremes(part):
        nonzero = np.nonzero(part)[0]
        smallest = 0 if part[0] > 0 else int(nonzero[nonzero > 0][0]) if len(nonzero) else 0
        return smallest, int(nonzero[-1]) if len(nonzero) else 0

    if rank <= negatives:
        from_top = (negatives - rank + 1) / negatives * 100
        lo, hi = extremes(negative)
        return -value_at_percentile(negative, lo, hi, from_top)
    positives = total - negatives
    lo, hi = extremes(positive)
    return value_at_percentile(positive, lo, hi, (rank - negatives) / positives * 100)


def row(users, seed, r):
    intent, completed, accidental = r["intent"], r["completed"], r["accidental"]
    rate = lambda s, t: s / t if t else None  # noqa: E731
    completion_lo, completion_hi = wilson(completed, intent)
    false_rate = rate(r["false_activations"], accidental)
    false_lo, false_hi = wilson(r["false_activations"], accidental)
    ct = r["completion_time"].result()
    trigger_us = int(r["m"]["trigger"] // 1000)
    completion_quantiles = [trigger_us / 1000 if completed else None] * 3  # every completed hold fires at it
    if completed:  # one value in one bucket: its highest equivalent, clamped to the exact extremes
        key = hdr_keys(np.array([float(trigger_us)]), np.empty(1, np.int64), trigger_us)[0]
        counts = np.zeros(key - HDR_KEY_BASE + 1, np.int64)
        counts[-1] = completed
        completion_quantiles = [value_at_percentile(counts, trigger_us, trigger_us, p) / 1000 for p in (50, 90, 99)]
    hold_counts = r["hold_counts"]
    hold_smallest = 0 if len(hold_counts) and hold_counts[0] > 0 else r["hold_min"]
    hold_p50 = value_at_percentile(hold_counts, hold_smallest, int(r["hold_max"]), 50) if intent else None
    pm = r["pulses"].result()
    dm = r["dropped"].result()
    mm = r["mismatch"].result()
    counts, offset = r["mismatch_counts"], r["mismatch_offset"]
    seen = np.nonzero(counts)[0]
    mismatch_max = (seen[-1] - offset) / 1000 if len(seen) else None  # µs-exact frames: the ms maximum to 3 decimals
    m50 = signed_quantile(counts, offset, 50)
    m95 = signed_quantile(counts, offset, 95)
    pr = r["progress"].result()
    ff = r["first_feedback"].result()
    rt = r["retract"].result()
    with_fill = completed  # every completed hold of a control with a fill
    values = [
        PROFILE, POPULATION, users, seed,
        intent, completed,
        rate(completed, intent), completion_lo, completion_hi,
        rate(intent - completed, intent), rate(0, intent), rate(0, intent), rate(0, intent),
        accidental, false_rate, false_lo, false_hi,
        *ct, *completion_quantiles, None if hold_p50 is None else hold_p50 / 1000,
        *pm, *([PULSES_PER_COMPLETION] * 3 if completed else [None] * 3), None,
        *dm,
        rate(r["unseen"], with_fill),
        *mm, None if m50 is None else m50 / 1000, None if m95 is None else m95 / 1000, mismatch_max,
        *pr, r["progress_min"] if completed else None,
        rate(r["no_feedback"], intent), *ff, *rt,
    ]
    assert len(values) == len(COLUMNS)
    fields = []
    for (name, decimals), value in zip(COLUMNS, values):
        if decimals is None:
            fields.append(str(value))
        elif value is None or not math.isfinite(value):
            fields.append("NaN")
        else:
            text = "%.*f" % (decimals, value)
            if text.startswith("-") and set(text[1:]) <= {"0", "."}:
                text = text[1:]  # CSV.number: no negative zero
            fields.append(text)
    return ",".join(fields)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=1 << 15)
    args = parser.parse_args()
    if args.users < 1 or args.chunk < 1:
        parser.error("--users and --chunk must be at least 1")
    start = time.perf_counter()
    result = simulate(args.users, args.seed, args.chunk)
    line = row(args.users, args.seed, result)
    seconds = time.perf_counter() - start
    sys.stdout.write(",".join(name for name, _ in COLUMNS) + "\n" + line + "\n")
    sys.stdout.flush()
    print(f"compute_seconds={seconds:.6f}", file=sys.stderr)


if __name__ == "__main__":
    main()
