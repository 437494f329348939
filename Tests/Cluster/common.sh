# Sourced by the cluster tests: the holdlab binary, a work directory, and comparisons.

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
HOLDLAB_BIN=${HOLDLAB_BIN:-$root/.build/release/holdlab}
[ -x "$HOLDLAB_BIN" ] || { echo "$0: no holdlab at $HOLDLAB_BIN (swift build -c release, or set HOLDLAB_BIN)" >&2; exit 1; }
HOLDLAB_BIN=$(readlink -f "$HOLDLAB_BIN")
export HOLDLAB_PROFILES=$root/Profiles
passed=0
failed=0

# skip REASON: say loudly that the test did not run (exit 0: a missing engine is not a failure of holdlab).
skip() {
  echo "=================================================================="
  echo "SKIPPED: $(basename "$0"): $1"
  echo "=================================================================="
  exit 0
}

check() {  # check NAME COMMAND...: one result line
  local name=$1; shift
  if "$@"; then echo "ok: $name"; passed=$((passed + 1)); else echo "FAILED: $name"; failed=$((failed + 1)); fi
}

# elapsed START_NS: seconds since START_NS (date +%s%N), with a decimal.
elapsed() {
  local ms=$(( ($(date +%s%N) - $1) / 1000000 ))
  printf '%d.%03d s' $((ms / 1000)) $((ms % 1000))
}

data_rows() { grep -v '^#' "$1"; }

# same_rows A B: the data rows (header included) are byte-identical, and so is everything but # command/# merged.
same_rows() {
  cmp -s <(data_rows "$1") <(data_rows "$2") || { echo "data rows differ: $1 $2" >&2; diff <(data_rows "$1") <(data_rows "$2") | head -5 >&2; return 1; }
  cmp -s <(grep -v -e '^# command:' -e '^# merged:' "$1") <(grep -v -e '^# command:' -e '^# merged:' "$2") || { echo "provenance differs: $1 $2" >&2; return 1; }
  [ "$(data_rows "$1" | wc -l)" -ge 2 ] || { echo "$1 has no data rows" >&2; return 1; }
}

summary() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
