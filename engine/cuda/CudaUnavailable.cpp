// The CUDA backend's interface when the build has no CUDA toolkit (or TLENS_CUDA=OFF): no
// devices, and a reason that says so. Only the queries may be called.
#include "engine/core/Error.h"
#include "engine/cuda/CudaBackend.h"

namespace tlens::cuda {

namespace {
[[noreturn]] void notBuilt(const char* what) {
  throwError(ErrorCode::FailedPrecondition,
             std::string(what) + ": this binary was built without the CUDA toolkit");
}
}  // namespace

bool built() { return false; }
int deviceCount() { return 0; }
std::string deviceName(int) { notBuilt("cuda::deviceName"); }
size_t totalMemory(int) { notBuilt("cuda::totalMemory"); }
std::string unavailableReason() { return "built without the CUDA toolkit"; }
Allocator* allocator(int) { notBuilt("cuda::allocator"); }
void registerKernels(KernelRegistry&) {}
bool gpuKernelUsable(std::string_view) { return false; }
bool allFinite(const Tensor&, int64_t*, int64_t*) { notBuilt("cuda::allFinite"); }
void beginFiniteScans(int, int) { notBuilt("cuda::beginFiniteScans"); }
void queueFiniteScan(const Tensor&, int) { notBuilt("cuda::queueFiniteScan"); }
std::vector<FiniteScan> finiteScanResults(int) { notBuilt("cuda::finiteScanResults"); }
void synchronize(int) {}

}  // namespace tlens::cuda
