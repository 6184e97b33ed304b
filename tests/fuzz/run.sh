#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan + fuzzer coverage) and runs each for a
# bounded time from the committed seed corpus.
#   bash tests/fuzz/run.sh [framing|analyzer|all] [seconds per target, default 20]
#   bash tests/fuzz/run.sh [framing|analyzer|all] --ci
#   bash tests/fuzz/run.sh --install   only install clang and its fuzzer runtime
# Seconds: exploration, a new random seed each run (what a developer runs to find new bugs).
# --ci: reproducible, a fixed seed and a fixed number of inputs per target (framing 200000,
#   analyzer 400: about 20-40 s each under ASan), so a CI failure is the same failure on every
#   machine and on a rerun, and the reproducer is one command away. A random seed in CI found a
#   new bug in two of three runs, each a different one: real bugs, but a gate that passed or
#   failed by chance.
# framing:  protocol::FrameDecoder (cheap to build: the protocol library only)
# analyzer: lsp analyze() + every feature + the LSP adapter (builds the engine, interpreter and
#           tensorflow modules under ASan: a long cold build, see docs/performance.md)
# The tree is build-fuzz, or $FUZZ_BUILD: `bash dev.sh test` builds its sanitizer tree
# (build-asan) with clang and fuzzer coverage, and runs both targets from it, so CI compiles the
# stack under ASan once for the test suites and the fuzzers.
# New inputs found go to <tree>/corpus/<target>/ (not committed); a crash stops the run with
# the reproducer in the tree and a non-zero status.
set -euo pipefail
cd "$(dirname "$0")/../.."
which=${1:-all}
seconds=${2:-20}
tree=${FUZZ_BUILD:-build-fuzz}
case "$which" in framing|analyzer) targets=("$which") ;; all) targets=(framing analyzer) ;; --install) targets=() ;;
  *) echo "usage: run.sh [framing|analyzer|all|--install] [seconds|--ci]" >&2; exit 2 ;; esac
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
[ "$which" = --install ] && exit 0
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
if [ ! -f "$tree/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -S . -B "$tree" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DCMAKE_C_FLAGS_DEBUG="-O1 -g1" \
    -DTLENS_FUZZ=ON -DTLENS_SANITIZE=ON -DTLENS_BUILD_TESTS=OFF -DTLENS_BUILD_BENCH=OFF -DTLENS_CUDA=OFF >/dev/null
fi
for t in "${targets[@]}"; do
  start=$(date +%s)
  cmake --build "$tree" -j"$(nproc)" --target "tlens_fuzz_$t"
  echo "tests/fuzz: built tlens_fuzz_$t in $(( $(date +%s) - start )) s"
  if [ "$seconds" = --ci ]; then
    # An emptied output folder: what earlier runs found would change the inputs.
    case "$t" in framing) runs=200000 ;; *) runs=400 ;; esac
    rm -rf "$tree/corpus-ci/$t" && mkdir -p "$tree/corpus-ci/$t"
    limit=(-seed=1 -runs="$runs")
    dirs=("corpus-ci/$t" "../tests/fuzz/corpus/$t")
  else
    mkdir -p "$tree/corpus/$t"
    limit=(-max_total_time="$seconds")
    dirs=("corpus/$t" "../tests/fuzz/corpus/$t")
  fi
  # -rss_limit_mb: the analyser fuzzer links the whole engine; its baseline is a few hundred MB.
  (cd "$tree" && ASAN_OPTIONS=detect_leaks=1 "./tests/fuzz/tlens_fuzz_$t" "${limit[@]}" \
     -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 "${dirs[@]}")
done
