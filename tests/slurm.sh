#!/bin/sh
# slurm.sh: `fibersim sweep --slurm` on a real Slurm (driver/sweepslurm.c, docs/sweep.md). Installs
# Slurm and munge if missing (Debian 12: slurm-wlm, munge; as root), writes a one-node slurm.conf
# for localhost with every state file under a temporary folder, starts munged (its own key and
# socket), slurmctld and slurmd, submits the demo sweep (six points) as a job array of three
# tasks, waits and collects, and compares the results with the same sweep run locally (every
# column but wall times and host); then resubmits after one record is lost (one task, one point;
# held, while a second submission and a local run into the folder are refused) and stops the
# daemons. Never skips: without Slurm and no way to install it, it fails.
# Environment: B (build directory); SLURM_RUN (a command to run on the cluster before it stops).
# Prints a line per check, then `N passed, M failed`.
set -u
B=${B:-build}
SIM=$(pwd)/$B/bin/fibersim
pass=0 fail=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
show() { sed "s/^/  | /" "$1" | cut -c1-200 | tail -n 15; }
check() { if eval "$1"; then ok "$2"; else bad "$2"; [ -z "${3:-}" ] || show "$3"; fi; }
tmp=$(mktemp -d)
pids=
stop() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do
		n=0
		while kill -0 "$p" 2>/dev/null && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
		kill -9 "$p" 2>/dev/null
	done
	pids=
}
trap 'stop; rm -rf "$tmp"' EXIT

# --- install what is missing ---------------------------------------------------------------------
if ! command -v slurmctld > /dev/null 2>&1 || ! command -v munged > /dev/null 2>&1; then
	if [ "$(id -u)" -eq 0 ] && command -v apt-get > /dev/null 2>&1; then
		echo "installing slurm-wlm and munge"
		{ DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			slurm-wlm munge || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends slurm-wlm munge; }; } > "$tmp/apt.log" 2>&1
	fi
fi
if ! command -v slurmctld > /dev/null 2>&1 || ! command -v munged > /dev/null 2>&1 ||
   ! command -v sbatch > /dev/null 2>&1; then
	bad "Slurm (slurm-wlm) and munge are not installed and cannot be (root and apt-get needed)"
	[ -f "$tmp/apt.log" ] && show "$tmp/apt.log"
	echo "$pass passed, $fail failed"
	exit 1
fi
ok "Slurm $(slurmd -V 2>/dev/null | cut -d' ' -f2) and munge are installed"

# --- a one-node cluster on localhost -----------------------------------------------------------
S=$tmp/slurm
mkdir -p "$S/state" "$S/spool" "$S/munge"
chmod 700 "$S/munge"
dd if=/dev/urandom of="$S/munge/munge.key" bs=1024 count=1 2> /dev/null
chmod 400 "$S/munge/munge.key"
munged --force --key-file="$S/munge/munge.key" --socket="$S/munge/munge.sock" \
	--pid-file="$S/munge/munged.pid" --log-file="$S/munge/munged.log" \
	--seed-file="$S/munge/munged.seed" --foreground > "$S/munged.out" 2>&1 &
