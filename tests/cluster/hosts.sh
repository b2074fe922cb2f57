#!/usr/bin/env bash
# The README's GNU parallel recipe for other hosts, run as written over real ssh logins,
# on one machine: three hosts, each a network namespace (Debian's iproute2) on a private
# bridge. The first host, h1, runs the recipe with `-S h2,h3` for `-S host1,host2`; h2
# and h3 run sshd (Debian's openssh-server) with keys made for this run, and each has a
# directory `fila-shards` of its own in the home (a tmpfs mounted in the mount namespace
# of its sshd), so nothing a job writes there reaches h1 unless the recipe brings it back.
#
# 1. The Tetris Cube in 8 shards, the recipe as written: the executable is sent to each
#    host, each shard runs on h2 or h3, its output comes back, and `fila merge` adds the
#    outputs up to 9839.
# 2. The one-sided pentominoes in 18x5 in 4 shards (the recipe with that executable,
#    4 shards, one slot per host and a checkpoint written every 0.2 s). The first shard
#    on h3 is killed part-way, by strace at its second checkpoint write; the recipe run
#    again with `--resume-failed` (on h3, as if the host came back) resumes it from its
#    checkpoint there; the outputs add up to 686628.
#
# Usage (as root, after `cargo build --release`): tests/cluster/hosts.sh
# Needs ip, sshd, ssh, ssh-keygen, parallel, rsync and strace (Debian: iproute2
# openssh-server openssh-client parallel rsync strace). Exits non-zero, saying why, when a
# check fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
bin=$repo/target/release
for tool in ip sshd ssh ssh-keygen parallel rsync strace; do
    command -v "$tool" >/dev/null || { echo "hosts.sh: $tool is missing" >&2; exit 2; }
done
for exe in fila tetriscube one_sided_18x5; do
    [ -x "$bin/$exe" ] || { echo "hosts.sh: $bin/$exe is missing (cargo build --release)" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "hosts.sh: network namespaces need root" >&2; exit 2; }
strace -qq -o /dev/null true || { echo "hosts.sh: strace cannot trace a process here" >&2; exit 2; }

tmp=$(mktemp -d /tmp/fila-hosts.XXXXXX)
hosts=(h1 h2 h3)
workers=(h2 h3)
teardown() {
    for h in "${hosts[@]}"; do
        ip netns pids "fila-$h" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
        ip netns del "fila-$h" 2>/dev/null || true
    done
    ip link del fila-br 2>/dev/null || true
    rmdir ~/fila-shards 2>/dev/null || true
}
trap 'teardown; rm -rf "$tmp"' EXIT
teardown # what a killed run may have left

# The network: a bridge, and each host's eth0 on it (10.77.0.1 to .3).
ip link add fila-br type bridge
ip link set fila-br up
n=0
for h in "${hosts[@]}"; do
    n=$((n + 1))
    ip netns add "fila-$h"
    ip link add "fila-$h" type veth peer name eth0 netns "fila-$h"
    ip link set "fila-$h" master fila-br up
    ip -n "fila-$h" addr add "10.77.0.$n/24" dev eth0
    ip -n "fila-$h" link set eth0 up
    ip -n "fila-$h" link set lo up
done

# The keys, and sshd on the workers, each over its own /srv/fila.
ssh-keygen -q -t ed25519 -N '' -f "$tmp/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$tmp/id"
cp "$tmp/id.pub" "$tmp/authorized_keys"
mkdir -p /run/sshd
cat >"$tmp/sshd_config" <<EOF
Port 22
HostKey $tmp/host_key
AuthorizedKeysFile $tmp/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
StrictModes no
UsePAM no
EOF
cat >"$tmp/ssh_config" <<EOF
Host h2
    HostName 10.77.0.2
Host h3
    HostName 10.77.0.3
Host *
    User root
    IdentityFile $tmp/id
    IdentitiesOnly yes
    StrictHostKeyChecking no
    UserKnownHostsFile /dev/null
    BatchMode yes
    LogLevel ERROR
EOF
for h in "${workers[@]}"; do
    ip netns exec "fila-$h" unshare --mount --propagation private sh -c \
        "mkdir -p ~/fila-shards && mount -t tmpfs tmpfs ~/fila-shards && exec /usr/sbin/sshd -f '$tmp/sshd_config' -o PidFile='$tmp/sshd-$h.pid'"
done
on() { # on HOST COMMAND...: runs COMMAND on HOST as a user would, over ssh from h1
    local h=$1
    shift
    ip netns exec fila-h1 ssh -F "$tmp/ssh_config" "$h" "$@"
}
for h in "${workers[@]}"; do
    for _ in $(seq 50); do on "$h" true 2>/dev/null && break; sleep 0.1; done
    on "$h" 'test -z "$(ls -A fila-shards)"' || { echo "$h: fila-shards is not its own" >&2; exit 1; }
done
echo "hosts up: h1 (10.77.0.1) runs parallel; h2 (10.77.0.2) and h3 (10.77.0.3) run sshd"

