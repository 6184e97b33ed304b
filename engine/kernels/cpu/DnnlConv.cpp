// Running DnnlConv.h's convolutions on oneDNN: the C API resolved with dlsym at the first use (the
// types come from Debian's libdnnl-dev headers; without them this file only says "not available"),
// primitives cached per pass and geometry, and a batch split over the engine's pool.
#include "engine/kernels/cpu/DnnlConv.h"

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "engine/runtime/ThreadPool.h"

#if __has_include(<oneapi/dnnl/dnnl.h>)
#include <oneapi/dnnl/dnnl.h>  // types and declarations only: every function is resolved with dlsym
#define TLENS_HAVE_DNNL_HEADERS 1
#endif

namespace tlens::dnnlconv {
namespace {

std::atomic<bool> disabled{false};

#ifdef TLENS_HAVE_DNNL_HEADERS

// Every oneDNN function used here, resolved from libdnnl.so.2 by name.
#define TLENS_DNNL_FUNCTIONS(X)                        \
  X(dnnl_version)                                      \
  X(dnnl_engine_create)                                \
  X(dnnl_stream_create)                                \
  X(dnnl_stream_destroy)                               \
  X(dnnl_memory_desc_init_by_tag)                      \
  X(dnnl_memory_desc_get_size)                         \
  X(dnnl_memory_desc_equal)                            \
  X(dnnl_memory_create)                                \
  X(dnnl_memory_destroy)                               \
  X(dnnl_dilated_convolution_forward_desc_init)        \
  X(dnnl_dilated_convolution_backward_data_desc_init)  \
  X(dnnl_dilated_convolution_backward_weights_desc_init) \
  X(dnnl_reorder_primitive_desc_create)                \
  X(dnnl_primitive_attr_create)                        \
  X(dnnl_primitive_attr_destroy)                       \
  X(dnnl_primitive_attr_set_scratchpad_mode)           \
  X(dnnl_primitive_desc_create)                        \
  X(dnnl_primitive_desc_destroy)                       \
  X(dnnl_primitive_desc_query)                         \
  X(dnnl_primitive_desc_query_md)                      \
  X(dnnl_primitive_create)                             \
  X(dnnl_primitive_destroy)                            \
  X(dnnl_primitive_execute)

struct Api {
#define TLENS_DNNL_POINTER(f) decltype(&::f) f = nullptr;
  TLENS_DNNL_FUNCTIONS(TLENS_DNNL_POINTER)
#undef TLENS_DNNL_POINTER
  void (*setThreads)(int) = nullptr;  ///< libgomp's omp_set_num_threads (oneDNN's OpenMP runtime)
  dnnl_engine_t engine = nullptr;
  std::string name = "Eigen";
  bool ok = false;
};

const Api& api() {
  static Api a;
  static std::once_flag once;
  std::call_once(once, [] {
    for (const char* var : {"TLENS_CONV", "TLENS_GEMM"})
      if (const char* pick = std::getenv(var); pick && std::strcmp(pick, "eigen") == 0) return;
    void* h = dlopen("libdnnl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!h) return;
#define TLENS_DNNL_RESOLVE(f)                                       \
  a.f = reinterpret_cast<decltype(&::f)>(dlsym(h, #f));             \
  if (!a.f) return;
    TLENS_DNNL_FUNCTIONS(TLENS_DNNL_RESOLVE)
#undef TLENS_DNNL_RESOLVE
    // The structures in the headers are oneDNN 2.x's (3.x made them opaque): same major only.
    const dnnl_version_t* v = a.dnnl_version();
    if (!v || v->major != DNNL_VERSION_MAJOR) return;
    if (a.dnnl_engine_create(&a.engine, dnnl_cpu, 0) != dnnl_success) return;
    a.setThreads = reinterpret_cast<void (*)(int)>(dlsym(h, "omp_set_num_threads"));
    a.name = "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch);
    a.ok = true;
  });
  return a;
}

/// 64-byte aligned scratch memory that only grows; get() answers nullptr when it cannot.
struct Buffer {
  struct Free {
    void operator()(void* p) const { std::free(p); }
  };
  std::unique_ptr<void, Free> p;
  size_t size = 0;
  void* get(size_t bytes) {
    if (bytes > size) {
      p.reset(std::aligned_alloc(64, (bytes + 63) / 64 * 64));
      size = p ? bytes : 0;
    }
    return p.get();
  }
};

/// One argument of a convolution: the user's layout and the primitive's, and the reorder between
/// them when they differ (user -> primitive for inputs, primitive -> user for the output).
struct Arg {
  int role = 0;
  bool output = false;
  dnnl_memory_desc_t user{}, prim{};
  dnnl_primitive_t reorder = nullptr;
  size_t primBytes = 0;
};

/// A primitive for one pass and geometry (one sub-batch size).
struct Conv {
  dnnl_primitive_t prim = nullptr;
  std::array<Arg, 3> args;  // a, b, out of run()
  size_t scratch = 0;       // the largest scratchpad of the primitive and its reorders
  std::string impl;
  ~Conv() {
    const Api& d = api();
    for (Arg& x : args)
      if (x.reorder) d.dnnl_primitive_destroy(x.reorder);
    if (prim) d.dnnl_primitive_destroy(prim);
  }
};

/// Per thread: a stream and the buffers of the reorders and the scratchpad.
struct ThreadState {
  dnnl_stream_t stream = nullptr;
  std::array<Buffer, 3> args;
  Buffer scratch;
  ~ThreadState() {
    if (stream) api().dnnl_stream_destroy(stream);
  }
};

ThreadState& threadState() {
  thread_local ThreadState t;
  if (!t.stream && api().dnnl_stream_create(&t.stream, api().engine, dnnl_stream_default_flags) != dnnl_success)
    t.stream = nullptr;
  return t;
}

/// Destroys a primitive descriptor or an attribute at the end of a scope.
template <typename T, dnnl_status_t (*Api::*destroy)(T)>
struct Owned {
  T v = nullptr;
  ~Owned() {
    if (v) (api().*destroy)(v);
  }
};
using OwnedPd = Owned<dnnl_primitive_desc_t, &Api::dnnl_primitive_desc_destroy>;
using OwnedAttr = Owned<dnnl_primitive_attr_t, &Api::dnnl_primitive_attr_destroy>;

/// The scratchpad size of a primitive descriptor created with a user-managed scratchpad.
size_t scratchpadBytes(const_dnnl_primitive_desc_t pd) {
  const dnnl_memory_desc_t* md = api().dnnl_primitive_desc_query_md(pd, dnnl_query_scratchpad_md, 0);
  return md ? api().dnnl_memory_desc_get_size(md) : 0;
}

/// Fills x.prim from the primitive descriptor and, when it differs from x.user, x.reorder.
bool bindArg(Arg& x, const_dnnl_primitive_desc_t pd, dnnl_query_t what, const_dnnl_primitive_attr_t attr, size_t& scratch) {
  const Api& d = api();
  const dnnl_memory_desc_t* md = d.dnnl_primitive_desc_query_md(pd, what, 0);
  if (!md) return false;
  x.prim = *md;
  x.primBytes = d.dnnl_memory_desc_get_size(md);
  if (d.dnnl_memory_desc_equal(&x.prim, &x.user)) return true;
  OwnedPd rpd;
  const dnnl_memory_desc_t& from = x.output ? x.prim : x.user;
  const dnnl_memory_desc_t& to = x.output ? x.user : x.prim;
  if (d.dnnl_reorder_primitive_desc_create(&rpd.v, &from, d.engine, &to, d.engine, attr) != dnnl_success) return false;
  if (d.dnnl_primitive_create(&x.reorder, rpd.v) != dnnl_success) return false;
  scratch = std::max(scratch, scratchpadBytes(rpd.v));
  return true;
}

/// Builds the primitive for `pass` on a batch of `mb` images; nullptr when oneDNN rejects it.
std::unique_ptr<Conv> create(Pass pass, const Geometry& g, int64_t mb) {
  const Api& d = api();
  const int64_t padB = std::max<int64_t>(0, (g.oh - 1) * g.sh + (g.kh - 1) * g.dh + 1 - g.h - g.padT);
  const int64_t padR = std::max<int64_t>(0, (g.ow - 1) * g.sw + (g.kw - 1) * g.dw + 1 - g.w - g.padL);
  dnnl_dims_t xDims = {mb, g.c, g.h, g.w}, fDims = {g.o, g.c, g.kh, g.kw}, yDims = {mb, g.o, g.oh, g.ow};
  dnnl_dims_t strides = {g.sh, g.sw}, dilates = {g.dh - 1, g.dw - 1}, padL = {g.padT, g.padL}, padR2 = {padB, padR};
  dnnl_memory_desc_t xUser, fUser, yUser, xAny, fAny, yAny;
  if (d.dnnl_memory_desc_init_by_tag(&xUser, 4, xDims, dnnl_f32, dnnl_nhwc) != dnnl_success ||
      d.dnnl_memory_desc_init_by_tag(&fUser, 4, fDims, dnnl_f32, dnnl_hwio) != dnnl_success ||
      d.dnnl_memory_desc_init_by_tag(&yUser, 4, yDims, dnnl_f32, dnnl_nhwc) != dnnl_success ||
      d.dnnl_memory_desc_init_by_tag(&fAny, 4, fDims, dnnl_f32, dnnl_format_tag_any) != dnnl_success)
    return nullptr;
  // Activations stay NHWC (oneDNN's NHWC kernels beat a reorder to its blocked layouts and back);
  // the filter takes the primitive's layout, reordered on every call (it changes every step).
  xAny = xUser;
  yAny = yUser;
  OwnedAttr attr;
  if (d.dnnl_primitive_attr_create(&attr.v) != dnnl_success ||
      d.dnnl_primitive_attr_set_scratchpad_mode(attr.v, dnnl_scratchpad_mode_user) != dnnl_success)
    return nullptr;
  dnnl_convolution_desc_t fwd;
  if (d.dnnl_dilated_convolution_forward_desc_init(&fwd, dnnl_forward_training, dnnl_convolution_direct, &xAny, &fAny,
                                                   nullptr, &yAny, strides, dilates, padL, padR2) != dnnl_success)
    return nullptr;
  OwnedPd fwdPd;
  if (d.dnnl_primitive_desc_create(&fwdPd.v, &fwd, attr.v, d.engine, nullptr) != dnnl_success) return nullptr;
  auto c = std::make_unique<Conv>();
  OwnedPd backPd;
  const_dnnl_primitive_desc_t pd = fwdPd.v;
  std::array<dnnl_query_t, 3> queries{};
  if (pass == Pass::Forward) {
    c->args = {Arg{DNNL_ARG_SRC, false, xUser}, Arg{DNNL_ARG_WEIGHTS, false, fUser}, Arg{DNNL_ARG_DST, true, yUser}};
    queries = {dnnl_query_src_md, dnnl_query_weights_md, dnnl_query_dst_md};
  } else {
    dnnl_convolution_desc_t back;
    const dnnl_status_t s =
        pass == Pass::BackwardData
            ? d.dnnl_dilated_convolution_backward_data_desc_init(&back, dnnl_convolution_direct, &xAny, &fAny, &yAny,
                                                                 strides, dilates, padL, padR2)
            : d.dnnl_dilated_convolution_backward_weights_desc_init(&back, dnnl_convolution_direct, &xAny, &fAny,
                                                                    nullptr, &yAny, strides, dilates, padL, padR2);
    if (s != dnnl_success || d.dnnl_primitive_desc_create(&backPd.v, &back, attr.v, d.engine, fwdPd.v) != dnnl_success)
      return nullptr;
    pd = backPd.v;
    if (pass == Pass::BackwardData) {
      c->args = {Arg{DNNL_ARG_WEIGHTS, false, fUser}, Arg{DNNL_ARG_DIFF_DST, false, yUser},
                 Arg{DNNL_ARG_DIFF_SRC, true, xUser}};
      queries = {dnnl_query_weights_md, dnnl_query_diff_dst_md, dnnl_query_diff_src_md};
    } else {
      c->args = {Arg{DNNL_ARG_SRC, false, xUser}, Arg{DNNL_ARG_DIFF_DST, false, yUser},
                 Arg{DNNL_ARG_DIFF_WEIGHTS, true, fUser}};
      queries = {dnnl_query_src_md, dnnl_query_diff_dst_md, dnnl_query_diff_weights_md};
    }
  }
  c->scratch = scratchpadBytes(pd);
  for (size_t i = 0; i < 3; ++i)
    if (!bindArg(c->args[i], pd, queries[i], attr.v, c->scratch)) return nullptr;
  const char* impl = nullptr;
  if (d.dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl) == dnnl_success && impl) c->impl = impl;
  if (d.dnnl_primitive_create(&c->prim, pd) != dnnl_success) {
    c->prim = nullptr;
    return nullptr;
  }
  return c;
}

/// The cached primitive for a pass, geometry and sub-batch that runs on `threads` OpenMP threads;
/// nullptr when oneDNN rejects it. A program with ever new shapes (a varying batch) starts the
/// cache over at 256 entries; callers still running hold theirs. oneDNN fixes a primitive's thread count when it creates it
/// (a backward-weights primitive created for 2 threads starts a team of 2 even where the calling
/// thread allows 1), so the count is set before and is part of the key.
std::shared_ptr<const Conv> cached(Pass pass, const Geometry& g, int64_t mb, int threads) {
  using Key = std::array<int64_t, 17>;
  static std::mutex mu;
  static std::map<Key, std::shared_ptr<const Conv>> cache;
  const Key key{static_cast<int64_t>(pass), mb, g.h, g.w, g.c, g.kh, g.kw, g.o, g.oh, g.ow, g.sh, g.sw, g.dh, g.dw,
                g.padT, g.padL, threads};
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(key);
  if (it == cache.end()) {
    if (cache.size() >= 256) cache.clear();
    if (api().setThreads) api().setThreads(threads);
    it = cache.emplace(key, create(pass, g, mb)).first;
  }
  return it->second;
}

/// One execution of a primitive on the calling thread's stream.
bool execute(dnnl_primitive_t p, ThreadState& t, std::initializer_list<std::pair<int, dnnl_memory_t>> args,
             dnnl_memory_t scratch) {
  std::vector<dnnl_exec_arg_t> list;
  for (const auto& [role, mem] : args) list.push_back({role, mem});
  if (scratch) list.push_back({DNNL_ARG_SCRATCHPAD, scratch});
  return api().dnnl_primitive_execute(p, t.stream, static_cast<int>(list.size()), list.data()) == dnnl_success;
}

/// Memory objects that wrap pointers for one call.
struct Memories {
  std::vector<dnnl_memory_t> all;
  bool failed = false;
  dnnl_memory_t wrap(const dnnl_memory_desc_t& md, const void* p) {
    dnnl_memory_t m = nullptr;
    if (api().dnnl_memory_create(&m, &md, api().engine, const_cast<void*>(p)) != dnnl_success) {
      failed = true;
      return nullptr;
    }
    all.push_back(m);
    return m;
  }
  ~Memories() {
    for (dnnl_memory_t m : all) api().dnnl_memory_destroy(m);
  }
};

/// Runs a cached primitive on the calling thread: reorders in, the convolution, reorder out.
bool runOne(const Conv& c, const void* a, const void* b, void* out) {
  ThreadState& t = threadState();
  if (!t.stream) return false;
  Memories mems;
  void* scratchPtr = c.scratch ? t.scratch.get(c.scratch) : nullptr;
  if (c.scratch && !scratchPtr) return false;
  const dnnl_memory_desc_t* scratchMd = nullptr;
  dnnl_memory_desc_t scratchDesc;
  if (scratchPtr) {
    const dnnl_dims_t dims = {static_cast<dnnl_dim_t>(c.scratch)};
    if (api().dnnl_memory_desc_init_by_tag(&scratchDesc, 1, dims, dnnl_u8, dnnl_a) != dnnl_success) return false;
    scratchMd = &scratchDesc;
  }
  dnnl_memory_t scratch = scratchMd ? mems.wrap(*scratchMd, scratchPtr) : nullptr;
  const std::array<const void*, 3> user{a, b, out};
  std::array<dnnl_memory_t, 3> userMem{}, primMem{};
  for (size_t i = 0; i < 3; ++i) {
    const Arg& x = c.args[i];
    userMem[i] = mems.wrap(x.user, user[i]);
    void* buffer = x.reorder ? t.args[i].get(x.primBytes) : nullptr;
    if (x.reorder && !buffer) return false;
    primMem[i] = x.reorder ? mems.wrap(x.prim, buffer) : userMem[i];
  }
  if (mems.failed) return false;
  for (size_t i = 0; i < 3; ++i)
    if (c.args[i].reorder && !c.args[i].output &&
        !execute(c.args[i].reorder, t, {{DNNL_ARG_FROM, userMem[i]}, {DNNL_ARG_TO, primMem[i]}}, scratch))
      return false;
  if (!execute(c.prim, t, {{c.args[0].role, primMem[0]}, {c.args[1].role, primMem[1]}, {c.args[2].role, primMem[2]}},
               scratch))
    return false;
  if (c.args[2].reorder &&
      !execute(c.args[2].reorder, t, {{DNNL_ARG_FROM, primMem[2]}, {DNNL_ARG_TO, userMem[2]}}, scratch))
    return false;
  return true;
}

#endif  // TLENS_HAVE_DNNL_HEADERS

}  // namespace

void setDisabled(bool on) { disabled = on; }

bool preferred(Pass pass, const Geometry& g) {
  const bool pointwise = g.kh == 1 && g.kw == 1 && g.sh == 1 && g.sw == 1 && g.padT == 0 && g.padL == 0;
  if (pass == Pass::Forward) return !pointwise;
  if (pass == Pass::BackwardData) return !pointwise && g.c > 4;
  return true;
}

#ifdef TLENS_HAVE_DNNL_HEADERS

std::string backendName() { return disabled ? "Eigen" : api().name; }

bool available() { return !disabled.load(std::memory_order_relaxed) && api().ok; }

namespace {
/// How run() spreads a batch: whole images per pool thread, each part on a single-threaded
/// primitive (two sub-batch sizes at most); fewer images than threads: one primitive on an
/// OpenMP team as wide as the pool.
struct Split {
  int64_t parts, small, large;
  int team;
};
Split split(const Geometry& g) {
  const int threads = intraOpThreads();
  const int64_t parts = threads > 1 && g.n >= threads ? threads : 1;
  return {parts, g.n / parts, (g.n + parts - 1) / parts, parts == 1 ? threads : 1};
}
}  // namespace

std::string implementation(Pass pass, const Geometry& g) {
  if (!api().ok || !preferred(pass, g)) return "";
  const Split s = split(g);
  const std::shared_ptr<const Conv> c = cached(pass, g, s.small, s.team);
  return c ? c->impl : "";
}

bool run(Pass pass, const Geometry& g, const float* a, const float* b, float* out) {
  if (disabled.load(std::memory_order_relaxed)) return false;
  const Api& d = api();
  if (!d.ok) return false;
  for (int64_t v : {g.n, g.h, g.w, g.c, g.kh, g.kw, g.o, g.oh, g.ow, g.sh, g.sw, g.dh, g.dw})
    if (v <= 0) return false;
  if (g.padT < 0 || g.padL < 0) return false;
  if (!preferred(pass, g)) return false;
  // Plain copies, not a structured binding: clang 14 does not let the lambda below capture one.
  const Split sp = split(g);
  const int64_t parts = sp.parts, small = sp.small, large = sp.large;
  const int team = sp.team;
  const std::shared_ptr<const Conv> cs = cached(pass, g, small, team);
  const std::shared_ptr<const Conv> cl = large == small ? cs : cached(pass, g, large, team);
  if (!cs || !cl) return false;
  if (parts == 1) {
    if (d.setThreads) d.setThreads(team);
    return runOne(*cs, a, b, out);
  }
  const int64_t xImage = g.h * g.w * g.c, yImage = g.oh * g.ow * g.o, fSize = g.kh * g.kw * g.c * g.o;
  // The filter gradient sums over images: part p > 0 writes its own partial sum, added at the end.
  std::vector<float> partials(pass == Pass::BackwardWeights ? static_cast<size_t>((parts - 1) * fSize) : 0);
  std::atomic<bool> ok{true};
  parallelFor(parts, 1, [&](int64_t p0, int64_t p1) {
    if (d.setThreads) d.setThreads(1);
    for (int64_t p = p0; p < p1 && ok; ++p) {
      const int64_t n0 = p * g.n / parts, n1 = (p + 1) * g.n / parts;
      const Conv& c = n1 - n0 == small ? *cs : *cl;
      bool done = false;
      switch (pass) {
        case Pass::Forward: done = runOne(c, a + n0 * xImage, b, out + n0 * yImage); break;
        case Pass::BackwardData: done = runOne(c, a, b + n0 * yImage, out + n0 * xImage); break;
        case Pass::BackwardWeights:
          done = runOne(c, a + n0 * xImage, b + n0 * yImage, p == 0 ? out : partials.data() + (p - 1) * fSize);
          break;
      }
      if (!done) ok = false;
    }
  });
  if (!ok) return false;
  for (int64_t p = 1; p < parts && pass == Pass::BackwardWeights; ++p) {
    const float* s = partials.data() + (p - 1) * fSize;
    for (int64_t i = 0; i < fSize; ++i) out[i] += s[i];
  }
  return true;
}

#else

std::string backendName() { return "Eigen"; }
bool available() { return false; }
std::string implementation(Pass, const Geometry&) { return ""; }
bool run(Pass, const Geometry&, const float*, const float*, float*) { return false; }

#endif

}  // namespace tlens::dnnlconv
