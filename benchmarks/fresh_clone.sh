#!/usr/bin/env bash
# A stranger's first hour, measured: clone the repository into an empty temporary folder
# (nothing beside it), run the README's two commands literally, and print how long each took.
#
#   bash benchmarks/fresh_clone.sh [BRANCH]      # default: main
#
# 1. The "Run the web app" command, until http://127.0.0.1:8000/ answers 200 (then stopped):
#    the time from the command's start (installing included) and from the `qipan serve`
#    process's start. The default database goes to a new data folder (XDG_DATA_HOME).
# 2. The "Run the tests" command, with PYTEST_ADDOPTS=--durations=20 for the slowest tests:
#    its wall time and pytest's summary line.
# Both commands are read from README.md, so the script measures what a newcomer types.
set -euo pipefail

repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
branch=${1:-main}
work=$(mktemp -d "${TMPDIR:-/tmp}/qipan-fresh.XXXXXX")
serve_pid=""
cleanup() {
    if [ -n "$serve_pid" ]; then kill -INT -- "-$serve_pid" 2>/dev/null || true; sleep 2; kill -KILL -- "-$serve_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

git clone -q --branch "$branch" "$repo" "$work/qipan"
cd "$work/qipan"
echo "fresh clone of $branch ($(git rev-parse --short HEAD)) in $work/qipan; beside it: $(ls -A "$work" | tr '\n' ' ')"

# The first sh block after each heading line of the README.
readme_command() {
    python3 - "$1" <<'EOF'
import re, sys
text = open("README.md", encoding="utf-8").read()
start = text.index(sys.argv[1])
print(re.search(r"```sh\n(.*?)\n```", text[start:], re.S).group(1).strip())
EOF
}
serve_command=$(readme_command "**Run the web app**")
test_command=$(readme_command "**Run the tests**")

if (exec 3<>/dev/tcp/127.0.0.1/8000) 2>/dev/null; then
    echo "port 8000 is taken on this machine: the README's serve command cannot be measured" >&2
    exit 1
fi

echo
echo "== 1. $serve_command"
export XDG_DATA_HOME="$work/data"
started=$(date +%s.%N)
setsid bash -c "$serve_command" >"$work/serve.log" 2>&1 &
serve_pid=$!
process_started=""
answered=""
for _ in $(seq 9000); do  # at most about 30 minutes
    # The README runs .venv/bin/qipan by a relative path: the interpreter's command line shows it so.
    if [ -z "$process_started" ] && pgrep -f "^$work/qipan/.venv/bin/python[0-9.]* \.venv/bin/qipan serve" >/dev/null; then
        process_started=$(date +%s.%N)
    fi
    if [ "$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:8000/ 2>/dev/null)" = "200" ]; then
        answered=$(date +%s.%N)
        break
    fi
    kill -0 "$serve_pid" 2>/dev/null || break
    sleep 0.2
done
if [ -z "$answered" ]; then
    echo "the site never answered 200; its console:" >&2
    cat "$work/serve.log" >&2
    exit 1
fi
status=$(curl -s http://127.0.0.1:8000/api/status || true)
kill -INT -- "-$serve_pid" 2>/dev/null || true
wait "$serve_pid" 2>/dev/null || true
serve_pid=""
echo "console of qipan serve (its own lines):"
grep '^qipan:' "$work/serve.log" | sed 's/^/  /'
printf 'first HTTP 200: %.1f s after the command started (installing included), %.1f s after the qipan serve process started\n' \
    "$(echo "$answered - $started" | bc)" "$(echo "$answered - ${process_started:-$started}" | bc)"
echo "status then: $status"

echo
echo "== 2. $test_command"
started=$(date +%s.%N)
set +e
PYTEST_ADDOPTS="--durations=20" bash -c "$test_command" >"$work/test.log" 2>&1
code=$?
set -e
finished=$(date +%s.%N)
sed -n '/slowest 20 durations/,/^$/p' "$work/test.log"
if [ "$code" -ne 0 ]; then  # the failures' own lines (the summary cuts messages to the width)
    grep -E '^(E  |_{3,} .* _{3,}$)' "$work/test.log" | head -n 60
fi
tail -n 1 "$work/test.log"
printf 'test command: exit %d, %.0f s wall (installing and compiling the kernels included)\n' "$code" "$(echo "$finished - $started" | bc)"
exit "$code"
