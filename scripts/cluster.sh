#!/usr/bin/env bash
# A cluster on one machine: N network namespaces stand for N nodes, each with
# one veth link to a bridge, shaped by tc to a known rate (tbf, and netem's
# delay where the kernel has netem), its own cores (a cpuset cgroup, which
# hwloc and so numacoll and the MPI libraries see as the node's machine) and
# its own host name (a UTS namespace). MPI starts processes in them through
# an agent that runs its command inside the node: Open MPI's rsh launcher
# and MPICH's hydra both take one. docs/cluster.md says what it is good for.
#
# Invariants: every object it creates is named in its state folder
# (/run/numacoll-cluster) as it is created, and `down` removes those and no
# other; a failed `up` removes what it made; a second `up` first takes the
# first cluster down. Addresses come from 198.18.0.0/15, the range RFC 2544
# sets aside for benchmarking, never routed on a real network.
#
# Usage: scripts/cluster.sh up N [--rate R] [--delay D] [--node-rate K=R]...
#        scripts/cluster.sh down | status | can
#        scripts/cluster.sh mpirun ARGS...        Open MPI's mpirun across the nodes
#        scripts/cluster.sh mpiexec.mpich ARGS... MPICH's hydra across the nodes
#        scripts/cluster.sh exec K COMMAND...     a command on node K
#        scripts/cluster.sh agent HOST COMMAND... what the launchers call
set -euo pipefail

state=${NUMACOLL_CLUSTER_STATE:-/run/numacoll-cluster}
subnet_prefix=198.18.77
subnet=$subnet_prefix.0/24
bridge_address=$subnet_prefix.254
bridge=ncl-br
max_nodes=64
self=$(readlink -f "$0")

die() { echo "cluster.sh: $*" >&2; exit 1; }
usage() { echo "cluster.sh: $*" >&2; exit 2; }
namespace_of() { echo "numacoll-node$1"; }
address_of() { echo "$subnet_prefix.$1"; }
host_link_of() { echo "ncl-v$1"; }

# Every created object, one per line ("netns NAME", "link NAME", "cgroup PATH"), so that down removes these only.
record() { echo "$*" >> "$state/objects"; }

