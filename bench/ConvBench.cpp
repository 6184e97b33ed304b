// Conv2D, Conv2DBackpropInput and Conv2DBackpropFilter through the engine (eager execution, the
// kernels a graph run uses too) against oneDNN's own convolution primitives (forward,
// backward_data, backward_weights) called directly on their own OpenMP threads, on NHWC float32
// shapes real programs use, with 1 thread and with the engine's default (all cores). The
// baseline is the faster of two ways to call oneDNN on NHWC/HWIO tensors: NHWC activations with
// the filter in the primitive's layout, or every tensor in the primitive's layouts with reorders
// in and out (both count the reorders). Ratio = oneDNN time / engine time: >= 0.95 meets the
// target (issue 16); the verdict uses process CPU time with 1 thread (a loaded machine's
// descheduling does not inflate it) and wall time with more. The engine's im2col + GEMM path
// (TLENS_CONV=eigen) is timed in the same run.
// TLENS_BENCH_CONV=<text> runs only the shapes whose "name batch" contains it.
#include <omp.h>

#include <ctime>
#include <random>
#include <thread>

#include "BenchUtil.h"
#include "engine/kernels/cpu/DnnlConv.h"
#include "engine/kernels/cpu/Gemm.h"
#include "engine/runtime/Eager.h"
#include "engine/runtime/ThreadPool.h"

#if __has_include(<oneapi/dnnl/dnnl.h>) && defined(TLENS_BENCH_DNNL)
#include <oneapi/dnnl/dnnl.h>
#define TLENS_BENCH_HAVE_DNNL 1
#endif

