#!/usr/bin/env bash
# Coverage-guided fuzzing (cargo-fuzz, libFuzzer) of every reader of text a user or a server
# wrote: the targets in fuzz/ (fuzz/fuzz_targets/*.rs) are built once on the nightly
# toolchain, optimised with overflow checks, then each runs for FUZZ_SECONDS (default 20)
# from its committed seed corpus fuzz/corpus/<target> (the inputs it finds go to
# fuzz/target/corpus/<target>, not into the repository). Prints per target the executions;
# exits non-zero when any target panics, hangs (an input over 10 s) or grows past 2 GB, and
# prints the input that did it (fuzz/artifacts/<target>/...), which
# `cd fuzz && cargo +nightly fuzz run -O -a -s none <target> <input>` replays.
#
#   scripts/fuzz.sh                                # every target, FUZZ_SECONDS each
#   FUZZ_SECONDS=120 scripts/fuzz.sh cel_rule crd_yaml
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-20}
# The longest one input may take before it counts as a hang (wall clock: raise it on a busy machine).
input_timeout=${FUZZ_TIMEOUT:-10}
toolchain=${FUZZ_TOOLCHAIN:-nightly}
jobs=${KUBEGEN_JOBS:-2}

# libFuzzer's instrumentation needs a nightly compiler; cargo-fuzz drives it.
if ! rustup run "$toolchain" rustc --version >/dev/null 2>&1; then
  rustup toolchain install "$toolchain" --profile minimal
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked
fi

# Safe Rust needs no AddressSanitizer to find a panic, an overflow, a hang or a blow-up,
# and builds and runs about twice as fast without it.
flags=(-O -a -s none)
cd fuzz
if [ $# -gt 0 ]; then targets=("$@"); else mapfile -t targets < <(cargo "+$toolchain" fuzz list); fi

started=$(date +%s)
CARGO_BUILD_JOBS=$jobs cargo "+$toolchain" fuzz build "${flags[@]}"
printf 'fuzz: built %s targets in %ss\n' "${#targets[@]}" $(($(date +%s) - started))

# The binaries as built, run as `cargo fuzz run` runs them (which would first rebuild
# whatever changed in the tree since).
bin=target/$(rustc "+$toolchain" -vV | sed -n 's/^host: //p')/release
mkdir -p target/logs
failed=()
for target in "${targets[@]}"; do
  mkdir -p "target/corpus/$target" "corpus/$target" "artifacts/$target"
  log=target/logs/$target.log
  status=0
  "$bin/$target" -artifact_prefix="artifacts/$target/" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout="$input_timeout" \
    -print_final_stats=1 "target/corpus/$target" "corpus/$target" >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  if [ "$status" -eq 0 ]; then
    printf 'fuzz %-24s %10s executions in %ss, corpus %s inputs\n' "$target" "${runs:-?}" "$seconds" \
      "$(find "target/corpus/$target" "corpus/$target" -type f | wc -l)"
  else
    failed+=("$target")
    printf '\nfuzz %-24s FAILED after %s executions (exit %s); the end of %s:\n' "$target" "${runs:-?}" "$status" "fuzz/$log"
    tail -40 "$log"
    input=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    printf 'the input: fuzz/%s (replay: cd fuzz && cargo +%s fuzz run -O -a -s none %s %s)\n\n' \
      "${input:-?}" "$toolchain" "$target" "${input:-?}"
  fi
done
printf 'fuzz: %s targets, %ss each, %ss in all\n' "${#targets[@]}" "$seconds" $(($(date +%s) - started))
if [ ${#failed[@]} -gt 0 ]; then
  printf 'fuzz: failed: %s\n' "${failed[*]}" >&2
  exit 1
fi
