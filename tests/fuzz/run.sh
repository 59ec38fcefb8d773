#!/usr/bin/env bash
# Fuzzes each target of a libFuzzer build (meson setup DIR -Dfuzzing=true,
# with CC=clang) for SECONDS, one after the other, starting from the
# checked-in corpus (tests/fuzz/corpus/TARGET, left untouched: new inputs
# go to DIR/fuzz-work/TARGET). Findings land in DIR/fuzz-work as
# TARGET-crash-*, -timeout-*, -oom-*; the exit status is 1 if there are any.
#
# usage: tests/fuzz/run.sh DIR SECONDS [TARGET...]   (targets: scene replay options)
#   KEEP_GOING=1: libFuzzer's fork mode, which records a finding and goes on
#   fuzzing, rather than stopping at the first.
set -u
dir=$1
seconds=$2
shift 2
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(scene replay options)
here="$(cd "$(dirname "$0")" && pwd)"
# UBSan reports and goes on by default: a finding would scroll past, and in
# fork mode vanish with the child's log. Halting makes it a crash libFuzzer
# records (unless the caller asked otherwise).
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
status=0
for t in "${targets[@]}"; do
    work="$dir/fuzz-work/$t"
    mkdir -p "$work"
    extra=()
    if [ "${KEEP_GOING:-}" = 1 ]; then
        extra=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
    fi
    echo "=== fuzz_$t for $seconds s"
    # -timeout: one input may take 10 s (the targets step at most a few
    # hundred balls a dozen times); -rss_limit_mb: a 2 GiB cap.
    "$dir/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$dir/fuzz-work/$t-" "${extra[@]}" \
        "$work" "$here/corpus/$t" </dev/null || status=1
    if ls "$dir/fuzz-work/$t-"* >/dev/null 2>&1; then
        echo "fuzz_$t: findings:"
        ls "$dir/fuzz-work/$t-"*
        status=1
    fi
done
exit $status
