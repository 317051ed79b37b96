#!/usr/bin/env bash
# tests/model/check-model.sh: CI check of the Lazaret protocol model.
#
#  1. drift: every action (disjunct of Next) and every property (Lazaret.cfg)
#     of protocol/Lazaret.tla has its counterpart in protocol/Lazaret.pml
#     (inline NAME / ltl NAME) and a row in the mapping table of
#     protocol/README.md; the constants of Lazaret.cfg equal the #defines of
#     Lazaret.pml; every mutant below exists in Lazaret.pml.
#  2. safety: one exhaustive Spin run of the mirror in which a monitor
#     process checks every safety property in every reachable state
#     (-DASSERT_INVARIANTS).
#  3. liveness: one exhaustive acceptance-cycle run per liveness property
#     (pan -a -f -N NAME).
#  4. mutants: each mutant removes or weakens the guard that protects one
#     property; Spin must find a counterexample for that property
#     (errors >= 1).
#
# A run passes only if pan says "errors: 0" and the search completed (no
# depth-limit truncation, no "search not completed"). Prints one line per
# check and ends with "model: N passed, N failed"; exits non-zero on failure.
# Needs spin (Debian: spin 6.5.2) and gcc. Runs in a temporary directory.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
PROTO="$ROOT/protocol"
TLA="$PROTO/Lazaret.tla"
CFG="$PROTO/Lazaret.cfg"
PML="$PROTO/Lazaret.pml"
README="$PROTO/README.md"
DEPTH=10000          # pan -m: far above the model's depth (about 50 / 100)
JOBS=${MODEL_JOBS:-2}

# mutant : property it must break : safety|liveness
MUTANTS=(
  "MUTANT_NO_APPROVAL:NoUnapprovedExecution:safety"
  "MUTANT_RUN_ORIGINAL:EditedRunsAsEdited:safety"
  "MUTANT_RESULT_BY_SESSION:ResultToRequester:safety"
  "MUTANT_ROUTE_ANY:PromptToOwner:safety"
  "MUTANT_NO_CERT_CHECK:NoUnboundRequestShownOrRun:safety"
  "MUTANT_NO_ANCHOR_CHECK:NoUnboundRequestShownOrRun:safety"
  "MUTANT_NO_SINGLE_USE:SingleUse:safety"
  "MUTANT_NO_LOCK:SingleOwner:safety"
  "MUTANT_NO_POLICY_WAIT:SandboxOnlyAfterPolicy:safety"
  "MUTANT_NO_ATTACH_MAC:SandboxOnlyAfterPolicy:safety"
  "MUTANT_EARLY_UNMOUNT:RecoveryOrder:safety"
  "MUTANT_NO_KILL_ON_END:NoOrphanHostCommand:safety"
  "MUTANT_NO_PDEATHSIG:NoOrphanHostCommand:safety"
  "MUTANT_SANDBOX_RULE:NoUnapprovedExecution:safety"
  "MUTANT_APPROVAL_LEAK:SessionApprovalScoped:safety"
  "MUTANT_APPROVAL_ANY_ARGV:SessionApprovalScoped:safety"
  "MUTANT_APPROVAL_KEPT:SessionApprovalScoped:safety"
  "MUTANT_PROMPT_NO_TTY:NoTerminalNeverPrompts:safety"
  "MUTANT_NO_QUEUE:OnePromptPerSession:safety"
  "MUTANT_NO_BOUND:BoundedQueues:safety"
  "MUTANT_NO_TIMEOUT:EveryRequestResolves:liveness"
  "MUTANT_NO_TEARDOWN:IdleDomainTornDown:liveness"
)

