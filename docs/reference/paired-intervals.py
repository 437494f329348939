# Reference values for Tests/HoldSimulationTests/PairedIntervalTests.swift, computed by hand from the published
# formulas with NumPy/SciPy (not from HoldLab's code).
import numpy as np
from scipy import stats
z = stats.norm.ppf(0.975)
def bp(b, c, n):
    pb = (b + 1) / (n + 2); pc = (c + 1) / (n + 2); d = pb - pc
    h = z * np.sqrt((pb + pc - d * d) / (n + 2)); return max(-1, d - h), min(1, d + h)
for args in [(0,0,1500),(12,3,200),(50,0,50),(0,0,300),(1,0,10)]:
    print('BP', args, '%.15g %.15g' % bp(*args))
# Person-by-person delta method on augmented data: two pseudo-people in both designs, (1,0) and (0,1).
def ratio(people):
    # people: list of (y1 or None, y2 or None)
    people = people + [(1, 0), (0, 1)]
    y1 = np.array([p[0] for p in people if p[0] is not None], float)
    y2 = np.array([p[1] for p in people if p[1] is not None], float)
    R1, R2 = y1.mean(), y2.mean(); Z1, Z2 = len(y1), len(y2)
    u = [((p[0] - R1) / Z1 if p[0] is not None else 0) - ((p[1] - R2) / Z2 if p[1] is not None else 0) for p in people]
    v = np.sum(np.square(u)); h = z * np.sqrt(v); d = R1 - R2
    return max(-1, d - h), min(1, d + h)
# slow at seed 2: 1472 completed holds under both designs, 2 of them unseen under both.
slow2 = [(1, 1)] * 2 + [(0, 0)] * 1470
print('ratio slow2', '%.15g %.15g' % ratio(slow2))
# A design-dependent subset: 40 in both (3 unseen in design only, 1 in both), 10 completed under the design only
# (2 unseen), 5 under the baseline only (0 unseen).
mixed = [(1, 1)] + [(1, 0)] * 3 + [(0, 0)] * 36 + [(1, None)] * 2 + [(0, None)] * 8 + [(None, 0)] * 5
print('ratio mixed', '%.15g %.15g' % ratio(mixed))
# Newcombe's independent hybrid score for the mixed case's rates: 6 of 50 and 1 of 45.
def wilson(x, n):
    p = x / n; den = 1 + z * z / n; c = (p + z * z / (2 * n)) / den; h = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return c - h, c + h
def newcombe(x1, n1, x2, n2):
    p1, p2 = x1 / n1, x2 / n2; l1, u1 = wilson(x1, n1); l2, u2 = wilson(x2, n2)
    return p1 - p2 - np.hypot(p1 - l1, u2 - p2), p1 - p2 + np.hypot(u1 - p1, p2 - l2)
print('newcombe mixed', '%.15g %.15g' % newcombe(6, 50, 1, 45))
# Clopper-Pearson.
def cp(x, n):
    lo = 0 if x == 0 else stats.beta.ppf(0.025, x, n - x + 1); hi = 1 if x == n else stats.beta.ppf(0.975, x + 1, n - x)
    return lo, hi
for args in [(0, 10), (1, 300), (4, 325), (10, 10), (5, 10)]:
    print('CP', args, '%.15g %.15g' % cp(*args))
# Means: 3 people in both designs, one in the design only; Student t with min(Z1,Z2)-1 df, Welch-Satterthwaite.
pairs = [(10, 12), (20, 19), (35, 30), (50, None)]
y1 = np.array([p[0] for p in pairs if p[0] is not None], float); y2 = np.array([p[1] for p in pairs if p[1] is not None], float)
R1, R2 = y1.mean(), y2.mean(); Z1, Z2 = len(y1), len(y2)
u = [((p[0] - R1) / Z1 if p[0] is not None else 0) - ((p[1] - R2) / Z2 if p[1] is not None else 0) for p in pairs]
vp = np.sum(np.square(u)); v1 = np.sum((y1 - R1) ** 2) / Z1 ** 2; v2 = np.sum((y2 - R2) ** 2) / Z2 ** 2
tp = stats.t.ppf(0.975, min(Z1, Z2) - 1); nu = (v1 + v2) ** 2 / (v1 ** 2 / (Z1 - 1) + v2 ** 2 / (Z2 - 1))
tu = stats.t.ppf(0.975, nu); d = R1 - R2
print('mean diff %.15g paired %.15g %.15g unpaired %.15g %.15g nu %.15g' % (d, d - tp * np.sqrt(vp), d + tp * np.sqrt(vp),
      d - max(tu * np.sqrt(v1 + v2), tp * np.sqrt(vp)), d + max(tu * np.sqrt(v1 + v2), tp * np.sqrt(vp)), nu))
