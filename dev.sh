#!/usr/bin/env bash
# dev.sh: the project's one entry point for setting up, building, running and testing.
#   bash dev.sh demo    install what is missing, build tlens, run the main job
#   bash dev.sh test    install what is missing, build, run every test (and the sanitizer build)
#   bash dev.sh bench   build and run the benchmarks
#   bash dev.sh tsan    the debugger's, language server's and protocol suites under ThreadSanitizer
#   bash dev.sh build   install what is missing and build
# Works as root on a fresh Debian 12 machine (uses sudo when not root).
set -euo pipefail
cd "$(dirname "$0")"
JOBS=$(nproc 2>/dev/null || echo 2)
# ccache keys on relative paths, so every clone of the repository shares one cache.
export CCACHE_BASEDIR="$PWD"
export CCACHE_NOHASHDIR=1

# Debian packages the build needs; the Python grammar comes from npm at configure time.
PKGS=(cmake ninja-build g++ ccache pkg-config nlohmann-json3-dev libboost-dev libeigen3-dev
      libtree-sitter-dev catch2 libjemalloc-dev python3 libboost-regex-dev zlib1g-dev libssl-dev python3-dev pybind11-dev libdnnl-dev)
# What the editor-integration tests drive: headless Chromium (graph view), Neovim (LSP client);
# the Python bridge's tests and the corpus programs import these from Debian's Python.
TEST_PKGS=(chromium neovim python3-numpy python3-matplotlib python3-pandas python3-sklearn python3-pil
           python3-ipython)

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

