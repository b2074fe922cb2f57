#!/usr/bin/env bash
# A polycube client of the kind users have: pipe a definition to the solver, list the
# solutions distinct up to symmetry with statistics, and check that the number of
# solution blocks agrees with the solver's own UNIQUE= count.
#
# Usage: polycube_client.sh [PROGRAM] DEFINITION
# PROGRAM defaults to $POLYCUBE, else `polycube`; pointing it at fila is the only change.
set -euo pipefail

program=${POLYCUBE:-polycube}
if [ $# -ge 2 ]; then
    program=$1
    shift
fi
definition=$1

output=$(cat "$definition" | "$program" --unique=1 --info=1)

blocks=$(printf '%s\n' "$output" | grep -c '^# --- SOLUTION [0-9]* ---$' || true)
unique=$(printf '%s\n' "$output" | sed -n 's/^UNIQUE=//p')
last=$(printf '%s\n' "$output" | sed -n 's/^# --- SOLUTION \([0-9]*\) ---$/\1/p' | tail -n 1)

if [ -z "$unique" ]; then
    echo "no UNIQUE= line in the output of $program" >&2
    exit 1
fi
if [ "$blocks" -ne "$unique" ]; then
    echo "$definition: $blocks solution blocks but UNIQUE=$unique" >&2
    exit 1
fi
if [ "$blocks" -gt 0 ] && [ "$last" -ne "$blocks" ]; then
    echo "$definition: the last block is numbered $last, not $blocks" >&2
    exit 1
fi
echo "$definition: $unique unique solutions"
