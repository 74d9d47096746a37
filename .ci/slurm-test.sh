#!/usr/bin/env bash
# vortex sweep --slurm on a real cluster: installs Debian's Slurm, starts a single-node
# cluster (munged, slurmctld, slurmd), runs a small sweep once in one process and once as
# a 4-task job array plus its dependent merge job, and checks the merged CSV equals the
# one-process CSV in every column but wall_ms. Stops every daemon it started, whatever
# happens. Needs root (packages, /etc/slurm/slurm.conf, daemons); runnable locally.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
export GOFLAGS="${GOFLAGS:--buildvcs=false}"

die() { echo "slurm-test: FAIL: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "must run as root (it installs packages, writes /etc/slurm/slurm.conf and starts slurmctld/slurmd)"

work=$(mktemp -d /tmp/vortex-slurm.XXXXXX)
chmod 755 "$work" # the jobs run as root here, but slurmd and slurmstepd read below it
conf=/etc/slurm/slurm.conf
conf_backup=""
daemons=() # "name pid" of each daemon this script started, in start order
jobs_to_cancel=""
stepds_before=""

show_logs() {
  for f in "$work"/munge/munged.log "$work"/slurmctld.log "$work"/slurmd.log "$work"/*.out "$work"/slurm/*.log; do
    [ -s "$f" ] || continue
    echo "---- $f (last 40 lines)"
    tail -n 40 "$f"
  done
}

cleanup() {
  rc=$?
  set +e
  if [ "$rc" != 0 ]; then show_logs; fi
  if [ -n "$jobs_to_cancel" ] && command -v scancel >/dev/null; then
    # Cancel before stopping slurmd, so no job step outlives the cluster.
    scancel $jobs_to_cancel 2>/dev/null
    for _ in $(seq 20); do
      [ -z "$(squeue -h -j "${jobs_to_cancel// /,}" 2>/dev/null)" ] && break
      sleep 0.5
    done
  fi
  # Stop in reverse start order (slurmd, slurmctld, munged), by the PIDs recorded.
  for ((i = ${#daemons[@]} - 1; i >= 0; i--)); do
    read -r name pid <<<"${daemons[i]}"
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    if kill -0 "$pid" 2>/dev/null; then
      echo "slurm-test: $name (pid $pid) ignored SIGTERM; killing it"
      kill -9 "$pid" 2>/dev/null
    fi
    echo "slurm-test: stopped $name (pid $pid)"
  done
  # A slurmstepd that appeared during the test (a step of a job cancelled above that
  # did not finish) is ours too; those that were running before are not.
  # One finishing just now is given a few seconds; a zombie is only waiting to be reaped.
  new_stepds() {
    for pid in $(pgrep -x slurmstepd 2>/dev/null); do
      case " $stepds_before " in *" $pid "*) continue ;; esac
      case "$(ps -o stat= -p "$pid" 2>/dev/null)" in Z* | "") continue ;; esac
      echo "$pid"
    done
  }
  for _ in $(seq 25); do [ -z "$(new_stepds)" ] && break; sleep 0.2; done
  for pid in $(new_stepds); do echo "slurm-test: killing leftover slurmstepd $pid"; kill -9 "$pid" 2>/dev/null; done
  if [ -n "$conf_backup" ]; then mv -f "$conf_backup" "$conf"; else rm -f "$conf"; fi
  rm -rf "$work"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== slurm: install slurmctld slurmd slurm-client munge"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  pkgs="slurmctld slurmd slurm-client munge"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $pkgs >"$work/apt.log" 2>&1 ||
    { DEBIAN_FRONTEND=noninteractive apt-get update -q >>"$work/apt.log" 2>&1 &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $pkgs >>"$work/apt.log" 2>&1; } ||
    { tail -n 30 "$work/apt.log"; die "apt-get install $pkgs failed"; }
fi
dpkg-query -W -f 'slurm ${Version}\n' slurmctld

stepds_before=$(pgrep -x slurmstepd 2>/dev/null | tr '\n' ' ' || true)
# Refuse to clobber a cluster that is already running here.
for d in slurmctld slurmd; do
  if pgrep -x "$d" >/dev/null; then die "$d is already running on this machine; this test starts its own cluster"; fi
done

echo "== slurm: munge"
if [ ! -s /etc/munge/munge.key ]; then
  mungekey --create --keyfile=/etc/munge/munge.key
  chown munge:munge /etc/munge/munge.key
  chmod 600 /etc/munge/munge.key
fi
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  install -d -o munge -g munge -m 755 /run/munge
  install -d -o munge -g munge -m 700 "$work/munge"
  # munged refuses to run as root; its own user owns the key and state directories.
  # setpriv execs it, so $! is munged itself.
  setpriv --reuid=munge --regid=munge --init-groups munged --foreground --log-file="$work/munge/munged.log" >"$work/munged.out" 2>&1 &
  daemons+=("munged $!")
  for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.2; done
  munge -n | unmunge >/dev/null || die "munged did not come up"
fi

echo "== slurm: single-node cluster"
host=$(hostname -s)
cpus=$(nproc)
mem_total=$(free -m | awk '/^Mem:/ {print $2}')
# A margin below the total, as slurmd drains a node that reports less than its RealMemory.
mem=$((mem_total - mem_total / 10 - 256))
[ "$mem" -gt 256 ] || mem=256
mkdir -p "$work/spool" "$work/state"
if [ -e "$conf" ]; then conf_backup="$work/slurm.conf.orig"; cp -p "$conf" "$conf_backup"; fi
mkdir -p /etc/slurm
cat >"$conf" <<EOF
# Written by vortexgfx .ci/slurm-test.sh; removed (or the previous file restored) when it exits.
ClusterName=vortexci
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmdSpoolDir=$work/spool
StateSaveLocation=$work/state
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
MailProg=/bin/true
# Finished jobs stay visible to scontrol for this long; there is no accounting database.
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Default=YES Nodes=ALL MaxTime=INFINITE State=UP
EOF
slurmctld -D >"$work/slurmctld.out" 2>&1 &
daemons+=("slurmctld $!")
slurmd -D >"$work/slurmd.out" 2>&1 &
daemons+=("slurmd $!")

state=""
for _ in $(seq 120); do
  state=$(sinfo -h -N -n "$host" -o '%t' 2>/dev/null || true)
  [ "$state" = idle ] && break
  for d in "${daemons[@]}"; do
    read -r name pid <<<"$d"
    kill -0 "$pid" 2>/dev/null || die "$name (pid $pid) exited while the cluster was starting"
  done
  sleep 0.5
done
[ "$state" = idle ] || die "node $host not idle after 60 s (sinfo says '${state:-nothing}')"
sinfo

echo "== slurm: build vortex"
go build -o "$work/vortex" ./cmd/vortex

traces=$repo/../shared/data/cgltrace
if [ -f "$traces/box.cgltrace" ] && [ -f "$traces/triangle.cgltrace" ]; then
  workloads=(--trace "$traces/box.cgltrace@32,64" --trace "$traces/triangle.cgltrace@32,64")
else
  # Without ../shared, the repository's demo scene (its frames are the rows).
  echo "note: $traces absent; sweeping the demo scene instead"
  workloads=(--scene scene/demo/demo.json --size 64x64 --frames 4)
fi
sweep=(sweep --axis raster.slices=1,2 --axis device.cores_per_socket=1,2 "${workloads[@]}")

echo "== slurm: the sweep in one process"
t0=$(date +%s.%N)
"$work/vortex" "${sweep[@]}" -o "$work/one.csv"
t1=$(date +%s.%N)
one_wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}')

echo "== slurm: the sweep as a 4-task job array and a merge job"
"$work/vortex" "${sweep[@]}" --slurm 4 --slurm-dir "$work/slurm" --time 00:10:00 -o "$work/merged.csv"
t0=$(date +%s.%N)
sh "$work/slurm/submit.sh"
read -r array merge <"$work/slurm/jobs" || die "submit.sh wrote no job ids"
jobs_to_cancel="$array $merge"
for i in $(seq 600); do
  [ -z "$(squeue -h -j "$array,$merge" 2>/dev/null)" ] && break
  [ "$i" = 600 ] && { squeue; die "jobs $array and $merge not finished after 300 s"; }
  sleep 0.5
done
t1=$(date +%s.%N)
slurm_wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}')
jobs_to_cancel=""
job_state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | sort -u | tr '\n' ' '; }
array_state=$(job_state "$array")
merge_state=$(job_state "$merge")
echo "array job $array: $array_state; merge job $merge: $merge_state"
[ "$array_state" = "COMPLETED " ] || die "array job $array ended $array_state (want COMPLETED for every task)"
[ "$merge_state" = "COMPLETED " ] || die "merge job $merge ended $merge_state"
cat "$work/slurm/merge.log"
[ -s "$work/merged.csv" ] || die "the merge job wrote no $work/merged.csv"

echo "== slurm: compare (every column but wall_ms)"
# The sweep's cells hold no commas or quotes (numbers, hashes, these paths), so a
# comma split is the CSV's; refuse to compare anything else rather than misread it.
if grep -q '"' "$work/one.csv" "$work/merged.csv"; then die "a CSV has a quoted field; this comparison splits on commas"; fi
drop_wall() {
  awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wall_ms") w = i; if (!w) { print "no wall_ms column" > "/dev/stderr"; exit 1 } }
    { out = ""; sep = ""; for (i = 1; i <= NF; i++) if (i != w) { out = out sep $i; sep = OFS }; print out }' "$1"
}
drop_wall "$work/one.csv" >"$work/one.cmp"
drop_wall "$work/merged.csv" >"$work/merged.cmp"
rows=$(($(wc -l <"$work/one.cmp") - 1))
[ "$rows" -gt 0 ] || die "the one-process sweep wrote no rows"
if ! cmp -s "$work/one.cmp" "$work/merged.cmp"; then
  diff "$work/one.cmp" "$work/merged.cmp" | head -20
  die "the merged Slurm output differs from the one-process run"
fi
echo "merged output of $rows rows equals the one-process run in every column but wall_ms"
echo "wall time: one process ${one_wall} s; Slurm (4 array tasks + merge, submit to merge done) ${slurm_wall} s"
echo "slurm-test: PASS"