pids="$pids $!"
host=$(hostname -s)
port=$((20000 + $$ % 20000))
cat > "$S/slurm.conf" <<EOF
ClusterName=fibertest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$S/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/slurmctld.log
SlurmdLogFile=$S/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
MinJobAge=300
NodeName=fibernode NodeHostname=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$S/slurm.conf
n=0
while [ ! -S "$S/munge/munge.sock" ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
slurmctld -D -i -f "$SLURM_CONF" > "$S/slurmctld.out" 2>&1 &
pids="$pids $!"
slurmd -D -N fibernode -f "$SLURM_CONF" > "$S/slurmd.out" 2>&1 &
pids="$pids $!"
n=0
while [ $n -lt 60 ]; do
	state=$(sinfo -h -N -o %T 2> /dev/null | head -n 1)
	[ "$state" = idle ] && break
	sleep 0.5
	n=$((n + 1))
done
check '[ "$state" = idle ]' "munged, slurmctld and slurmd up: node fibernode idle ($(nproc) CPUs)" \
	"$S/slurmctld.log"
if [ "$state" != idle ]; then
	show "$S/slurmd.log"
	echo "$pass passed, $fail failed"
	exit 1
fi

# --- the demo sweep through sbatch, and locally --------------------------------------------------
R=$tmp/slurm-results L=$tmp/local-results
t0=$(date +%s)
"$SIM" sweep examples/sweep/demo.sweep -o "$R" --slurm --chunk 2 --partition debug --time 10 \
	--sbatch-arg --cpus-per-task=1 --wait --poll 1 > "$tmp/out" 2> "$tmp/err"
rc=$?
t1=$(date +%s)
check '[ $rc -eq 0 ] && grep -q "submitted job [0-9]*: 3 array tasks for 6 points" "$tmp/err"' \
	"sbatch: one job array of 3 tasks (2 points each), waited for with squeue ($((t1 - t0)) s)" "$tmp/err"
job=$(cat "$R/slurm/jobid" 2> /dev/null)
check '[ $(ls "$R"/slurm/task-*.out 2> /dev/null | wc -l) -eq 3 ] && [ $(grep -l "task [0-9]: 2 points" "$R"/slurm/task-*.out | wc -l) -eq 3 ]' \
	"each of the 3 array tasks ran its 2 points (task-${job}_I.out)" "$tmp/err"
check 'grep -q "6 points: 6 ok" "$tmp/err" && [ $(grep -c ",ok," "$R/results.csv") -eq 6 ]' \
	"collected: six points ok in results.csv" "$tmp/err"
"$SIM" sweep examples/sweep/demo.sweep -o "$L" -j 2 > /dev/null 2> "$tmp/lerr"
check '[ $? -eq 0 ]' "the same sweep locally" "$tmp/lerr"
python3 - "$R/results.csv" "$L/results.csv" > "$tmp/cmp" 2>&1 <<'EOF'
import csv, sys
a, b = (list(csv.DictReader(open(p))) for p in sys.argv[1:3])
vary = lambda k: k in ("seconds", "host") or ".simulator." in k
assert [r["name"] for r in a] == [r["name"] for r in b], "points differ"
keys = [k for k in a[0] if not vary(k)]
assert keys == [k for k in b[0] if not vary(k)], "columns differ"
diff = [(r["name"], k, r[k], s[k]) for r, s in zip(a, b) for k in keys if r[k] != s[k]]
for d in diff[:10]:
    print("differs:", *d)
print(len(keys), "columns compared,", len(diff), "differ")
sys.exit(1 if diff else 0)
EOF
check '[ $? -eq 0 ]' "Slurm's results.csv equals the local one: $(tail -n 1 "$tmp/cmp")" "$tmp/cmp"
check 'python3 -c "
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert [p[\"stats\"][\"cycles\"] for p in a[\"points\"]] == [p[\"stats\"][\"cycles\"] for p in b[\"points\"]]
" "$R/results.json" "$L/results.json"' "Slurm's results.json has the local cycles"

# --- resubmission: only what is not done -------------------------------------------------------
"$SIM" sweep examples/sweep/demo.sweep -o "$R" --slurm > /dev/null 2> "$tmp/err"
check '[ $? -eq 0 ] && grep -q "every point .* is done: nothing to submit" "$tmp/err"' \
	"resubmitting a finished sweep submits nothing" "$tmp/err"
rm "$R/points/softmax.b200.icache_prefetch=8.rec"
"$SIM" sweep examples/sweep/demo.sweep -o "$R" --collect > /dev/null 2> "$tmp/err"
check '[ $? -eq 3 ] && grep -q "6 points: 5 ok, 0 failed, 1 not run" "$tmp/err"' \
	"--collect with a point missing: exit 3, the point not run" "$tmp/err"
# submitted held: while the job is queued, a second submission and a local run into the same DIR
# are refused (they would run its points again); released, it runs
"$SIM" sweep examples/sweep/demo.sweep -o "$R" --slurm --sbatch-arg --hold > /dev/null 2> "$tmp/err"
"$SIM" sweep examples/sweep/demo.sweep -o "$R" --slurm > /dev/null 2> "$tmp/err2"
rc2=$?
"$SIM" sweep examples/sweep/demo.sweep -o "$R" -j 1 > /dev/null 2>> "$tmp/err2"
rc3=$?
job=$(cat "$R/slurm/jobid" 2> /dev/null)
check '[ $rc2 -eq 1 ] && [ $rc3 -eq 1 ] && [ $(grep -c "error: job $job of $R is still in the queue" "$tmp/err2") -eq 2 ]' \
	"while its job is queued: a second submission and a local run into DIR are refused" "$tmp/err2"
scontrol release "$job" > /dev/null 2>&1
"$SIM" sweep examples/sweep/demo.sweep -o "$R" --collect --wait --poll 1 > /dev/null 2>> "$tmp/err"
rc=$?
check '[ $rc -eq 0 ] && grep -q "1 array tasks for 1 points (5 done already)" "$tmp/err" &&
	[ "$(cat "$R/slurm/pending.txt")" = softmax.b200.icache_prefetch=8 ] && grep -q "6 points: 6 ok" "$tmp/err"' \
	"resubmitted: one task for the missing point, then --collect --wait" "$tmp/err"
"$SIM" sweep examples/sweep/demo.sweep -o "$tmp/bad" --slurm --partition nosuchpartition > /dev/null 2> "$tmp/err"
check '[ $? -eq 1 ] && grep -q "sbatch failed" "$tmp/err"' "a refused submission (no such partition) is exit 1" "$tmp/err"

# SLURM_RUN='COMMAND': run it on this cluster (SLURM_CONF set) before the daemons stop, e.g.
# SLURM_RUN='make paper-table QUICK=1 SLURM=1' (docs/paper-table.md); make check sets none
if [ -n "${SLURM_RUN:-}" ]; then
	t0=$(date +%s)
	sh -c "$SLURM_RUN"
	rc=$?
	check '[ $rc -eq 0 ]' "SLURM_RUN: exit $rc after $(( $(date +%s) - t0 )) s: $SLURM_RUN"
fi

stop
check '! pgrep -f "slurmctld -D -i -f $S/slurm.conf" > /dev/null' "the daemons are stopped"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
