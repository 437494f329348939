#!/usr/bin/env bash
# GNU parallel, for real: `--shards 4 --emit parallel --jobs 4` for a sweep and a simulation, run as printed, each
# merged file compared byte for byte with the unsharded run; then the same through --sshloginfile naming this
# machine (':'), and a failing shard that must stop the run before any merge.
set -uo pipefail
. "$(dirname "$0")/common.sh"
command -v parallel >/dev/null 2>&1 || skip "GNU parallel is not installed (apt-get install parallel)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
echo "parallel: $(parallel --version | head -1), holdlab $HOLDLAB_BIN, in $work"

sweep=(sweep --design sobol --points 64 --vary gesture.minimumDuration=0.3:0.8 --vary fill.duration=0.4:1.0 --users 2000 --seed 3)
# Two Timer fills: the --set (braces and all, through parallel) reaches a key both read.
simulate=(simulate --profile kikocard-accelerating --profile kikocard-article-latency --users 200000 --seed 7
          --set 'fill.timer.latency={dist: exponential, mean: 0.004}')

"$HOLDLAB_BIN" "${sweep[@]}" --out sweep-whole.csv
"$HOLDLAB_BIN" "${simulate[@]}" --out sim-whole.csv

"$HOLDLAB_BIN" "${sweep[@]}" --shards 4 --emit parallel --jobs 4 --out sweep.csv > sweep-job.sh
start=$(date +%s%N)
check "sweep: the printed script runs" bash sweep-job.sh
echo "sweep: 4 shards in $(elapsed "$start")"
check "sweep: merged rows identical to the unsharded run" same_rows sweep.csv sweep-whole.csv
check "sweep: 4 shard files" test "$(ls sweep.csv.shards | wc -l)" -eq 4

"$HOLDLAB_BIN" "${simulate[@]}" --shards 4 --emit parallel --jobs 4 --out sim.csv > sim-job.sh
check "simulate: the printed script runs" bash sim-job.sh
check "simulate: merged rows identical to the unsharded run" same_rows sim.csv sim-whole.csv

# An output named with parallel's replacement strings ({}, {.}) and sbatch's pattern character: parallel is given
# the shard number alone, so the names reach holdlab as written.
"$HOLDLAB_BIN" "${simulate[@]}" --shards 3 --emit parallel --jobs 3 --out 'sim{}{.}%j.csv' > braces-job.sh
check "simulate --out 'sim{}{.}%j.csv': the printed script runs" bash braces-job.sh
check "simulate --out 'sim{}{.}%j.csv': merged rows identical to the unsharded run" same_rows 'sim{}{.}%j.csv' sim-whole.csv

echo "4/:" > nodes.txt
"$HOLDLAB_BIN" "${sweep[@]}" --shards 4 --emit parallel --sshloginfile nodes.txt --out ssh.csv > ssh-job.sh
check "sweep through --sshloginfile (this machine): script runs" bash ssh-job.sh
check "sweep through --sshloginfile: merged rows identical" same_rows ssh.csv sweep-whole.csv

# A shard that fails: HOLDLAB points at a wrapper that fails shard 2; parallel halts and nothing is merged.
cat > failing-holdlab <<WRAP
#!/bin/bash
case " \$* " in *" --shard 2/4 "*) echo "injected failure" >&2; exit 3;; esac
exec "$HOLDLAB_BIN" "\$@"
WRAP
chmod +x failing-holdlab
"$HOLDLAB_BIN" "${sweep[@]}" --shards 4 --emit parallel --jobs 4 --out failed.csv > failed-job.sh
HOLDLAB=$work/failing-holdlab bash failed-job.sh 2>/dev/null
check "a failing shard fails the script" test $? -ne 0
check "a failing shard: nothing merged" test ! -e failed.csv
summary
