#!/usr/bin/env bash
# Slurm 22.05, for real: a one-node cluster on this machine (Tests/Cluster/slurm-cluster.sh), the script that
# `--shards 3 --emit slurm` prints submitted with sbatch as printed, the merge job awaited, and the merged file
# compared byte for byte with the unsharded run; for a sweep and a simulation. Then a shard that fails: the merge
# job (afterok) must never run. Every daemon started here is stopped by its process id.
set -uo pipefail
. "$(dirname "$0")/common.sh"
for tool in slurmctld slurmd sbatch squeue sinfo munged; do
  command -v "$tool" >/dev/null 2>&1 || skip "$tool is not installed (apt-get install slurm-wlm munge)"
done
[ "$(id -u)" -eq 0 ] || skip "starting slurmd needs root"

work=$(mktemp -d)
chmod 755 "$work"
. "$(dirname "$0")/slurm-cluster.sh"
cleanup() {
  [ -n "${SLURM_CONF:-}" ] && scancel --quiet --user=root 2>/dev/null
  slurm_stop
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work"
start=$(date +%s)
slurm_start "$work/cluster" || { echo "FAILED: the one-node Slurm cluster did not start"; exit 1; }
echo "slurm: $(sbatch --version), holdlab $HOLDLAB_BIN, in $work"

# wait_for_jobs SECONDS: until the queue is empty.
wait_for_jobs() {
  local limit=$1 waited=0
  while [ -n "$(squeue -h -o %i 2>/dev/null)" ]; do
    sleep 1
    waited=$((waited + 1))
    if [ $waited -ge "$limit" ]; then echo "jobs still queued after $limit s:" >&2; squeue >&2; return 1; fi
  done
}

sweep=(sweep --design sobol --points 64 --vary gesture.minimumDuration=0.3:0.8 --vary fill.duration=0.4:1.0 --users 2000 --seed 3)
simulate=(simulate --profile hig-linear-bar --profile mismatched-fill --users 300000 --seed 11)
"$HOLDLAB_BIN" "${sweep[@]}" --out sweep-whole.csv
"$HOLDLAB_BIN" "${simulate[@]}" --out sim-whole.csv

"$HOLDLAB_BIN" "${sweep[@]}" --shards 3 --emit slurm --time 10 --out sweep.csv > sweep-job.sh
"$HOLDLAB_BIN" "${simulate[@]}" --shards 3 --emit slurm --cpus-per-task 2 --out sim.csv > sim-job.sh
submitted=$(date +%s%N)
check "sbatch accepts the sweep script as printed" sbatch --quiet sweep-job.sh
check "sbatch accepts the simulate script as printed" sbatch --quiet sim-job.sh
check "every job ends within 300 s" wait_for_jobs 300
echo "slurm: both runs (2 × (submit + 3 shards + merge)) done in $(elapsed "$submitted")"
check "sweep: merged rows identical to the unsharded run" same_rows sweep.csv sweep-whole.csv
check "simulate: merged rows identical to the unsharded run" same_rows sim.csv sim-whole.csv
check "sweep: 3 shards and 3 task logs" test "$(ls sweep.csv.shards/shard-*-of-3.csv | wc -l)" -eq 3 -a "$(ls sweep.csv.shards/slurm-*_*.log | wc -l)" -eq 3
# Each simulate task ran with --threads $SLURM_CPUS_PER_TASK = 2 (the wrapper below records it).
cat > recording-holdlab <<WRAP
#!/bin/bash
echo "\${SLURM_ARRAY_TASK_ID:-merge} cpus=\${SLURM_CPUS_PER_TASK:-unset} \$*" >> "$work/calls.txt"
case " \$* " in *" --shard 2/3 "*) [ -n "\${FAIL_SHARD_2:-}" ] && { echo "injected failure" >&2; exit 3; };; esac
exec "$HOLDLAB_BIN" "\$@"
WRAP
chmod +x recording-holdlab
HOLDLAB=$work/recording-holdlab sbatch --quiet sim-job.sh
wait_for_jobs 300
check "each task's --threads follows SLURM_CPUS_PER_TASK" test "$(grep -c 'cpus=2 simulate .* --threads 2 ' calls.txt)" -eq 3
check "the merge ran after the three tasks" test "$(tail -1 calls.txt | cut -d' ' -f3)" = merge

# A failing shard: the merge job depends on afterok, so it is never run and no merged file appears.
rm -f calls.txt
"$HOLDLAB_BIN" "${sweep[@]}" --shards 3 --emit slurm --out failed.csv > failed-job.sh
HOLDLAB=$work/recording-holdlab FAIL_SHARD_2=1 sbatch --quiet failed-job.sh
check "jobs end (the merge is cancelled) within 300 s" wait_for_jobs 300
check "a failing shard: no merged file" test ! -e failed.csv
check "a failing shard: merge never ran" test "$(grep -c ' merge ' calls.txt)" -eq 0
echo "slurm: whole test $(( $(date +%s) - start )) s"
summary
