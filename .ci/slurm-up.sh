#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for the slow tests of the Slurm back end
# (tests/test_slurm.py, `--cluster slurm`): Debian's slurm-wlm and munge installed where missing, a
# munge key, /etc/slurm/slurm.conf naming this host as controller and as the one node (2 CPUs, no
# cgroups, no accounting; a job keeps the nice value of whoever submitted it), then munged,
# slurmctld and slurmd started and the node waited for. .ci/run calls it before the slow tests;
# setup.sh does not (it changes the machine: run it as root on a CI machine or a throwaway one).
# Safe to run again: a cluster that answers `sinfo` is left as it is, a daemon already running is not
# started twice, and a slurm.conf this script did not write is never touched. When Slurm cannot start
# it says why and exits 1 (.ci/run goes on); the Slurm tests then skip, saying that `sinfo` fails.
set -uo pipefail

say() { echo "slurm-up: $*" >&2; }
give_up() { say "$*; the Slurm tests will skip"; exit 1; }
MARK="# written by patience-models .ci/slurm-up.sh"
CONF=/etc/slurm/slurm.conf

if sinfo -h >/dev/null 2>&1; then
    say "a Slurm cluster answers already: $(sinfo -h -o '%P %D nodes %T' | head -1)"
    exit 0
fi
[ "$(id -u)" = 0 ] || give_up "not root: cannot install or start Slurm"

missing=()
for package in munge slurmctld slurmd slurm-client; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null; } || give_up "apt-get could not install ${missing[*]}"
fi

# munge: a key readable by munge alone, then its daemon (it refuses to run as root)
install -d -o munge -g munge -m 0700 /etc/munge /var/lib/munge /var/log/munge
install -d -o munge -g munge -m 0755 /run/munge
if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none || give_up "cannot write a munge key"
fi
chown munge:munge /etc/munge/munge.key && chmod 0400 /etc/munge/munge.key
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    runuser -u munge -- /usr/sbin/munged || give_up "munged does not start"
    for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
    munge -n 2>/dev/null | unmunge >/dev/null 2>&1 || give_up "munged started but does not answer"
fi

# slurm.conf: this host is the controller and the node, addressed as 127.0.0.1
host=$(hostname -s)
memory=$(awk '/MemTotal/ { print int($2 / 1024 * 0.8) }' /proc/meminfo)
if [ -e "$CONF" ] && ! head -1 "$CONF" | grep -qxF "$MARK"; then
    give_up "$CONF exists and was not written by this script: left as it is"
fi
install -d -o slurm -g slurm /var/lib/slurm/slurmctld /var/lib/slurm/slurmd /var/log/slurm
cat >"$CONF.new" <<EOF
$MARK
ClusterName=patience
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/lib/slurm/slurmctld
SlurmdSpoolDir=/var/lib/slurm/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
PropagatePrioProcess=1
SlurmdParameters=config_overrides
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
mv "$CONF.new" "$CONF"

running() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
running /run/slurmctld.pid || slurmctld || give_up "slurmctld does not start (see /var/log/slurm/slurmctld.log)"
running /run/slurmd.pid || slurmd || give_up "slurmd does not start (see /var/log/slurm/slurmd.log)"

for _ in $(seq 60); do
    state=$(sinfo -h -n "$host" -o %T 2>/dev/null | head -1)
    case "$state" in
        idle*|mixed*|allocated*) say "one-node cluster up: $host, $(sinfo -h -o '%c CPUs, %m MiB' | head -1)"; exit 0 ;;
        down*|drain*) scontrol update nodename="$host" state=resume >/dev/null 2>&1 ;;
    esac
    sleep 0.5
done
give_up "the node $host is not idle after 30 s (state ${state:-unknown}; see /var/log/slurm/)"
