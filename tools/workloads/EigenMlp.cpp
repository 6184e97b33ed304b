// The hand-written baseline: forward, softmax cross entropy, backward and Adam in Eigen, with
// the same math (and the same float32 precision) as the graph the engine runs.
#include <Eigen/Core>

#include <cmath>

#include "tools/workloads/Mlp.h"

namespace tlens::workloads {

namespace {
using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vec = Eigen::Matrix<float, 1, Eigen::Dynamic>;

Mat toMat(const Tensor& t) {
  return Eigen::Map<const Mat>(t.data<float>(), t.dim(0), t.rank() > 1 ? t.dim(1) : 1);
}
Vec toVec(const Tensor& t) { return Eigen::Map<const Vec>(t.data<float>(), t.dim(0)); }

struct Param {
  Mat w, m, v;
  void init(const Mat& x) {
    w = x;
    m = Mat::Zero(x.rows(), x.cols());
    v = Mat::Zero(x.rows(), x.cols());
  }
};
}  // namespace

struct EigenMlp::State {
  MlpConfig c;
  Param w1, b1, w2, b2, w3, b3;
  float beta1Power = 1, beta2Power = 1;
  // Activations and gradients, kept allocated across steps.
  Mat z1, h1, z2, h2, logits, probs, d3, d2, d1, gw1, gw2, gw3;
  Vec gb1, gb2, gb3;

  void adam(Param& p, const Mat& g, float lrT) {
    p.m = c.beta1 * p.m + (1 - c.beta1) * g;
    p.v = c.beta2 * p.v + (1 - c.beta2) * g.cwiseProduct(g);
    p.w.array() -= lrT * p.m.array() / (p.v.array().sqrt() + c.epsilon);
  }
};

EigenMlp::EigenMlp(const MlpConfig& c) : s_(std::make_unique<State>()) {
  s_->c = c;
  MlpWeights w = initialWeights(c);
  s_->w1.init(toMat(w.w1));
  s_->b1.init(toVec(w.b1));
  s_->w2.init(toMat(w.w2));
  s_->b2.init(toVec(w.b2));
  s_->w3.init(toMat(w.w3));
  s_->b3.init(toVec(w.b3));
}

EigenMlp::~EigenMlp() = default;

float EigenMlp::step(const MlpBatch& batch) {
  State& s = *s_;
  Eigen::Map<const Mat> x(batch.x.data<float>(), batch.x.dim(0), batch.x.dim(1));
  Eigen::Map<const Mat> y(batch.y.data<float>(), batch.y.dim(0), batch.y.dim(1));
  const float n = static_cast<float>(x.rows());
  // Forward.
  s.z1.noalias() = x * s.w1.w;
  s.z1.rowwise() += Vec(s.b1.w);
  s.h1 = s.z1.cwiseMax(0.f);
  s.z2.noalias() = s.h1 * s.w2.w;
  s.z2.rowwise() += Vec(s.b2.w);
  s.h2 = s.z2.cwiseMax(0.f);
  s.logits.noalias() = s.h2 * s.w3.w;
  s.logits.rowwise() += Vec(s.b3.w);
  // Softmax cross entropy, mean over the batch.
  Eigen::VectorXf rowMax = s.logits.rowwise().maxCoeff();
  s.probs = (s.logits.colwise() - rowMax).array().exp();
  Eigen::VectorXf sums = s.probs.rowwise().sum();
  float loss = 0;
  for (Eigen::Index r = 0; r < s.logits.rows(); ++r) {
    const float logSum = std::log(sums(r)) + rowMax(r);
    for (Eigen::Index k = 0; k < s.logits.cols(); ++k) loss += y(r, k) * (logSum - s.logits(r, k));
  }
  loss /= n;
  s.probs.array().colwise() /= sums.array();
  // Backward.
  s.d3 = (s.probs - y) / n;
  s.gw3.noalias() = s.h2.transpose() * s.d3;
  s.gb3 = s.d3.colwise().sum();
  s.d2.noalias() = s.d3 * s.w3.w.transpose();
  s.d2 = (s.z2.array() > 0).select(s.d2, 0.f);
  s.gw2.noalias() = s.h1.transpose() * s.d2;
  s.gb2 = s.d2.colwise().sum();
  s.d1.noalias() = s.d2 * s.w2.w.transpose();
  s.d1 = (s.z1.array() > 0).select(s.d1, 0.f);
  s.gw1.noalias() = x.transpose() * s.d1;
  s.gb1 = s.d1.colwise().sum();
  // Adam.
  s.beta1Power *= s.c.beta1;
  s.beta2Power *= s.c.beta2;
  const float lrT = s.c.learningRate * std::sqrt(1 - s.beta2Power) / (1 - s.beta1Power);
  s.adam(s.w1, s.gw1, lrT);
  s.adam(s.b1, s.gb1, lrT);
  s.adam(s.w2, s.gw2, lrT);
  s.adam(s.b2, s.gb2, lrT);
  s.adam(s.w3, s.gw3, lrT);
  s.adam(s.b3, s.gb3, lrT);
  return loss;
}

}  // namespace tlens::workloads