# The README's block for other hosts, unindented.
recipe=$(awk '/^ *```sh/ { block = ""; inside = 1; next }
              /^ *```/ && inside { if (block ~ /--basefile/) { printf "%s", block; exit } inside = 0; next }
              inside { sub(/^ +/, ""); block = block $0 "\n" }' "$repo/README.md")
[ -n "$recipe" ] || { echo "README.md has no sh block with --basefile" >&2; exit 1; }
recipe=${recipe//target\/release\//$bin/}
recipe=${recipe//fila merge/$bin/fila merge}
run_recipe() { # run_recipe SCRIPT: on h1, in its own directory, with ssh to the test hosts
    (cd "$tmp/h1" && PARALLEL_SSH="ssh -F $tmp/ssh_config" ip netns exec fila-h1 sh -c "$1")
}
mkdir -p "$tmp/h1"
hosts_of() { # the hosts in a joblog, once each
    awk -F'\t' 'NR > 1 { print $2 }' "$1" | sort -u | tr '\n' ' '
}

echo
echo "== 1. The Tetris Cube in 8 shards over h2 and h3: the README's recipe"
tetris=${recipe//host1,host2/h2,h3}
echo "$tetris"
merged=$(run_recipe "$tetris")
used=$(hosts_of "$tmp/h1/shards.log")
echo "hosts used: $used"
[ "$used" = "h2 h3 " ] || { echo "the shards did not run on both hosts" >&2; exit 1; }
grep -H '^SOLUTIONS=' "$tmp"/h1/shard-*.txt | sed "s|$tmp/h1/||"
echo "$merged" | grep -E '^(SOLUTIONS|SHARDS)='
echo "$merged" | grep -qx 'SOLUTIONS=9839' || { echo "merged count is not 9839" >&2; exit 1; }
for h in "${workers[@]}"; do
    echo "$h keeps: $(on "$h" 'ls fila-shards | tr "\n" " "')"
done
rm -f "$tmp"/h1/shard-*.txt "$tmp"/h1/shards.log
for h in "${workers[@]}"; do on "$h" 'rm -f fila-shards/*'; done

echo
echo "== 2. The one-sided pentominoes in 18x5 in 4 shards, one killed on h3 and resumed there"
sided=${recipe//tetriscube/one_sided_18x5}
sided=${sided//\{\}\/8/\{\}\/4}
sided=${sided//::: 1 2 3 4 5 6 7 8/::: 1 2 3 4}
sided=${sided//--checkpoint \$c/--checkpoint \$c --checkpoint-every 0.2}
first=${sided//host1,host2/1\/h2,1\/h3}
# The first shard to run on h3 is killed part-way (SIGKILL: as if its host had gone away
# under it): strace(1) sends it the signal as it begins to replace its checkpoint for the
# second time, so the checkpoint left on h3 holds the subtrees of its first write, at least
# one. The words that run it under strace wait in a file of h3's fila-shards, which that
# shard takes away, so later shards there run as written.
first=${first//.\/one_sided_18x5 /\$(cat kill-with 2>\/dev\/null \&\& rm kill-with) .\/one_sided_18x5 }
again=${sided//host1,host2/1\/h3}
again=${again//parallel --will-cite/parallel --will-cite --resume-failed}
on h3 "echo strace -f -qq -o /dev/null -e trace=rename,renameat,renameat2 \
    -e inject=rename,renameat,renameat2:signal=KILL:when=2 >fila-shards/kill-with"
echo "$first"
run_recipe "$first" >"$tmp/first.out" 2>"$tmp/first.err" || true
echo "the run's joblog (host, exit status, signal) and what fila merge said:"
cut -f 2,7,8 "$tmp/h1/shards.log"
grep -v Killed "$tmp/first.err" || true
on h3 'test ! -e fila-shards/kill-with' || { echo "no shard ran on h3" >&2; exit 1; }
failed=$(awk -F'\t' 'NR > 1 && $7 != 0 { print $2, $NF }' "$tmp/h1/shards.log")
killed=$(echo "$failed" | sed -nE 's|^h3 .*--shard ([0-9]+)/4.*|\1|p')
[ -n "$killed" ] && [ "$(echo "$failed" | wc -l)" = 1 ] \
    || { echo "the joblog does not show one shard failed on h3: ${failed:-none}" >&2; exit 1; }
echo "killed shard $killed on h3 part-way; its checkpoint there:"
on h3 "grep -E '^(SHARD|DONE|SOLUTIONS)=' fila-shards/checkpoint-$killed"
on h3 "grep -q '^DONE=[0-9]' fila-shards/checkpoint-$killed" \
    || { echo "shard $killed left no finished subtree in its checkpoint" >&2; exit 1; }
echo
echo "the recipe again, with --resume-failed, h3 back:"
echo "$again"
merged=$(run_recipe "$again")
grep -H -E '^(SOLUTIONS|RESUMED_SUBTREES)=' "$tmp"/h1/shard-*.txt | sed "s|$tmp/h1/||"
grep -q '^RESUMED_SUBTREES=[1-9]' "$tmp/h1/shard-$killed.txt" \
    || { echo "shard $killed did not resume from its checkpoint" >&2; exit 1; }
echo "$merged" | grep -E '^(SOLUTIONS|SHARDS)='
echo "$merged" | grep -qx 'SOLUTIONS=686628' || { echo "merged count is not 686628" >&2; exit 1; }
echo
echo "hosts.sh: both runs gave the exact count"
