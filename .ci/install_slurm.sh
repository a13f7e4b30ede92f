#!/usr/bin/env bash
# Slurm and munge for tests/slurm (clusters the fixtures start in a temp folder), and ip,
# nsenter and unshare for its multi-node one (each node a network namespace).
# Nothing to do where they are installed; else Debian's packages (slurm-wlm 22.05), as
# root or through sudo. The daemons are not started here (the fixture starts its own).
set -euo pipefail
needed=(munged slurmctld slurmd srun salloc sbatch squeue sinfo scontrol scancel ip nsenter unshare)
missing=()
for program in "${needed[@]}"; do
    command -v "$program" > /dev/null || [ -x "/usr/sbin/$program" ] || missing+=("$program")
done
if [ "${#missing[@]}" -eq 0 ]; then
    echo "Slurm already installed: $(dpkg-query -W -f="\${Version}" slurm-wlm 2> /dev/null || echo "version unknown")"
    exit 0
fi
echo "installing slurm-wlm, munge, iproute2 and util-linux (missing: ${missing[*]})"
as_root=()
if [ "$(id -u)" -ne 0 ]; then
    as_root=(sudo -n)
fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq slurm-wlm munge iproute2 util-linux > /dev/null
echo "installed: slurm-wlm $(dpkg-query -W -f="\${Version}" slurm-wlm)"
