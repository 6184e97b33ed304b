#include <cmath>
#include <random>

#include "tools/workloads/Mlp.h"

namespace tlens::workloads {

MlpBatch makeBatch(const MlpConfig& c, uint64_t step) {
  // A fixed random linear teacher labels the inputs.
  static thread_local std::vector<float> teacher;
  static thread_local int teacherFor = -1;
  if (teacherFor != c.inputs * 31 + c.classes) {
    std::mt19937_64 g(12345);
    std::normal_distribution<float> d(0.f, 1.f);
    teacher.resize(static_cast<size_t>(c.inputs) * c.classes);
    for (float& v : teacher) v = d(g);
    teacherFor = c.inputs * 31 + c.classes;
  }
  MlpBatch b{Tensor(DType::Float32, {c.batch, c.inputs}), Tensor::filled(DType::Float32, {c.batch, c.classes}, 0)};
  std::mt19937_64 g(c.seed * 1000003 + step);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  float* x = b.x.data<float>();
  for (int64_t i = 0; i < b.x.numElements(); ++i) x[i] = u(g);
  for (int r = 0; r < c.batch; ++r) {
    int best = 0;
    float bestScore = -1e30f;
    for (int k = 0; k < c.classes; ++k) {
      float s = 0;
      for (int i = 0; i < c.inputs; ++i)
        s += (x[static_cast<size_t>(r) * c.inputs + i] - 0.5f) * teacher[static_cast<size_t>(i) * c.classes + k];
      if (s > bestScore) { bestScore = s; best = k; }
    }
    b.y.data<float>()[r * c.classes + best] = 1.f;
  }
  return b;
}

MlpWeights initialWeights(const MlpConfig& c) {
  std::mt19937_64 g(c.seed);
  auto layer = [&](int in, int out) {
    Tensor w(DType::Float32, {in, out});
    std::normal_distribution<float> d(0.f, std::sqrt(2.f / static_cast<float>(in)));
    for (int64_t i = 0; i < w.numElements(); ++i) {
      float v;
      do v = d(g); while (std::fabs(v) > 2 * std::sqrt(2.f / static_cast<float>(in)));
      w.data<float>()[i] = v;
    }
    return w;
  };
  MlpWeights w;
  w.w1 = layer(c.inputs, c.hidden1);
  w.b1 = Tensor::filled(DType::Float32, {c.hidden1}, 0);
  w.w2 = layer(c.hidden1, c.hidden2);
  w.b2 = Tensor::filled(DType::Float32, {c.hidden2}, 0);
  w.w3 = layer(c.hidden2, c.classes);
  w.b3 = Tensor::filled(DType::Float32, {c.classes}, 0);
  return w;
}

}  // namespace tlens::workloads