pass=0
fail=0
ok()  { echo "PASS $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
finish() {
  echo "model: $pass passed, $fail failed"
  if [ "$fail" -eq 0 ]; then exit 0; else exit 1; fi
}

for tool in spin gcc; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    bad "tools ($tool not found)"
    finish
  fi
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/lazaret-model.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# ---------------------------------------------------------------- names --
# Actions: the identifiers of the Next disjunction (minus the bound sets).
actions=$(awk '/^Next ==/{on=1; next} on && /^[^ ]/{exit} on' "$TLA" |
  grep -oE '\b[A-Z][A-Za-z]+\b' | grep -vxE 'Sess|Req' | sort -u)
# Properties: the INVARIANTS and PROPERTIES sections of the cfg.
props=$(awk '/^(INVARIANTS|PROPERTIES)/{on=1; next}
             /^[A-Z_]+/{on=0} on && NF==1 && $1 ~ /^[A-Za-z]+$/ {print $1}' "$CFG" | sort -u)
safety_props=$(awk '/^INVARIANTS/{on=1; next} /^[A-Z_]+/{on=0}
             on && NF==1 && $1 ~ /^[A-Za-z]+$/ {print $1}' "$CFG")
live_props=$(awk '/^PROPERTIES/{on=1; next} /^[A-Z_]+/{on=0}
             on && NF==1 && $1 ~ /^[A-Za-z]+$/ {print $1}' "$CFG")

if [ -z "$actions" ] || [ -z "$props" ]; then
  bad "drift (could not read action or property names from Lazaret.tla/.cfg)"
  finish
fi

drift=()
for a in $actions; do
  grep -qE "^inline $a\(" "$PML" || drift+=("action $a missing from Lazaret.pml")
  grep -qE "^\|.*\`$a[\`(]" "$README" || drift+=("action $a missing from README.md table")
done
for p in $props; do
  grep -qE "^ltl $p \{" "$PML" || drift+=("property $p missing from Lazaret.pml")
  grep -qE "^\|.*\`$p\`" "$README" || drift+=("property $p missing from README.md table")
  grep -qE "^$p ==" "$TLA" || drift+=("property $p in Lazaret.cfg not defined in Lazaret.tla")
done
while read -r name value; do
  grep -qE "^#define $name +$value\b" "$PML" ||
    drift+=("constant $name = $value differs in Lazaret.pml")
done < <(awk '/^CONSTANTS/{on=1; next} /^[A-Z_]+/{on=0}
              on && $2 == "=" {print $1, $3}' "$CFG")
for m in "${MUTANTS[@]}"; do
  grep -qw "${m%%:*}" "$PML" || drift+=("mutant ${m%%:*} not in Lazaret.pml")
done
# The C column: each `file` is followed by the `function()`s defined in it
# (a definition starts its line, as every function of this project does).
nfn=0
while IFS= read -r row; do
  case $row in *planned*) continue ;; esac
  file=""
  for tok in $(printf '%s\n' "$row" | awk -F'|' '{print $4}' |
      grep -oE '`[^`]+`' | tr -d '`'); do
    case $tok in
    */*.c|*/*.h) file=$tok
      [ -f "$ROOT/$file" ] || drift+=("C column: $file does not exist") ;;
    *"()")
      [ -n "$file" ] || continue
      nfn=$((nfn + 1))
      grep -qE "^${tok%()}\(" "$ROOT/$file" ||
        drift+=("C column: ${tok%()}() is not defined in $file") ;;
    esac
  done
done < <(awk '/^## Mapping: TLA\+ action/{on=1; next} /^## /{on=0}
              on && /^\| `/' "$README")
[ "$nfn" -gt 0 ] || drift+=("C column: no function found in the table")
if [ ${#drift[@]} -eq 0 ]; then
  ok "drift ($(echo "$actions" | wc -w) actions, $(echo "$props" | wc -w) properties, constants, $nfn C functions)"
else
  for d in "${drift[@]}"; do bad "drift ($d)"; done
fi

# --------------------------------------------------------------- helpers --
# build DIR [spin -D options...]: pan in DIR from Lazaret.pml
build() {
  local dir=$1; shift
  mkdir -p "$dir"
  cp "$PML" "$dir/Lazaret.pml"
  (cd "$dir" && spin "$@" -a Lazaret.pml >spin.log 2>&1)
}
# completed LOG: the search explored everything it was asked to
completed() {
  ! grep -qE 'search not completed|max search depth too small|Search not completed|out of memory' "$1"
}
stats() {
  local stored depth
  stored=$(grep -oE '^ *[0-9.e+]+ states, stored' "$1" | grep -oE '[0-9.e+]+' | head -1)
  depth=$(grep -oE 'depth reached [0-9]+' "$1" | grep -oE '[0-9]+' | head -1)
  echo "${stored:-?} states, depth ${depth:-?}"
}

# Every run below writes its report lines (PASS/FAIL, then indented
# details) to a file of $WORK; the runs share a pool of $JOBS processes
# (the two liveness runs are the longest and start first) and the reports
# are printed in a fixed order afterwards.

# ---------------------------------------------------------------- safety --
run_safety() {
  local S="$WORK/safety" out="$WORK/res-safety" st p
  if build "$S" -DASSERT_INVARIANTS -DNO_ENV_STOP &&
     (cd "$S" && gcc -O2 -DSAFETY -DNOCLAIM -o pan pan.c >gcc.log 2>&1 &&
      ./pan -m$DEPTH >pan.log 2>&1); then
    if grep -q 'errors: 0' "$S/pan.log" && completed "$S/pan.log"; then
      st=$(stats "$S/pan.log")
      for p in $safety_props; do echo "PASS safety $p ($st)"; done >"$out"
    else
      { for p in $safety_props; do echo "FAIL safety $p"; done
        grep -E 'assertion violated|errors:' "$S/pan.log" | head -3 |
          sed 's/^/  /'; } >"$out"
    fi
  else
    { echo "FAIL safety (spin/gcc/pan failed, see below)"
      tail -5 "$S"/*.log 2>/dev/null | sed 's/^/  /'; } >"$out"
  fi
}

# -------------------------------------------------------------- liveness --
# One pan for both properties, built before the pool starts.
L="$WORK/live"
live_built=0
if build "$L" && (cd "$L" && gcc -O2 -o pan pan.c >gcc.log 2>&1); then
  live_built=1
fi
run_live() {
  local p=$1 out="$WORK/res-live-$1"
  if [ "$live_built" -ne 1 ]; then
    { echo "FAIL liveness $p (spin/gcc failed)"
      tail -5 "$L"/*.log 2>/dev/null | sed 's/^/  /'; } >"$out"
  elif (cd "$L" && ./pan -a -f -m$DEPTH -N "$p" >"pan-$p.log" 2>&1) &&
     grep -q 'errors: 0' "$L/pan-$p.log" && completed "$L/pan-$p.log"; then
    echo "PASS liveness $p ($(stats "$L/pan-$p.log"), -a -f)" >"$out"
  else
    { echo "FAIL liveness $p"
      grep -E 'acceptance|errors:' "$L/pan-$p.log" | head -3 |
        sed 's/^/  /'; } >"$out"
  fi
}

# --------------------------------------------------------------- mutants --
run_mutant() {
  local name=${1%%:*} rest=${1#*:}
  local prop=${rest%%:*} kind=${rest#*:}
  local d="$WORK/m-$name" flags="-m$DEPTH" out="$WORK/res-m-${1%%:*}"
  [ "$kind" = liveness ] && flags="$flags -a -f"
  if build "$d" "-D$name" &&
     (cd "$d" && gcc -O0 -o pan pan.c >gcc.log 2>&1 &&
      ./pan $flags -N "$prop" >pan.log 2>&1); then
    if grep -qE 'errors: [1-9]' "$d/pan.log"; then
      echo "PASS mutant $name (counterexample for $prop at depth $(grep -oE 'at depth [0-9]+' "$d/pan.log" | head -1 | grep -oE '[0-9]+'))" >"$out"
    else
      echo "FAIL mutant $name ($prop not violated: the property or the mutant is vacuous)" >"$out"
    fi
  else
    echo "FAIL mutant $name (build or run error)" >"$out"
  fi
}

# ------------------------------------------------------------------ pool --
queue=()
for p in $live_props; do queue+=("run_live $p"); done
queue+=("run_safety")
for m in "${MUTANTS[@]}"; do queue+=("run_mutant $m"); done
running=0
for q in "${queue[@]}"; do
  $q &
  running=$((running + 1))
  if [ "$running" -ge "$JOBS" ]; then wait -n || true; running=$((running - 1)); fi
done
wait || true

# report: one file per run, in a fixed order
report() {
  local f=$1 line
  if [ ! -s "$f" ]; then bad "${f##*/res-} (no result)"; return; fi
  while IFS= read -r line; do
    case $line in
      "PASS "*) ok "${line#PASS }" ;;
      "FAIL "*) bad "${line#FAIL }" ;;
      *) echo "$line" ;;
    esac
  done <"$f"
}
report "$WORK/res-safety"
for p in $live_props; do report "$WORK/res-live-$p"; done
for m in "${MUTANTS[@]}"; do report "$WORK/res-m-${m%%:*}"; done

finish
