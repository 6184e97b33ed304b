#!/usr/bin/env bash
# GPU check for a machine with a CUDA device: builds Release with the CUDA backend, runs the CUDA
# test suite (parity with the CPU, gradients, allocator, numerics) and the GPU benchmarks.
# Without nvcc or without a device it says so and exits 0.
#
#   bash bench/gpu.sh [--quick]        (from the repository root; build dir: build-gpu)
set -euo pipefail
cd "$(dirname "$0")/.."
QUICK=""
[[ "${1:-}" == "--quick" ]] && QUICK="--quick"
BUILD="${TLENS_GPU_BUILD_DIR:-build-gpu}"

NVCC="$(command -v nvcc || true)"
[[ -z "$NVCC" && -x /usr/local/cuda/bin/nvcc ]] && NVCC=/usr/local/cuda/bin/nvcc
if [[ -z "$NVCC" ]]; then
  echo "bench/gpu.sh: no CUDA toolkit (nvcc) on this machine: cannot build or run the GPU checks"
  exit 0
fi
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "bench/gpu.sh: no NVIDIA device visible (nvidia-smi): cannot run the GPU checks"
  exit 0
fi
nvidia-smi -L

JOBS="${TLENS_GPU_JOBS:-$(nproc)}"
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
start=$(date +%s)
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DTLENS_CUDA=ON \
  -DCMAKE_CUDA_COMPILER="$NVCC" ${CMAKE_CUDA_ARCHITECTURES:+-DCMAKE_CUDA_ARCHITECTURES=$CMAKE_CUDA_ARCHITECTURES} >/dev/null
grep -q "TLENS_HAVE_CUDA" "$BUILD/CMakeCache.txt" || true
cmake --build "$BUILD" -j "$JOBS" --target tlens_cuda_tests tlens_bench
echo "bench/gpu.sh: build took $(( $(date +%s) - start )) s"

# The suite must actually run on the device: a skip here means the runtime found no device.
out="$("$BUILD/tests/tlens_cuda_tests" "[cuda]" 2>&1)" && status=0 || status=$?
echo "$out" | tail -n 60
if echo "$out" | grep -q "no CUDA device: skipped"; then
  echo "bench/gpu.sh: FAILED: the CUDA tests skipped although nvidia-smi sees a device"
  exit 1
fi
[[ $status -eq 0 ]] || { echo "bench/gpu.sh: FAILED: CUDA test suite (exit $status)"; exit "$status"; }
echo "bench/gpu.sh: CUDA test suite passed"

"$BUILD/tlens_bench" $QUICK gpu
