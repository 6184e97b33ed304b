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
# clang with libFuzzer's runtime, and LLVM's OpenMP (the project's CMake asks for OpenMP).
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
install() {
  echo "tests/fuzz: installing $*"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
command -v clang++ >/dev/null && dpkg -s libomp-dev >/dev/null 2>&1 || install clang libomp-dev
probe=$(mktemp -d)
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' > "$probe/p.cpp"
if ! clang++ -fsanitize=fuzzer "$probe/p.cpp" -o "$probe/p" 2>/dev/null; then
  major=$(clang++ -dumpversion | cut -d. -f1)
  install "libclang-rt-$major-dev"
  clang++ -fsanitize=fuzzer "$probe/p.cpp" -o "$probe/p" || { echo "tests/fuzz: clang cannot link -fsanitize=fuzzer" >&2; exit 1; }
fi
rm -rf "$probe"
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