# The machine's online cores as a list of numbers (the cpuset cgroup's own when there is one).
online_cores() {
  local ranges
  ranges=$(cat /sys/fs/cgroup/cpuset/cpuset.cpus 2>/dev/null || cat /sys/devices/system/cpu/online)
  local range
  for range in ${ranges//,/ }; do
    if [[ $range == *-* ]]; then seq "${range%-*}" "${range#*-}"; else echo "$range"; fi
  done
}

# Where cpuset cgroups can be made: v1's cpuset hierarchy, or v2's root with the cpuset controller.
cpuset_root() {
  if [[ -w /sys/fs/cgroup/cpuset/cpuset.cpus ]]; then
    echo /sys/fs/cgroup/cpuset
  elif [[ -f /sys/fs/cgroup/cgroup.controllers ]] && grep -qw cpuset /sys/fs/cgroup/cgroup.controllers; then
    echo /sys/fs/cgroup
  fi
}

# What this machine lets us do: one line and status 1 when it cannot hold a cluster.
check_rights() {
  [[ $(id -u) -eq 0 ]] || die "needs root (network namespaces, veth links and tc): run it with sudo"
  local tool
  for tool in ip tc unshare nsenter; do
    command -v $tool > /dev/null || die "needs '$tool' (Debian: iproute2, util-linux)"
  done
  local probe=numacoll-probe-$$
  ip netns add $probe 2> /dev/null || die "this machine does not allow network namespaces (ip netns add failed)"
  local allowed=1
  ip -n $probe link add ncl-probe$$ type veth peer name ncl-probe-peer 2> /dev/null || allowed=0
  ip netns delete $probe
  ((allowed)) || die "this machine does not allow veth links in a network namespace"
}

parse_rate() {  # tc's rate syntax, checked and turned into bits per second
  local rate=$1
  [[ $rate =~ ^([0-9]+)(bit|kbit|mbit|gbit)$ ]] || usage "rate '$rate': expected a number and bit, kbit, mbit or gbit (for example 5gbit)"
  local number=${BASH_REMATCH[1]} unit=${BASH_REMATCH[2]} scale
  case $unit in bit) scale=1 ;; kbit) scale=1000 ;; mbit) scale=1000000 ;; gbit) scale=1000000000 ;; esac
  ((${#number} <= 6)) || usage "rate '$rate' is out of range (8kbit to 100gbit)"
  local bits=$((number * scale))
  ((bits >= 8000 && bits <= 100000000000)) || usage "rate '$rate' is out of range (8kbit to 100gbit)"
  echo $bits
}

parse_delay() {
  [[ $1 =~ ^[0-9]+(\.[0-9]+)?(us|ms)$ ]] || usage "delay '$1': expected a number and us or ms (for example 50us)"
}

# Shapes one interface's egress. tbf's bucket holds two GSO packets of the
# veth's (128 KiB) or 200 us at the rate, whichever is larger. A message
# smaller than the bucket leaves at the link's own speed, so it is kept small;
# but a bucket of one packet (64 KiB) made every packet wait for tbf's timer,
# and the timer's lateness was lost: a stream got 0.71-0.81 of 5 Gbit/s, and
# 0.95 (all TCP's headers leave) with two packets or more.
shape() {  # namespace or "", interface, bits per second, delay or ""
  local namespace=$1 link=$2 bits=$3 delay=$4
  local burst=$((bits / 8 / 5000))
  ((burst >= 131072)) || burst=131072
  local in=()
  [[ -z $namespace ]] || in=(-n "$namespace")
  if [[ -n $delay ]]; then
    tc "${in[@]}" qdisc add dev "$link" root handle 1: netem delay "$delay" limit 100000
    tc "${in[@]}" qdisc add dev "$link" parent 1:1 handle 10: tbf rate "${bits}bit" burst $burst latency 100ms
  else
    tc "${in[@]}" qdisc add dev "$link" root tbf rate "${bits}bit" burst $burst latency 100ms
  fi
}

netem_exists() {
  local probe=numacoll-probe-$$ found=0
  ip netns add $probe
  tc -n $probe qdisc add dev lo root netem delay 1ms 2> /dev/null && found=1
  ip netns delete $probe
  ((found))
}

cluster_down() {
  [[ -f $state/objects ]] || { rm -rf "$state"; return 0; }
  local kind name
  # Processes first (only those inside our namespaces), then links, namespaces and cgroups, newest first.
  while read -r kind name; do
    [[ $kind == netns ]] || continue
    ip netns pids "$name" 2> /dev/null | xargs -r kill -KILL 2> /dev/null || true
  done < "$state/objects"
  tac "$state/objects" | while read -r kind name; do
    case $kind in
      link) ip link delete "$name" 2> /dev/null || true ;;
      netns) ip netns delete "$name" 2> /dev/null || true ;;
      cgroup)
        # The killed processes leave their cgroup as they are reaped.
        for _ in $(seq 50); do rmdir "$name" 2> /dev/null && break; sleep 0.1; done
        [[ ! -d $name ]] || echo "cluster.sh: could not remove $name (processes still in it)" >&2 ;;
    esac
  done
  rm -rf "$state"
}

