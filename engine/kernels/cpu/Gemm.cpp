// Loading oneDNN for Gemm.h: dlopen at the first float32 product, once per process.
#include "engine/kernels/cpu/Gemm.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace tlens::gemm {
namespace {

// dnnl.h: dnnl_status_t dnnl_sgemm(char transa, char transb, dnnl_dim_t M, dnnl_dim_t N,
// dnnl_dim_t K, float alpha, const float *A, dnnl_dim_t lda, const float *B, dnnl_dim_t ldb,
// float beta, float *C, dnnl_dim_t ldc), row-major, dnnl_dim_t = int64_t, dnnl_success = 0.
using Sgemm = int (*)(char, char, int64_t, int64_t, int64_t, float, const float*, int64_t, const float*, int64_t, float,
                      float*, int64_t);
using SetThreads = void (*)(int);
struct Version {
  int major, minor, patch;
  const char *hash, *cpuRuntime, *gpuRuntime;
};
using GetVersion = const Version* (*)();

struct Dnnl {
  Sgemm sgemm = nullptr;
  SetThreads setThreads = nullptr;  ///< libgomp's omp_set_num_threads (oneDNN's OpenMP runtime)
  std::string name = "Eigen";
};

const Dnnl& dnnl() {
  static Dnnl d;
  static std::once_flag once;
  std::call_once(once, [] {
    const char* pick = std::getenv("TLENS_GEMM");
    if (pick && std::strcmp(pick, "eigen") == 0) return;
    void* h = dlopen("libdnnl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!h) return;
    auto sgemm = reinterpret_cast<Sgemm>(dlsym(h, "dnnl_sgemm"));
    if (!sgemm) return;
    d.sgemm = sgemm;
    // dlsym through the handle also searches oneDNN's own dependencies (its OpenMP runtime).
    d.setThreads = reinterpret_cast<SetThreads>(dlsym(h, "omp_set_num_threads"));
    d.name = "oneDNN";
    if (auto version = reinterpret_cast<GetVersion>(dlsym(h, "dnnl_version")))
      if (const Version* v = version())
        d.name += " " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch);
  });
  return d;
}

std::atomic<bool> eigenOnly{false};

}  // namespace

void setEigenOnly(bool on) { eigenOnly = on; }

bool sgemmDnnl(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b,
               int64_t ldb, float beta, float* c, int64_t ldc) {
  const Dnnl& d = dnnl();
  if (!d.sgemm) return false;
  if (eigenOnly.load(std::memory_order_relaxed)) return false;
  // oneDNN would start an OpenMP team per call whose spinning workers fight the engine's pool
  // for the cores: each call runs on its thread alone (an OpenMP setting of the calling thread,
  // set every time: other code of the process may change it).
  if (d.setThreads) d.setThreads(1);
  return d.sgemm(ta ? 'T' : 'N', tb ? 'T' : 'N', m, n, k, 1.0f, a, lda, b, ldb, beta, c, ldc) == 0;
}

std::string backendName() { return eigenOnly ? "Eigen" : dnnl().name; }

}  // namespace tlens::gemm
