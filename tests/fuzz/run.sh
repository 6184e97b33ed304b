#!/usr/bin/env bash
# Builds the libFuzzer targets with clang in their own tree (build-fuzz: ASan + UBSan +
# fuzzer coverage) and runs each for a bounded time from the committed seed corpus.
#   bash tests/fuzz/run.sh [framing|analyzer|all] [seconds per target, default 20]
# framing:  protocol::FrameDecoder (cheap to build: the protocol library only)
# analyzer: lsp analyze() + every feature + the LSP adapter (builds the engine, interpreter and
#           tensorflow modules under ASan: a long cold build, see docs/performance.md)
# New inputs found go to build-fuzz/corpus/<target>/ (not committed); a crash stops the run with
# the reproducer in build-fuzz/ and a non-zero status.
set -euo pipefail
cd "$(dirname "$0")/../.."
which=${1:-all}
seconds=${2:-20}
case "$which" in framing|analyzer) targets=("$which") ;; all) targets=(framing analyzer) ;;
  *) echo "usage: run.sh [framing|analyzer|all] [seconds]" >&2; exit 2 ;; esac
command -v clang++ >/dev/null || { echo "tests/fuzz: clang++ is required" >&2; exit 1; }
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
if [ ! -f build-fuzz/build.ninja ]; then
  CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DCMAKE_C_FLAGS_DEBUG="-O1 -g1" \
    -DTLENS_FUZZ=ON -DTLENS_SANITIZE=ON -DTLENS_BUILD_TESTS=OFF -DTLENS_BUILD_BENCH=OFF -DTLENS_CUDA=OFF >/dev/null
fi
for t in "${targets[@]}"; do
  start=$(date +%s)
  cmake --build build-fuzz -j"$(nproc)" --target "tlens_fuzz_$t"
  echo "tests/fuzz: built tlens_fuzz_$t in $(( $(date +%s) - start )) s"
  mkdir -p "build-fuzz/corpus/$t"
  # -rss_limit_mb: the analyser fuzzer links the whole engine; its baseline is a few hundred MB.
  (cd build-fuzz && ASAN_OPTIONS=detect_leaks=1 "./tests/fuzz/tlens_fuzz_$t" -max_total_time="$seconds" \
     -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 "corpus/$t" "../tests/fuzz/corpus/$t")
done
