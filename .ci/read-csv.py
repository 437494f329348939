#!/usr/bin/env python3
"""Reads holdlab's CSV with pandas and DuckDB as docs/DATA-TOOLS.md says to (issue 16): a summary, a sweep, a per-user file and
a fit, with their '#' provenance lines (pandas: comment="#"; DuckDB: as is) and with --no-comments (pandas: default
options). Every column must arrive with its name, every row, and the numeric columns as numbers (NaN as missing).

Usage: .ci/read-csv.py HOLDLAB   (run by .ci/run with pandas and duckdb installed)
"""
import os
import subprocess
import sys
import tempfile

import duckdb
import pandas

holdlab = os.path.abspath(sys.argv[1])
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
env = dict(os.environ, HOLDLAB_PROFILES=os.path.join(root, "Profiles"))
failures = []


def run(*arguments):
    subprocess.run([holdlab, *arguments], check=True, env=env, stdout=subprocess.DEVNULL)


def header_and_rows(path):
    lines = [line for line in open(path, encoding="utf-8").read().splitlines() if line and not line.startswith("#")]
    return lines[0].split(","), len(lines) - 1


def check(name, path, numeric):
    columns, rows = header_and_rows(path)
    frames = {"pandas comment='#'": pandas.read_csv(path, comment="#")}
    bare = path + ".bare.csv"
    with open(bare, "w", encoding="utf-8") as out:
        out.writelines(line for line in open(path, encoding="utf-8") if not line.startswith("#"))
    frames["pandas default (--no-comments)"] = pandas.read_csv(bare)
    frames["duckdb read_csv"] = duckdb.sql(f"SELECT * FROM read_csv('{path}')").df()
    for reader, frame in frames.items():
        where = f"{name} via {reader}"
        if list(frame.columns) != columns:
            failures.append(f"{where}: columns {list(frame.columns)[:5]}… differ from the header {columns[:5]}…")
        if len(frame) != rows:
            failures.append(f"{where}: {len(frame)} rows, the file has {rows}")
        for column in numeric:
            if not pandas.api.types.is_numeric_dtype(frame[column]):
                failures.append(f"{where}: {column} is {frame[column].dtype}, not a number")
    print(f"read-csv: {name}: {rows} rows × {len(columns)} columns read by pandas and DuckDB")


with tempfile.TemporaryDirectory() as directory:
    os.chdir(directory)
    run("simulate", "--users", "3000", "--profile", "hig-linear-bar", "--profile", "static-long-press",
        "--out", "summary.csv", "--per-user", "users.csv")
    run("simulate", "--users", "3000", "--no-comments", "--out", "bare.csv")
    run("sweep", "--vary", "gesture.minimumDuration=0.5:1.0:0.25", "--users", "2000", "--out", "sweep.csv")
    run("fit", "users.csv", "--column", "press_end_ms", "--bootstrap", "0", "--out", "fit.csv")
    check("simulate summary", "summary.csv", ["completion_rate", "completion_time_mean_ms", "peak_pulse_rate_hz"])
    check("simulate --per-user", "users.csv", ["release_ms", "cancel_ms", "first_full_frame_ms", "retract_ms"])
    check("sweep", "sweep.csv", ["param_gesture_minimumDuration", "false_activation_rate"])
    check("fit", "fit.csv", ["aic", "zeta", "tau_se"])
    frame = pandas.read_csv("bare.csv")
    if list(frame.columns)[:3] != ["profile", "population", "users"]:
        failures.append("simulate --no-comments: pandas with default options does not see the header first")

if failures:
    print("read-csv: FAILED\n  " + "\n  ".join(failures), file=sys.stderr)
    sys.exit(1)
print("read-csv: every file reads in pandas and DuckDB")