namespace tlens::bench {

#ifdef TLENS_BENCH_HAVE_DNNL
namespace {

using Pass = dnnlconv::Pass;

struct Shape {
  const char* name;
  int64_t n, h, w, c, k, o, stride;
  bool same;
  int64_t oh() const { return same ? (h + stride - 1) / stride : (h - k) / stride + 1; }
  int64_t ow() const { return same ? (w + stride - 1) / stride : (w - k) / stride + 1; }
  int64_t padBefore(int64_t in, int64_t out) const {
    return same ? std::max<int64_t>((out - 1) * stride + k - in, 0) / 2 : 0;
  }
  int64_t padAfter(int64_t in, int64_t out) const {
    return same ? std::max<int64_t>((out - 1) * stride + k - in, 0) - padBefore(in, out) : 0;
  }
  double flops() const { return 2.0 * n * oh() * ow() * o * k * k * c; }
};

void check(dnnl_status_t s, const char* what) {
  if (s != dnnl_success) {
    std::fprintf(stderr, "oneDNN: %s failed (%d)\n", what, static_cast<int>(s));
    std::exit(1);
  }
}

/// oneDNN called the way a program holding NHWC activations and an HWIO filter would call it.
class DnnlDirect {
 public:
  DnnlDirect(Pass pass, const Shape& s, bool anyLayout) {
    check(dnnl_engine_create(&eng_, dnnl_cpu, 0), "engine");
    check(dnnl_stream_create(&stream_, eng_, dnnl_stream_default_flags), "stream");
    dnnl_dims_t x = {s.n, s.c, s.h, s.w}, f = {s.o, s.c, s.k, s.k}, y = {s.n, s.o, s.oh(), s.ow()};
    dnnl_dims_t st = {s.stride, s.stride}, dil = {0, 0};
    dnnl_dims_t pl = {s.padBefore(s.h, s.oh()), s.padBefore(s.w, s.ow())};
    dnnl_dims_t pr = {s.padAfter(s.h, s.oh()), s.padAfter(s.w, s.ow())};
    dnnl_memory_desc_t xu, fu, yu, xp, fp, yp;
    check(dnnl_memory_desc_init_by_tag(&xu, 4, x, dnnl_f32, dnnl_nhwc), "md");
    check(dnnl_memory_desc_init_by_tag(&fu, 4, f, dnnl_f32, dnnl_hwio), "md");
    check(dnnl_memory_desc_init_by_tag(&yu, 4, y, dnnl_f32, dnnl_nhwc), "md");
    check(dnnl_memory_desc_init_by_tag(&fp, 4, f, dnnl_f32, dnnl_format_tag_any), "md");
    xp = xu;
    yp = yu;
    if (anyLayout) {
      check(dnnl_memory_desc_init_by_tag(&xp, 4, x, dnnl_f32, dnnl_format_tag_any), "md");
      check(dnnl_memory_desc_init_by_tag(&yp, 4, y, dnnl_f32, dnnl_format_tag_any), "md");
    }
    dnnl_convolution_desc_t fd, bd;
    check(dnnl_dilated_convolution_forward_desc_init(&fd, dnnl_forward_training, dnnl_convolution_direct, &xp, &fp,
                                                     nullptr, &yp, st, dil, pl, pr),
          "forward desc");
    dnnl_primitive_desc_t fwd;
    check(dnnl_primitive_desc_create(&fwd, &fd, nullptr, eng_, nullptr), "forward pd");
    dnnl_primitive_desc_t pd = fwd;
    std::array<dnnl_query_t, 3> q{};
    std::array<const dnnl_memory_desc_t*, 3> user{};
    if (pass == Pass::Forward) {
      roles_ = {DNNL_ARG_SRC, DNNL_ARG_WEIGHTS, DNNL_ARG_DST};
      q = {dnnl_query_src_md, dnnl_query_weights_md, dnnl_query_dst_md};
      user = {&xu, &fu, &yu};
    } else {
      if (pass == Pass::BackwardData)
        check(dnnl_dilated_convolution_backward_data_desc_init(&bd, dnnl_convolution_direct, &xp, &fp, &yp, st, dil, pl,
                                                               pr),
              "backward data desc");
      else
        check(dnnl_dilated_convolution_backward_weights_desc_init(&bd, dnnl_convolution_direct, &xp, &fp, nullptr, &yp,
                                                                  st, dil, pl, pr),
              "backward weights desc");
      check(dnnl_primitive_desc_create(&pd, &bd, nullptr, eng_, fwd), "backward pd");
      if (pass == Pass::BackwardData) {
        roles_ = {DNNL_ARG_WEIGHTS, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_SRC};
        q = {dnnl_query_weights_md, dnnl_query_diff_dst_md, dnnl_query_diff_src_md};
        user = {&fu, &yu, &xu};
      } else {
        roles_ = {DNNL_ARG_SRC, DNNL_ARG_DIFF_DST, DNNL_ARG_DIFF_WEIGHTS};
        q = {dnnl_query_src_md, dnnl_query_diff_dst_md, dnnl_query_diff_weights_md};
        user = {&xu, &yu, &fu};
      }
    }
    const char* impl = nullptr;
    dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl);
    impl_ = impl ? impl : "?";
    for (size_t i = 0; i < 3; ++i) {
      const dnnl_memory_desc_t* md = dnnl_primitive_desc_query_md(pd, q[i], 0);
      check(dnnl_memory_create(&user_[i], user[i], eng_, DNNL_MEMORY_NONE), "memory");
      if (dnnl_memory_desc_equal(md, user[i])) {
        prim_[i] = user_[i];
        continue;
      }
      check(dnnl_memory_create(&prim_[i], md, eng_, DNNL_MEMORY_ALLOCATE), "memory");
      dnnl_primitive_desc_t rpd;
      const bool out = i == 2;
      check(dnnl_reorder_primitive_desc_create(&rpd, out ? md : user[i], eng_, out ? user[i] : md, eng_, nullptr),
            "reorder pd");
      check(dnnl_primitive_create(&reorder_[i], rpd), "reorder");
      dnnl_primitive_desc_destroy(rpd);
    }
    check(dnnl_primitive_create(&prim_conv_, pd), "primitive");
    if (pd != fwd) dnnl_primitive_desc_destroy(pd);
    dnnl_primitive_desc_destroy(fwd);
  }
  ~DnnlDirect() {
    for (size_t i = 0; i < 3; ++i) {
      if (reorder_[i]) {
        dnnl_primitive_destroy(reorder_[i]);
        dnnl_memory_destroy(prim_[i]);
      }
      dnnl_memory_destroy(user_[i]);
    }
    dnnl_primitive_destroy(prim_conv_);
    dnnl_stream_destroy(stream_);
    dnnl_engine_destroy(eng_);
  }
  void run(const float* a, const float* b, float* out) {
    const std::array<const float*, 3> p{a, b, out};
    for (size_t i = 0; i < 3; ++i) dnnl_memory_set_data_handle(user_[i], const_cast<float*>(p[i]));
    for (size_t i = 0; i < 2; ++i)
      if (reorder_[i]) exec(reorder_[i], {{DNNL_ARG_FROM, user_[i]}, {DNNL_ARG_TO, prim_[i]}});
    exec(prim_conv_, {{roles_[0], prim_[0]}, {roles_[1], prim_[1]}, {roles_[2], prim_[2]}});
    if (reorder_[2]) exec(reorder_[2], {{DNNL_ARG_FROM, prim_[2]}, {DNNL_ARG_TO, user_[2]}});
  }
  const std::string& impl() const { return impl_; }

