#!/usr/bin/env bash
# The README's Slurm array script submitted unchanged with sbatch to a real Slurm cluster
# on this machine: Debian's slurm-wlm (slurmctld and slurmd, one node, 64 CPUs declared
# so that eight tasks of `--cpus-per-task=8` run at once) and munge, with their own
# configuration, keys, ports and state in a scratch directory.
#
# 1. The Tetris Cube: 100 array tasks, each `fila solve --shard I/100` with a checkpoint;
#    `fila merge` of their outputs gives 9839.
# 2. The one-sided pentominoes in 18x5: one task is requeued while its `fila solve` runs
#    (`scontrol requeue`: Slurm stops it with SIGTERM, on which fila writes its checkpoint,
#    and runs it again, where the script resumes from the checkpoint); the merge gives
#    686628 and the task shows `Restarts=1`.
#
# Usage (as root, after `cargo build --release`): tests/cluster/slurm.sh
# Needs slurmctld, slurmd, sbatch, squeue, scontrol, munged and munge (Debian: slurm-wlm
# munge). Exits non-zero, saying why, when a check fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
bin=$repo/target/release
for tool in slurmctld slurmd sbatch squeue scontrol munged munge; do
    command -v "$tool" >/dev/null || { echo "slurm.sh: $tool is missing" >&2; exit 2; }
done
[ -x "$bin/fila" ] || { echo "slurm.sh: $bin/fila is missing (cargo build --release)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "slurm.sh: the daemons run as root here" >&2; exit 2; }

tmp=$(mktemp -d /tmp/fila-slurm.XXXXXX)
export SLURM_CONF=$tmp/slurm.conf
teardown() {
    for pid in "$tmp"/*.pid; do
        [ -f "$pid" ] && kill "$(cat "$pid")" 2>/dev/null || true
    done
    sleep 1
    rm -rf "$tmp"
}
trap teardown EXIT

# munge, on a socket and key of its own.
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 status=none
chmod 0400 "$tmp/munge.key"
munged --force --key-file="$tmp/munge.key" --socket="$tmp/munge.sock" \
    --pid-file="$tmp/munged.pid" --log-file="$tmp/munged.log" --seed-file="$tmp/munged.seed"
munge --socket="$tmp/munge.sock" -n >/dev/null

node=$(hostname -s)
mkdir -p "$tmp/ctld" "$tmp/d"
cat >"$SLURM_CONF" <<EOF
ClusterName=fila
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.sock
CredType=cred/munge
StateSaveLocation=$tmp/ctld
SlurmdSpoolDir=$tmp/d
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldPort=6917
SlurmdPort=6918
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SlurmdParameters=config_overrides
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MinJobAge=3600
NodeName=$node CPUs=64 RealMemory=4000 State=UNKNOWN
PartitionName=fila Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld
slurmd
for _ in $(seq 100); do sinfo -h -o %T 2>/dev/null | grep -q idle && break; sleep 0.2; done
sinfo
sinfo -h -o %T | grep -q idle || { echo "the node did not come up:" >&2; tail "$tmp"/*.log >&2; exit 1; }

# The README's array script, as written.
awk '/^ *```sh/ { block = ""; inside = 1; next }
     /^ *```/ && inside { if (block ~ /#SBATCH/) { printf "%s", block; exit } inside = 0; next }
     inside { sub(/^ +/, ""); block = block $0 "\n" }' README.md >"$tmp/job.sh"
grep -q '^#SBATCH' "$tmp/job.sh" || { echo "README.md has no sh block with #SBATCH" >&2; exit 1; }
echo "the README's script:"
cat "$tmp/job.sh"
export PATH=$bin:$PATH

wait_for() { # wait_for JOB: until no task of JOB is pending or running (at most 15 minutes)
    for _ in $(seq 900); do
        squeue -h -j "$1" 2>/dev/null | grep -q . || return 0
        sleep 1
    done
    echo "job $1 did not finish" >&2
    exit 1
}

# run PUZZLE EXPECTED [requeue]: the array job in a directory of its own.
run() {
    local name=$1 expected=$2 requeue=${3:-}
    local dir=$tmp/$name
    mkdir -p "$dir"
    cp "$repo/puzzles/$name.txt" "$dir/puzzle.txt"
    cp "$tmp/job.sh" "$dir/job.sh"
    cd "$dir"
    local job
    job=$(sbatch --parsable job.sh)
    echo "sbatch job.sh: job $job ($name)"
    if [ -n "$requeue" ]; then
        # A task whose fila has run for a second, requeued while it runs.
        local task=
        for _ in $(seq 3000); do
            for t in $(squeue -h -j "$job" -t R -o %K); do
                pid=$(pgrep -f -- "--shard $t/100 " | head -1 || true)
                if [ -n "$pid" ] && [ "$(ps -o etimes= -p "$pid" | tr -d ' ')" -ge 1 ]; then
                    task=$t
                    break 2
                fi
            done
            sleep 0.1
        done
        [ -n "$task" ] || { echo "no task was caught running" >&2; exit 1; }
        scontrol requeue "${job}_$task"
        echo "scontrol requeue ${job}_$task (while its fila solve ran)"
    fi
    wait_for "$job"
    if [ -n "$requeue" ]; then
        scontrol show job "${job}_$task" | grep -o 'JobState=[A-Z]* \|Restarts=[0-9]*' | tr '\n' ' '
        echo
        scontrol show job "${job}_$task" | grep -q 'Restarts=1' \
            || { echo "task $task was not requeued" >&2; exit 1; }
        grep -E '^(SHARD|SOLUTIONS|RESUMED_SUBTREES)=' "shard-$task.txt"
    fi
    local merged
    merged=$(fila merge shard-*.txt)
    echo "fila merge shard-*.txt:"
    echo "$merged" | grep -E '^(SOLUTIONS|SHARDS)='
    echo "$merged" | grep -qx "SOLUTIONS=$expected" \
        || { echo "$name: the merged count is not $expected" >&2; exit 1; }
    cd "$repo"
}

echo
echo "== 1. The Tetris Cube"
run tetriscube 9839
echo
echo "== 2. The one-sided pentominoes in 18x5, one task requeued while it runs"
run one_sided_18x5 686628 requeue
echo
echo "slurm.sh: both array jobs gave the exact count"