cluster_up() {
  local count=${1:-}
  [[ $count =~ ^[0-9]+$ ]] || usage "up needs a node count: scripts/cluster.sh up N [--rate R] [--delay D]"
  ((count >= 2 && count <= max_nodes)) || usage "node count $count: expected 2 to $max_nodes"
  shift
  local rate=10gbit delay="" node_rates=()
  while (($#)); do
    case $1 in
      --rate) (($# >= 2)) || usage "--rate needs a value"; rate=$2; shift 2 ;;
      --delay) (($# >= 2)) || usage "--delay needs a value"; delay=$2; shift 2 ;;
      --node-rate) (($# >= 2)) || usage "--node-rate needs K=R"; node_rates+=("$2"); shift 2 ;;
      *) usage "unknown option '$1' (expected --rate, --delay or --node-rate)" ;;
    esac
  done
  local bits
  bits=$(parse_rate "$rate")
  [[ -z $delay ]] || parse_delay "$delay"
  declare -A node_bits=()
  local pair
  for pair in "${node_rates[@]}"; do
    [[ $pair =~ ^([0-9]+)=(.+)$ ]] || usage "--node-rate '$pair': expected K=R, for example 2=1gbit"
    local node=${BASH_REMATCH[1]}
    ((node >= 1 && node <= count)) || usage "--node-rate '$pair': no node $node in $count"
    node_bits[$node]=$(parse_rate "${BASH_REMATCH[2]}")
  done
  check_rights
  [[ ! -f $state/objects ]] || { echo "cluster.sh: taking the running cluster down first" >&2; cluster_down; }
  # Names and addresses ours to take: refuse what someone else holds rather than touch it.
  local k
  for k in $bridge $(for k in $(seq "$count"); do host_link_of "$k"; done); do
    ! ip link show "$k" > /dev/null 2>&1 || die "an interface named $k exists and is not this cluster's: remove it or leave it, nothing was changed"
  done
  for k in $(seq "$count"); do
    ! ip netns list | grep -qw "$(namespace_of "$k")" || die "a namespace named $(namespace_of "$k") exists and is not this cluster's: nothing was changed"
  done
  ! ip route show | grep -q "^$subnet_prefix\." || die "$subnet is already routed on this machine: nothing was changed"
  local netem=0
  if [[ -n $delay ]]; then
    if netem_exists; then netem=1; else
      echo "cluster.sh: this kernel has no netem: --delay $delay is not applied, the delay is the veth link's own" >&2
      delay=""
    fi
  fi

  mkdir -p "$state"
  : > "$state/objects"
  trap 'status=$?; ((status == 0)) || { echo "cluster.sh: up failed: removing what it made" >&2; cluster_down; }' EXIT

  local cores
  mapfile -t cores < <(online_cores)
  local per_node=$(( ${#cores[@]} / count ))
  local cgroups
  cgroups=$(cpuset_root)
  local mems
  mems=$(cat "$cgroups/cpuset.mems" 2> /dev/null || cat "$cgroups/cpuset.mems.effective" 2> /dev/null || echo 0)

  ip link add $bridge type bridge
  record link $bridge
  ip addr add $bridge_address/24 dev $bridge
  ip link set $bridge up
  : > "$state/hostfile"
  : > "$state/nodes"
  for k in $(seq "$count"); do
    local namespace host_link node_cores slots
    namespace=$(namespace_of "$k")
    host_link=$(host_link_of "$k")
    ip netns add "$namespace"
    record netns "$namespace"
    # The peer is born inside the namespace: no interface of ours is ever
    # created in the machine's own namespace under another name.
    ip link add "$host_link" type veth peer name eth0 netns "$namespace"
    record link "$host_link"
    ip link set "$host_link" master $bridge up
    ip -n "$namespace" addr add "$(address_of "$k")/24" dev eth0
    ip -n "$namespace" link set lo up
    ip -n "$namespace" link set eth0 up
    local node_rate_bits=${node_bits[$k]:-$bits}
    shape "$namespace" eth0 "$node_rate_bits" "$delay"  # what the node sends
    shape "" "$host_link" "$node_rate_bits" "$delay"    # what it receives
    if ((per_node >= 1)); then
      node_cores=$(IFS=,; echo "${cores[*]:$(((k - 1) * per_node)):$per_node}")
      slots=$per_node
    else  # more nodes than cores: nodes share cores round-robin
      node_cores=${cores[$(((k - 1) % ${#cores[@]}))]}
      slots=1
    fi
    local cgroup=""
    if [[ -n $cgroups ]]; then
      cgroup=$cgroups/$namespace
      mkdir "$cgroup"
      record cgroup "$cgroup"
      echo "$node_cores" > "$cgroup/cpuset.cpus"
      echo "$mems" > "$cgroup/cpuset.mems"
    fi
    echo "$(address_of "$k") slots=$slots" >> "$state/hostfile"
    echo "$k $namespace $(address_of "$k") $node_cores $node_rate_bits ${delay:-none} ${cgroup:-none}" >> "$state/nodes"
  done
  # The agent both launchers are given: one executable path, no arguments.
  printf '#!/bin/sh\nexec %q agent "$@"\n' "$self" > "$state/agent"
  chmod +x "$state/agent"
  trap - EXIT
  cluster_status
  ((per_node >= 1)) || echo "cluster.sh: $count nodes on ${#cores[@]} cores: nodes share cores, timings of busy-waiting MPI suffer" >&2
  [[ -n $cgroups ]] || echo "cluster.sh: no cpuset cgroup here: every node sees the whole machine's cores (numacoll: pass -p)" >&2
}

cluster_status() {
  [[ -f $state/nodes ]] || die "no cluster is up (scripts/cluster.sh up N)"
  local nodes
  nodes=$(wc -l < "$state/nodes")
  echo "cluster of $nodes nodes on bridge $bridge ($subnet); hostfile $state/hostfile"
  local k namespace address node_cores bits delay cgroup
  while read -r k namespace address node_cores bits delay cgroup; do
    local qdisc
    qdisc=$(tc -n "$namespace" qdisc show dev eth0 2> /dev/null | head -1 | cut -d' ' -f2,4-8 || true)
    echo "  node $k: namespace $namespace, $address, cores $node_cores, $((bits / 1000000)) Mbit/s, delay $delay, qdisc ${qdisc:-gone}"
  done < "$state/nodes"
}

# agent HOST COMMAND...: run COMMAND (one string or words, as ssh takes it) on
# the node whose address is HOST, in its namespace, cpuset and host name.
cluster_agent() {
  local host=${1:-}
  shift || true
  [[ -f $state/nodes ]] || die "no cluster is up (scripts/cluster.sh up N)"
  local k namespace address node_cores bits delay cgroup found=""
  while read -r k namespace address node_cores bits delay cgroup; do
    [[ $host == "$address" || $host == "$namespace" || $host == "$k" ]] && { found=$k; break; }
  done < "$state/nodes"
  [[ -n $found ]] || die "no node '$host' in this cluster (addresses $(cut -d' ' -f3 "$state/nodes" | paste -sd' '))"
  (($#)) || die "agent $host: no command"
  local command="$*"
  if [[ $cgroup != none ]]; then
    local procs=$cgroup/tasks
    [[ -f $procs ]] || procs=$cgroup/cgroup.procs
    echo $$ > "$procs"
  else
    command="exec taskset -c $node_cores sh -c $(printf %q "$command")"
  fi
  # nsenter rather than ip netns exec: that one mounts a sysfs of its own over
  # /sys, hiding the cgroup mount that tells hwloc which cores are the node's.
  exec nsenter --net="/run/netns/$namespace" unshare --uts sh -c 'hostname "$1" && shift && exec sh -c "$*"' sh "$namespace" "$command"
}

# The launchers' own options for this cluster; the caller's come after.
cluster_mpirun() {
  [[ -f $state/nodes ]] || die "no cluster is up (scripts/cluster.sh up N)"
  # Entering a namespace takes root, so the whole job runs as root, which
  # Open MPI refuses unless told twice.
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  local bind=(--bind-to none)
  [[ " $* " != *" --bind-to "* ]] || bind=()
  exec mpirun --hostfile "$state/hostfile" "${bind[@]}" --mca plm_rsh_agent "$state/agent" \
    --mca oob_tcp_if_include $subnet --mca btl_tcp_if_include $subnet --mca btl tcp,vader,self "$@"
}

cluster_mpiexec_mpich() {
  [[ -f $state/nodes ]] || die "no cluster is up (scripts/cluster.sh up N)"
  local hosts
  hosts=$(sed 's/ slots=/:/' "$state/hostfile" | paste -sd,)
  exec mpiexec.mpich -launcher rsh -launcher-exec "$state/agent" -hosts "$hosts" -localhost $bridge_address "$@"
}

command=${1:-}
shift || true
case $command in
  up) cluster_up "$@" ;;
  down) [[ $(id -u) -eq 0 ]] || die "needs root to take the cluster down"; cluster_down ;;
  status) cluster_status ;;
  can) check_rights; echo "this machine can hold a cluster of network namespaces" ;;
  agent) cluster_agent "$@" ;;
  exec)
    (($# >= 2)) || usage "exec needs a node and a command: scripts/cluster.sh exec K COMMAND..."
    node=$1
    shift
    cluster_agent "$node" "$(printf '%q ' "$@")" ;;
  mpirun) cluster_mpirun "$@" ;;
  mpiexec.mpich) cluster_mpiexec_mpich "$@" ;;
  -h|--help) sed -n '16,21p' "$self" ;;
  "") usage "expected a command: up N, down, status, can, mpirun, mpiexec.mpich, exec K or agent (--help)" ;;
  *) usage "unknown command '$command' (expected up, down, status, can, mpirun, mpiexec.mpich, exec or agent)" ;;
esac