 private:
  void exec(dnnl_primitive_t p, std::initializer_list<dnnl_exec_arg_t> args) {
    check(dnnl_primitive_execute(p, stream_, static_cast<int>(args.size()), args.begin()), "execute");
  }
  dnnl_engine_t eng_ = nullptr;
  dnnl_stream_t stream_ = nullptr;
  dnnl_primitive_t prim_conv_ = nullptr;
  std::array<int, 3> roles_{};
  std::array<dnnl_memory_t, 3> user_{}, prim_{};
  std::array<dnnl_primitive_t, 3> reorder_{};
  std::string impl_;
};

Tensor randomTensor(ConcreteShape s, unsigned seed) {
  Tensor t(DType::Float32, s);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (int64_t i = 0; i < t.numElements(); ++i) t.data<float>()[i] = u(rng);
  return t;
}

Tensor sizes(std::vector<int32_t> v) { return Tensor::fromVector(v, {static_cast<int64_t>(v.size())}); }

double cpuNow() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

/// Seconds per call of each function: medians over interleaved trials (machine noise hits all
/// alike) of wall time and of the process's CPU time (which a loaded machine's descheduling
/// does not inflate: the robust number for one thread).
struct Timing {
  std::vector<double> wall, cpu;
};
Timing timeAll(const std::vector<std::function<void()>>& fs, int iters, int trials) {
  std::vector<std::vector<double>> w(fs.size()), c(fs.size());
  for (const auto& f : fs) f();
  for (int k = 0; k < trials; ++k)
    for (size_t i = 0; i < fs.size(); ++i) {
      const double s = now(), sc = cpuNow();
      for (int j = 0; j < iters; ++j) fs[i]();
      c[i].push_back((cpuNow() - sc) / iters);
      w[i].push_back((now() - s) / iters);
    }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  Timing t;
  for (size_t i = 0; i < fs.size(); ++i) {
    t.wall.push_back(median(w[i]));
    t.cpu.push_back(median(c[i]));
  }
  return t;
}

const char* passName(Pass p) {
  return p == Pass::Forward ? "forward" : p == Pass::BackwardData ? "bwd-input" : "bwd-filter";
}

}  // namespace