install_deps() {
  local missing=()
  for p in "${PKGS[@]}" "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  command -v npm >/dev/null 2>&1 || missing+=(npm)
  if ((${#missing[@]})); then
    echo "dev.sh: installing ${missing[*]}"
    as_root apt-get update -qq
    # All at once; if apt refuses the set, one by one (seen: "held broken packages" for a set
    # whose packages install fine alone).
    if ! as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; then
      for p in "${missing[@]}"; do
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$p" >/dev/null
      done
    fi
  fi
}

configure() {  # configure DIR [cmake args...]
  local dir=$1; shift
  if [ ! -f "$dir/build.ninja" ]; then
    cmake -S . -B "$dir" -G Ninja "$@" >/dev/null
  fi
}

build_release() {  # build_release [targets...]: everything, or only the targets named
  configure build -DCMAKE_BUILD_TYPE=Release
  if (($#)); then
    cmake --build build -j"$JOBS" --target "$@"
  else
    cmake --build build -j"$JOBS"
  fi
}

case "${1:-}" in
  build)
    install_deps
    build_release
    ;;
  demo)
    install_deps
    # Only what the demo runs: the binary (and the Python bridge it loads), not the test suites.
    build_release tlens
    # The main job, on the example programs: check them without running them (two have bugs on
    # purpose), train the TF1 MNIST MLP, then run the tfdbg tutorial's NaN bug with check-numerics,
    # which stops at the node that produced -inf.
    echo "== tlens check examples/ (shape_bug.py and int_bias.py have bugs on purpose)"
    ./build/tlens check examples/ || true
    echo "== tlens run examples/mnist_mlp_tf1.py"
    ./build/tlens run examples/mnist_mlp_tf1.py
    echo "== tlens run --check-numerics examples/tfdbg_nan.py (stops at the first -inf)"
    ./build/tlens run --check-numerics examples/tfdbg_nan.py || true
    echo "== tlens run --virtual-gpus 1 examples/device_placement.py (placement and copies as on a GPU machine)"
    ./build/tlens run --virtual-gpus 1 examples/device_placement.py 2>&1
    ;;
  test)
    install_deps "${TEST_PKGS[@]}"
    build_release
    ctest --test-dir build --output-on-failure -j"$JOBS"
    # The public corpus: every program expected to run clean still does (tests/corpus/).
    if [ -d ../shared/corpus ]; then
      python3 bench/corpus.py --expect tests/corpus/expected.tsv --clean-only --timeout 600 --jobs "$JOBS" ../shared/corpus
    else
      echo "dev.sh: ../shared/corpus is not there: the corpus check is skipped"
    fi
    bash tests/dap/e2e/run.sh "$PWD/build/tlens"
    bash tests/lsp/client/run.sh "$PWD/build/tlens"
    # The VS Code extension: build, lint, unit tests, graph view in headless Chromium, editor docs.
    TLENS="$PWD/build/tlens" bash extensions/vscode/test.sh
    # The same suites under AddressSanitizer + UndefinedBehaviorSanitizer, built with clang and
    # libFuzzer's coverage, so the same tree links the fuzz targets: the framing and the analyser
    # fuzzers then run from their seed corpora with a fixed seed and input count (reproducible).
    bash tests/fuzz/run.sh --install
    CC=clang CXX=clang++ configure build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
      -DCMAKE_C_FLAGS_DEBUG="-O1 -g1" -DTLENS_SANITIZE=ON -DTLENS_FUZZ=ON -DTLENS_BUILD_BENCH=OFF -DTLENS_CUDA=OFF
    cmake --build build-asan -j"$JOBS"
    # use_sigaltstack=0: the embedded CPython's faulthandler installs its own alternate signal
    # stack on the program thread, which ASan's thread teardown would otherwise try to unmap.
    # intercept_tls_get_addr=0: up to LLVM 16 the runtime's __tls_get_addr interceptor takes a
    # dynamic TLS block (CPython's extension modules have them) whose address is 16 mod 4096 for a
    # pre-2.25 glibc header and reads the two words before it; LeakSanitizer's tracer then dies
    # with "Tracer caught signal 11" at exit, by chance of where malloc put the block (seen once
    # in CI on the matplotlib bridge test; google/sanitizers#1170, Mudlet#9809).
    # TLENS_TEST_BUDGET_MS: analyses' wall-clock safety limit in the tests; under ASan on a loaded
    # machine the 5 s default was reached before the work budget (model_class.py, once in CI).
    TLENS_TEST_BUDGET_MS=60000 ASAN_OPTIONS=detect_leaks=1:use_sigaltstack=0:intercept_tls_get_addr=0 \
      LSAN_OPTIONS=suppressions="$PWD/tests/lsan.supp" ctest --test-dir build-asan --output-on-failure -j"$JOBS"
    FUZZ_BUILD=build-asan bash tests/fuzz/run.sh all --ci
    ;;
  tsan)
    # The debugger's and the language server's suites (threads: the DAP reader, the request
    # loop, the program; the LSP reader, the analysis worker, the background thread) and the
    # syntax tests (child lists shared between threads without a lock) under
    # ThreadSanitizer. Not part of `test`: a cold TSan build of the whole stack would push CI past
    # its time limit on 2 cores.
    install_deps
    configure build-tsan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
      -DCMAKE_C_FLAGS_DEBUG="-O1 -g1" -DCMAKE_CXX_FLAGS="-fsanitize=thread" -DCMAKE_C_FLAGS="-fsanitize=thread" \
      -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" -DTLENS_BUILD_BENCH=OFF -DTLENS_CUDA=OFF -DTLENS_NATIVE=OFF
    cmake --build build-tsan -j"$JOBS" --target tlens_dap_tests tlens_protocol_tests tlens_lsp_tests tlens_lang_tests
    TLENS_TEST_BUDGET_MS=600000 ctest --test-dir build-tsan --output-on-failure -j"$JOBS" \
      -R "^(dap|protocol|lsp):|^lang:(threads listing|child lists)"
    ;;
  bench)
    install_deps
    build_release
    ./build/tlens_bench "${@:2}"
    ;;
  *)
    sed -n '2,8p' "$0"
    exit 2
    ;;
esac
