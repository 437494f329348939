#!/usr/bin/env python3
"""Cross-check `holdlab sensitivity` against SALib, the reference implementation.

usage: salib_check.py SAMPLES INDICES [SECOND_ORDER]

Reads the --samples file (parameters and simulate columns, one row per simulation in SALib's order) and the index
CSV holdlab wrote from it, runs SALib's sobol.analyze or morris.analyze on the same samples, and requires:
  * the point estimates (S1, ST, S2; mu, mu_star, sigma) equal to 1e-9 (relative to max(1, |value|)): the
    estimators are the same, so only rounding differs;
  * the 95 % half-widths within 20 % of SALib's (or both rounding noise, below the tolerance above): both are 1.96 × the standard deviation of bootstrap replicates,
    but drawn by different generators. The relative spread of an sd estimated from B replicates is about
    sqrt((kurtosis − 1)/(4B)): 1.6 % for normal replicates at B = 1,000, but an S2's replicates over 32 base rows are
    heavy-tailed, so .ci/salib asks both for B = 10,000.
Exits 1 on any disagreement, printing every comparison.
"""
import csv
import sys

import numpy as np
from SALib.analyze import morris, sobol

TOLERANCE = 1e-9
HALF_WIDTH_RATIO = 1.2


def read(path):
    provenance, rows = {}, []
    with open(path, newline="") as handle:
        lines = []
        for line in handle:
            if line.startswith("# "):
                key, _, value = line[2:].partition(":")
                provenance[key] = value.strip()
            elif line.strip():
                lines.append(line)
    reader = csv.DictReader(lines)
    rows = list(reader)
    return provenance, reader.fieldnames, rows


def problem_from(provenance):
    """The parameters and their bounds from '# sweep_design: …, vary k=lo:hi ; k2=lo:hi'."""
    vary = provenance["sweep_design"].split(", vary ", 1)[1].split(" ; ")
    names, bounds = [], []
    for text in vary:
        key, _, body = text.partition("=")
        if ":" not in body or "," in body:
            sys.exit(f"salib_check: {key} is a list ({body}); this check compares numeric ranges only")
        low, high = (float(x) for x in body.split(":")[:2])
        names.append(key)
        bounds.append([low, high])
    return {"num_vars": len(names), "names": names, "bounds": bounds}


def main():
    samples_path, indices_path = sys.argv[1], sys.argv[2]
    second_path = sys.argv[3] if len(sys.argv) > 3 else None
    provenance, fields, samples = read(samples_path)
    _, _, indices = read(indices_path)
    problem = problem_from(provenance)
    design = provenance["sweep_design"].split(",")[0]
    resamples = int(read(indices_path)[0]["sensitivity_bootstrap"].split()[0])
    columns = ["param_" + name.replace(".", "_") for name in problem["names"]]
    X = np.array([[float(row[c]) for c in columns] for row in samples])
    failures, checks = [], 0

    def compare(label, ours, theirs, relative=True):
        nonlocal checks
        checks += 1
        ours, theirs = float(ours), float(theirs)
        scale = max(1.0, abs(theirs)) if relative else 1.0
        ok = abs(ours - theirs) <= TOLERANCE * scale
        print(f"  {'ok ' if ok else 'BAD'} {label}: holdlab {ours:.12g}  SALib {theirs:.12g}")
        if not ok:
            failures.append(label)

    def compare_half_width(label, ours, theirs, estimate):
        nonlocal checks
        checks += 1
        ours, theirs = float(ours), float(theirs)
        # Every replicate equal (an effect the same on every trajectory): both widths are rounding noise.
        if max(ours, theirs) <= TOLERANCE * max(1.0, abs(float(estimate))):
            ok = True
        else:
            ok = 1 / HALF_WIDTH_RATIO <= (ours / theirs if theirs > 0 else np.inf) <= HALF_WIDTH_RATIO
        print(f"  {'ok ' if ok else 'BAD'} {label} 95 % half-width: holdlab {ours:.4g}  SALib {theirs:.4g}")
        if not ok:
            failures.append(label + " half-width")

    metrics = list(dict.fromkeys(row["metric"] for row in indices))
    second = {}
    if second_path:
        for row in read(second_path)[2]:
            second[(row["metric"], row["parameter_1"], row["parameter_2"])] = row
    for metric in metrics:
        Y = np.array([float(row[metric]) for row in samples])
        ours = {row["parameter"]: row for row in indices if row["metric"] == metric}
        print(f"{design} {metric} ({len(Y)} simulations, {resamples} resamples):")
        if design == "saltelli":
            result = sobol.analyze(problem, Y, calc_second_order=second_path is not None,
                                   num_resamples=resamples, seed=1)
            for j, name in enumerate(problem["names"]):
                row = ours[name]
                compare(f"S1 {name}", row["S1"], result["S1"][j])
                compare(f"ST {name}", row["ST"], result["ST"][j])
                compare_half_width(f"S1 {name}", float(row["S1_hi"]) - float(row["S1"]), result["S1_conf"][j], row["S1"])
                compare_half_width(f"ST {name}", float(row["ST_hi"]) - float(row["ST"]), result["ST_conf"][j], row["ST"])
            if second_path:
                for j, first in enumerate(problem["names"]):
                    for k in range(j + 1, problem["num_vars"]):
                        row = second[(metric, first, problem["names"][k])]
                        label = f"S2 {first} × {problem['names'][k]}"
                        compare(label, row["S2"], result["S2"][j, k])
                        compare_half_width(label, float(row["S2_hi"]) - float(row["S2"]), result["S2_conf"][j, k], row["S2"])
        elif design == "morris":
            levels = int(provenance["sensitivity_design"].split("p = ")[1].split()[0])
            result = morris.analyze(problem, X, Y, num_resamples=resamples, num_levels=levels, seed=1)
            for j, name in enumerate(problem["names"]):
                row = ours[name]
                compare(f"mu {name}", row["mu"], result["mu"][j])
                compare(f"mu_star {name}", row["mu_star"], result["mu_star"][j])
                compare(f"sigma {name}", row["sigma"], result["sigma"][j])
                compare_half_width(f"mu_star {name}", float(row["mu_star_hi"]) - float(row["mu_star"]),
                                   result["mu_star_conf"][j], row["mu_star"])
        else:
            sys.exit(f"salib_check: {samples_path} has design {design}, not saltelli or morris")
    if failures:
        print(f"salib_check: {len(failures)} of {checks} comparisons disagree: {', '.join(failures)}")
        return 1
    print(f"salib_check: all {checks} comparisons agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