# Negatively correlated: everyone in both, y2 = 100 - y1.
y = np.array([1, 4, 2, 8, 5, 7, 3, 9], float); d_i = y - (100 - y); n = len(y)
vp = np.var(d_i) / n; v = np.var(y) / n
tp = stats.t.ppf(0.975, n - 1); nu = (2 * v) ** 2 / (2 * v ** 2 / (n - 1)); tu = stats.t.ppf(0.975, nu)
print('neg paired half %.15g welch half %.15g' % (tp * np.sqrt(vp), tu * np.sqrt(2 * v)))
# Positively correlated with a design-only person: the unpaired (Welch) interval is the wider.
pairs = [(10, 11), (20, 19), (35, 36), (50, 52), (15, None)]
y1 = np.array([p[0] for p in pairs if p[0] is not None], float); y2 = np.array([p[1] for p in pairs if p[1] is not None], float)
R1, R2 = y1.mean(), y2.mean(); Z1, Z2 = len(y1), len(y2)
u = [((p[0] - R1) / Z1 if p[0] is not None else 0) - ((p[1] - R2) / Z2 if p[1] is not None else 0) for p in pairs]
vp = np.sum(np.square(u)); v1 = np.sum((y1 - R1) ** 2) / Z1 ** 2; v2 = np.sum((y2 - R2) ** 2) / Z2 ** 2
tp = stats.t.ppf(0.975, min(Z1, Z2) - 1); nu = (v1 + v2) ** 2 / (v1 ** 2 / (Z1 - 1) + v2 ** 2 / (Z2 - 1))
tu = stats.t.ppf(0.975, nu); d = R1 - R2
print('pos diff %.15g paired half %.15g welch half %.15g nu %.15g' % (d, tp * np.sqrt(vp), tu * np.sqrt(v1 + v2), nu))
# Intervals 0.2 for means: two pseudo-people counted by both designs at the smallest and largest per-person
# difference (each the baseline's mean under the baseline, that much more under the design), the delta method
# person by person on the augmented list (the larger of its variance and the plain one), Student t with
# min(Z1, Z2) - 1 df; the unpaired interval is Welch's
# (original people, Welch-Satterthwaite df) centred on the same point, never narrower than the paired one.
def adjusted_mean(pairs):
    y1 = np.array([p[0] for p in pairs if p[0] is not None], float); y2 = np.array([p[1] for p in pairs if p[1] is not None], float)
    Z1, Z2 = len(y1), len(y2); R2 = y2.mean()
    d = [p[0] - p[1] for p in pairs if p[0] is not None and p[1] is not None]
    aug = list(pairs)
    if d and min(d) < max(d):
        aug += [(R2 + min(d), R2), (R2 + max(d), R2)]
    a1 = np.array([p[0] for p in aug if p[0] is not None], float); a2 = np.array([p[1] for p in aug if p[1] is not None], float)
    S1, S2 = a1.mean(), a2.mean(); W1, W2 = len(a1), len(a2)
    u = [((p[0] - S1) / W1 if p[0] is not None else 0) - ((p[1] - S2) / W2 if p[1] is not None else 0) for p in aug]
    y1m = y1.mean()
    plain = [((p[0] - y1m) / Z1 if p[0] is not None else 0) - ((p[1] - R2) / Z2 if p[1] is not None else 0) for p in pairs]
    c = S1 - S2; hp = stats.t.ppf(0.975, min(Z1, Z2) - 1) * np.sqrt(max(np.sum(np.square(u)), np.sum(np.square(plain))))
    v1 = np.sum((y1 - y1.mean()) ** 2) / Z1 ** 2; v2 = np.sum((y2 - R2) ** 2) / Z2 ** 2
    nu = (v1 + v2) ** 2 / (v1 ** 2 / (Z1 - 1) + v2 ** 2 / (Z2 - 1)); hu = max(stats.t.ppf(0.975, nu) * np.sqrt(v1 + v2), hp)
    return y1.mean() - R2, c, c - hp, c + hp, c - hu, c + hu
print('adjusted positive diff %.15g centre %.15g paired %.15g %.15g unpaired %.15g %.15g' % adjusted_mean([(10, 11), (20, 19), (35, 36), (50, 52), (15, None)]))
print('adjusted mixed diff %.15g centre %.15g paired %.15g %.15g unpaired %.15g %.15g' % adjusted_mean([(10, 12), (20, 19), (35, 30), (50, None)]))
print('adjusted negative diff %.15g centre %.15g paired %.15g %.15g unpaired %.15g %.15g' % adjusted_mean([(v, 100 - v) for v in [1, 4, 2, 8, 5, 7, 3, 9]]))
print('adjusted sparse diff %.15g centre %.15g paired %.15g %.15g unpaired %.15g %.15g' % adjusted_mean([(8333, 0)] * 3 + [(0, 0)] * 197))