void convBench(bool quick) {
  const std::vector<Shape> shapes = {
      {"mnist conv1 5x5 1->32 SAME", 50, 28, 28, 1, 5, 32, 1, true},
      {"mnist conv1 5x5 1->32 SAME", 128, 28, 28, 1, 5, 32, 1, true},
      {"mnist conv2 5x5 32->64 SAME", 50, 14, 14, 32, 5, 64, 1, true},
      {"mnist conv2 5x5 32->64 SAME", 128, 14, 14, 32, 5, 64, 1, true},
      {"cifar conv1 5x5 3->64 SAME", 128, 24, 24, 3, 5, 64, 1, true},
      {"vgg 3x3 64->64 SAME", 8, 56, 56, 64, 3, 64, 1, true},
      {"vgg 3x3 64->64 SAME", 1, 56, 56, 64, 3, 64, 1, true},  // one image: an OpenMP team
      {"1x1 128->64 VALID", 32, 28, 28, 128, 1, 64, 1, false},
      {"3x3 s2 64->128 SAME (pad 0/1)", 32, 28, 28, 64, 3, 128, 2, true},
      {"3x3 32->64 VALID", 64, 14, 14, 32, 3, 64, 1, false},
  };
  const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::printf("\n== Conv2D and backprops, NHWC float32: engine (%s) vs oneDNN's convolution primitives ==\n",
              dnnlconv::backendName().c_str());
  std::printf("oneDNN called directly: nhwc = NHWC activations, filter in its layout; blocked = every tensor in its\n"
              "layouts with reorders in and out. ratio = the faster of the two / engine time (>= 0.95: target met);\n"
              "cpu = the same ratio of process CPU times (the target's measure with 1 thread, wall time with more);\n"
              "im2col = wall ratio for the engine's fallback path (TLENS_CONV=eigen). Medians of interleaved trials.\n");
  std::printf("%-31s %4s %-10s %3s %9s %9s %9s %9s %8s %8s %8s  %-6s %s\n", "shape", "n", "pass", "thr", "nhwc ms",
              "blocked", "engine ms", "im2col ms", "ratio", "cpu", "im2col", "target",
              "oneDNN impl nhwc/blocked (engine's)");
  const char* only = std::getenv("TLENS_BENCH_CONV");  // e.g. "conv1 128": shapes whose "name n" contains it
  for (int threads : {1, hw}) {
    setIntraOpThreads(threads);
    for (const Shape& s : shapes) {
      if (only && (std::string(s.name) + " " + std::to_string(s.n)).find(only) == std::string::npos) continue;
      EagerContext ctx;
      const Tensor x = randomTensor({s.n, s.h, s.w, s.c}, 1), f = randomTensor({s.k, s.k, s.c, s.o}, 2);
      const Tensor dy = randomTensor({s.n, s.oh(), s.ow(), s.o}, 3);
      std::vector<float> out(static_cast<size_t>(std::max({x.numElements(), f.numElements(), dy.numElements()})));
      const EagerValue vx = ctx.wrap(x), vf = ctx.wrap(f), vdy = ctx.wrap(dy);
      const EagerValue vxs = ctx.wrap(sizes({int32_t(s.n), int32_t(s.h), int32_t(s.w), int32_t(s.c)}));
      const EagerValue vfs = ctx.wrap(sizes({int32_t(s.k), int32_t(s.k), int32_t(s.c), int32_t(s.o)}));
      const Attrs attrs{{"strides", std::vector<int64_t>{1, s.stride, s.stride, 1}},
                        {"padding", std::string(s.same ? "SAME" : "VALID")}};
      const dnnlconv::Geometry g{s.n, s.h, s.w, s.c, s.k, s.k, s.o, s.oh(), s.ow(), s.stride, s.stride, 1, 1,
                                 s.padBefore(s.h, s.oh()), s.padBefore(s.w, s.ow())};
      for (Pass pass : {Pass::Forward, Pass::BackwardData, Pass::BackwardWeights}) {
        omp_set_num_threads(threads);  // oneDNN fixes a primitive's thread count when it creates it
        DnnlDirect nhwc(pass, s, false), any(pass, s, true);
        const float* a = pass == Pass::BackwardData ? f.data<float>() : x.data<float>();
        const float* b = pass == Pass::Forward ? f.data<float>() : dy.data<float>();
        std::function<void()> engine = [&] {
          if (pass == Pass::Forward) ctx.execute("Conv2D", {vx, vf}, attrs);
          else if (pass == Pass::BackwardData) ctx.execute("Conv2DBackpropInput", {vxs, vf, vdy}, attrs);
          else ctx.execute("Conv2DBackpropFilter", {vx, vfs, vdy}, attrs);
        };
        std::function<void()> im2col = [&] {
          dnnlconv::setDisabled(true);
          engine();
          dnnlconv::setDisabled(false);
        };
        auto direct = [&](DnnlDirect& d) {
          return std::function<void()>([&d, a, b, &out, threads] {
            omp_set_num_threads(threads);
            d.run(a, b, out.data());
          });
        };
        const int iters = std::max(1, static_cast<int>(2e8 / s.flops()));
        const Timing t = timeAll({direct(nhwc), direct(any), engine, im2col}, iters, quick ? 3 : 9);
        const auto& w = t.wall;
        const double base = std::min(w[0], w[1]), ratio = base / w[2];
        const double cpuRatio = std::min(t.cpu[0], t.cpu[1]) / t.cpu[2];
        std::printf("%-31s %4lld %-10s %3d %9.3f %9.3f %9.3f %9.3f %7.3fx %7.3fx %7.3fx  %-6s %s/%s (%s)\n", s.name,
                    static_cast<long long>(s.n), passName(pass), threads, w[0] * 1e3, w[1] * 1e3, w[2] * 1e3,
                    w[3] * 1e3, ratio, cpuRatio, base / w[3], verdict((threads == 1 ? cpuRatio : ratio) >= 0.95),
                    nhwc.impl().c_str(), any.impl().c_str(), dnnlconv::implementation(pass, g).c_str());
        std::fflush(stdout);
      }
    }
  }
  setIntraOpThreads(hw);
}

#else

void convBench(bool) {
  std::printf("\n(oneDNN not found at build time: no Conv2D comparison with oneDNN; install libdnnl-dev)\n");
}

#endif

}  // namespace tlens::bench
