# Sourced by the cluster tests: start and stop a one-node Slurm cluster (munged, slurmctld, slurmd) on this
# machine, in a private directory, on loopback, with its own ports. Everything it starts is stopped by process id.
#
#   slurm_start DIR    sets SLURM_CONF and exports it; returns non-zero (having said why) if the cluster does not come up
#   slurm_stop         stops what slurm_start started (also run on EXIT by the caller's trap)

SLURM_PIDS=()

slurm_start() {
  local dir=$1
  local host cpus port
  host=$(hostname -s)
  cpus=$(nproc)
  # Ports from the process id, so two runs on one machine do not collide (6817/6818 are Slurm's defaults).
  port=$((20000 + ($$ % 2000) * 2))
  mkdir -p "$dir/state" "$dir/spool" "$dir/log"
  chmod 755 "$dir"
  # munge: its own key and socket (munged refuses to run as root without --force).
  dd if=/dev/urandom of="$dir/munge.key" bs=1024 count=1 status=none
  chmod 400 "$dir/munge.key"
  munged --force --key-file="$dir/munge.key" --socket="$dir/munge.socket" --pid-file="$dir/munged.pid" \
    --log-file="$dir/log/munged.log" --seed-file="$dir/munge.seed" || { echo "slurm: munged did not start" >&2; return 1; }
  SLURM_PIDS+=("$(cat "$dir/munged.pid")")
  cat > "$dir/slurm.conf" <<CONF
ClusterName=holdlabtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$dir/slurm.conf
  slurmctld -D -i -f "$SLURM_CONF" > "$dir/log/slurmctld.out" 2>&1 &
  SLURM_PIDS+=("$!")
  slurmd -D -f "$SLURM_CONF" > "$dir/log/slurmd.out" 2>&1 &
  SLURM_PIDS+=("$!")
  local waited=0
  until sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'; do
    sleep 1
    waited=$((waited + 1))
    if [ $waited -ge 90 ]; then
      echo "slurm: the node did not become idle in 90 s; logs in $dir/log:" >&2
      tail -n 20 "$dir"/log/*.log "$dir"/log/*.out >&2 || true
      return 1
    fi
  done
  echo "slurm: one-node cluster up after ${waited} s ($host, $cpus CPUs, ports $port-$((port + 1)))"
}

slurm_stop() {
  local pid
  for ((i = ${#SLURM_PIDS[@]} - 1; i >= 0; i--)); do
    pid=${SLURM_PIDS[i]}
    kill -TERM "$pid" 2>/dev/null || continue
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  done
  SLURM_PIDS=()
}
