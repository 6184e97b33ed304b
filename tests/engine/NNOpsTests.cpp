// NN layers: Conv2D and its backprops, pooling, BiasAdd, FusedBatchNormV3; conv1d and dropout
// builders. Reference values come from a direct (loop) implementation of TensorFlow's formulas
// in double precision on the inputs that seq() generates.
#include <cmath>

#include "OpTestUtil.h"
#include "engine/graph/Builder.h"
#include "engine/graph/Gradients.h"
#include "engine/graph/NNBuilders.h"
#include "engine/runtime/Session.h"
#include "engine/runtime/ThreadPool.h"

using namespace tlens;
using namespace tlens::test;

namespace {

/// Deterministic values in [-1, 1]: ((i * mul) % mod - h) / h with h = (mod - 1) / 2.
Tensor seq(ConcreteShape s, int mul = 37, int mod = 19) {
  const int64_t n = numElements(s);
  const double h = (mod - 1) / 2.0;
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<float>(((i * mul) % mod - h) / h);
  return F32(v, s);
}

using Ints = std::vector<int64_t>;

Attrs conv(Ints strides, const std::string& padding, Ints dilations = {1, 1, 1, 1}) {
  return {{"strides", strides}, {"padding", padding}, {"dilations", dilations}};
}

Attrs pool(Ints ksize, Ints strides, const std::string& padding) {
  return {{"ksize", ksize}, {"strides", strides}, {"padding", padding}};
}

Tensor empty0() { return F32({}, {0}); }

// ConvSame
static const std::vector<float> kConvSame = {-0.555555556, -3.44444444, -2.44444444, 2.61111111,
    0.296296296, -0.333333333, -0.240740741, 3.09259259, 6.7037037, -3.40740741, -2.35185185, 0.648148148,
    0.0740740741, -0.185185185, -1.74074074, 0.592592593, 1.46296296, -1, 3.59259259, -1.22222222,
    -1.61111111, 2.66666667, 0.0740740741, -0.12962963, -1.25925926, 1.05555556, 2.37037037, -0.648148148,
    0.277777778, 1.44444444, 0.277777778, -0.277777778, -1.66666667, 0.462962963, -0.481481481,
    0.759259259};
// ConvDil
static const std::vector<float> kConvDil = {0.688888889, 1.15555556, 0.4, -1.42222222, -0.4, -0.6,
    -1.42222222, -0.266666667, -0.333333333, -1.42222222, -0.133333333, -0.0666666667, 1.53333333,
    -0.577777778, 0.733333333, 1.11111111, -0.444444444, 1.42222222, 1.53333333, 1.37777778,
    5.55111512e-17, 1.53333333, 1.51111111, 0.266666667, -1.42222222, -0.2, -0.2, -1.42222222,
    -0.0666666667, 0.0666666667, -1.42222222, 0.0666666667, 0.333333333, 1.53333333, -0.644444444, 0.6,
    1.53333333, 1.44444444, 0.133333333, 0.688888889, 1.15555556, 0.4, -1.42222222, -0.4, -0.6,
    -1.42222222, -0.266666667, -0.333333333};
// ConvPoint
static const std::vector<float> kConvPoint = {1.81944444, -0.930555556, -0.291666667, 0.375, -0.291666667,
    0.0972222222, -0.291666667, -0.180555556, -0.291666667, -0.458333333, -0.291666667, 0.583333333,
    -0.291666667, 0.305555556, -0.291666667, 0.0277777778, -0.291666667, -0.25, 1.81944444, 0.791666667,
    -0.291666667, 0.513888889, -0.291666667, 0.236111111, -0.291666667, -0.0416666667, -0.291666667,
    -0.319444444, 1.02777778, -0.861111111, -0.291666667, 0.444444444, -0.291666667, 0.166666667,
    -0.291666667, -0.111111111};
// ConvRect
static const std::vector<float> kConvRect = {0.666666667, -1.44444444, -0.740740741, -0.185185185,
    0.666666667, -0.333333333, 0.666666667, 0.888888889, -0.740740741, -2.07407407, 0.666666667, 2};
// BpInSame
static const std::vector<float> kBpInSame = {0.196969697, 0.727272727, 0.272727273, -1.27272727,
    -0.106060606, -1.10606061, -0.363636364, 0.272727273, -0.272727273, -0.378787879, 0.53030303,
    -0.53030303, 0.46969697, -1.22727273, 0.227272727, -0.151515152, 1.03030303, 0.0454545455,
    0.0454545455, 0.96969697, 0.712121212, -0.575757576, 0.545454545, -0.696969697, 0.712121212,
    -0.96969697, 0.893939394, 0.742424242, -0.287878788, 0.651515152, -0.439393939, 0.409090909,
    -0.318181818, -0.333333333, 0.409090909, -0.424242424, 0.393939394, -1.09090909, 0.181818182,
    0.909090909, -0.696969697, 0.848484848, -0.515151515, 0.545454545, -0.363636364, -0.727272727,
    0.621212121, -0.787878788, 1, -1.01515152, 0.909090909, 0.590909091, -0.212121212, 0.560606061,
    -1.12121212, 1.22727273, -1.34848485, -0.878787879, 0.696969697, -0.878787879, 0.318181818,
    -0.954545455, 0.136363636, 0.954545455, -0.818181818, 0.954545455, -0.590909091, 0.681818182,
    -0.409090909, -0.242424242, 0.166666667, -0.212121212, 0.242424242, -0.818181818, 0.0909090909,
    -0.666666667, 0.818181818, -0.454545455, -0.196969697, 0.0454545455, -0.106060606, 0.166666667,
    -0.681818182, 0.0454545455, 1.04545455, -1.06060606, 1.16666667, -0.742424242, 0.954545455, -0.5,
    -1.18181818, 0.848484848, -1.06060606, 0.818181818, -0.106060606, -0.439393939, 0.833333333,
    -1.72727273, 0.636363636, -2.34848485, 1.09090909, 0.787878788, -1.33333333, 0.924242424, -1.15151515,
    0.0909090909, -0.545454545, 0, 0.742424242, 0.560606061, 0.575757576, 0.575757576, 0.0454545455, 0.5,
    -1.5, 0.5, -1.63636364, 0.0151515152, -0.409090909, -0.0454545455, 0.681818182, -1.65151515,
    0.545454545, -1.71212121, -1.04545455, 0.803030303, 0.606060606, 0.651515152, 0.5, 0.696969697,
    1.1969697, -1.45454545, 0.53030303, -1.57575758, 0.454545455, 0.5, 0.181818182, 0.454545455,
    -1.45454545, 0.378787879, -1.53030303, -0.0606060606, -0.272727273, -0.0909090909, 0.833333333,
    0.318181818, 0.787878788, 0.424242424, 0.318181818, 0.409090909};
// BpInDil
static const std::vector<float> kBpInDil = {1.73333333, 0.533333333, -0.666666667, -0.0666666667, -0.7,
    -1.36666667, 0.266666667, -0.3, -0.433333333, 0.466666667, 0.333333333, -0.466666667, 0.366666667,
    -0.133333333, 0.133333333, 0.133333333, -1.6, -0.133333333, 0.666666667, -0.366666667, 0.0333333333,
    2.36666667, -0.0666666667, -0.733333333, 0.766666667, -0.233333333, 0.466666667, 0.466666667, -2.8,
    1.6, 1.63333333, -1.16666667, 0.433333333, 2.16666667, -0.0333333333, -1.73333333, -0.866666667,
    -0.466666667, 1.86666667, 0.666666667, -1.53333333, 1.8, -0.133333333, -1.83333333, 0.733333333,
    1.11022302e-16, -0.6, 0, -0.5, -0.3, 0.733333333, 0.133333333, -1.16666667, 0.6, 0.566666667, -0.2,
    1.33333333, -1.13333333, -0.766666667, -0.2, -0.766666667, 0.133333333, 1.33333333, 0.133333333,
    0.566666667, -0.866666667, -1.16666667, -0.366666667, 0.733333333, -0.866666667, -0.5, 2.23333333};
// BpInPoint
static const std::vector<float> kBpInPoint = {1.40909091, -0.375, -0.0340909091, -0.659090909,
    -0.409090909, 0, 0.409090909, -0.340909091, -0.659090909, 0.375, -0.715909091, 1.28409091,
    -0.386363636, -0.0340909091, 0.511363636, -0.488636364, -0.636363636, 0.340909091, -0.613636364,
    1.13636364, -0.363636364, -0.0681818182, 0.613636364, -0.636363636, -0.613636364, 0.306818182,
    -0.511363636, 0.988636364, -0.340909091, -0.102272727, 0.715909091, -0.784090909, -0.590909091,
    0.272727273, -0.409090909, 0.840909091, -0.318181818, -0.136363636, 0.818181818, -0.931818182,
    -0.568181818, 0.238636364, -0.306818182, 0.693181818, -0.295454545, -0.170454545, 0.920454545,
    -1.07954545, -0.545454545, 0.204545455, -0.204545455, 0.545454545, 1.29545455, -0.204545455,
    -0.545454545, 0.0795454545, -0.522727273, 0.170454545, -0.102272727, 0.397727273, 1.31818182,
    -0.238636364, -0.443181818, -0.0681818182, -0.5, 0.136363636, 0, 0.25, 1.34090909, -0.272727273,
    -0.340909091, -0.215909091};
// BpFiSame
static const std::vector<float> kBpFiSame = {-0.222222222, -2.16161616, -0.303030303, -2.22222222,
    1.53535354, -1.51515152, 0.101010101, 1.38383838, 1.48484848, 1.64646465, -0.202020202, 3.25252525,
    -0.292929293, 2.18181818, -0.414141414, 2.08080808, -0.727272727, 0.636363636, -0.282828283,
    -2.24242424, 0.464646465, -2.38383838, 0.252525253, -2.33333333, 1.44444444, -0.929292929,
    -0.797979798, 0.252525253, -1.6969697, -1.63636364, 0.383838384, 0.0505050505, -0.808080808,
    2.15151515, -0.848484848, 2.14141414, -0.434343434, 0.646464646, -0.636363636, 0.696969697,
    -0.838383838, -0.404040404, 1.23232323, -0.272727273, 0.747474747, -1.64646465, 1.60606061,
    -1.67676768, 1.35353535, -0.818181818, 1.34343434, -0.808080808, -0.777777778, 0.353535354};
// BpFiDil
static const std::vector<float> kBpFiDil = {3.27777778, 0.685185185, 0.740740741, -0.944444444, -2,
    -0.648148148, -0.240740741, 1.2037037, -0.240740741, -0.240740741, 1.33333333, -0.222222222,
    -0.240740741, 1.33333333, -0.222222222, -0.944444444, 1.46296296, 0.5, -0.944444444, -1.31481481,
    -1.2037037, -0.944444444, -1.18518519, -1.18518519};
// BpFiPoint
static const std::vector<float> kBpFiPoint = {0.828282828, -1.1010101, -1.41414141, 0.0808080808,
    -0.585858586, -0.0808080808, -1.48484848, -1.96969697};
// MaxSame
static const std::vector<float> kMaxSame = {0.777777778, 1, 1, 0.888888889, 0.777777778, 1, 0.555555556,
    0.444444444, 0.333333333, 0.333333333, 0.222222222, 1, 1, 0.888888889, 1, 1, 1, 0.888888889,
    0.777777778, 0.666666667, 0.555555556, 0.444444444, 0.333333333, 0.222222222, -0.222222222, 1,
    0.888888889, 0.888888889, 0.777777778, 1, 1, 0.888888889, 0.777777778, 0.666666667, 0.555555556,
    0.444444444, 0.444444444, 0.333333333, 0.222222222, 1, 1, 0.888888889, 0.777777778, 1, 1, 0.888888889,
    0.777777778, 0.666666667, 0.555555556, 0.444444444, 0.333333333, -0.111111111, -0.222222222, 1};
// MaxRect
static const std::vector<float> kMaxRect = {0.888888889, 1, 0.666666667, 0.555555556, 1, 0.888888889,
    0.555555556, 0.444444444, 1, 0.888888889, 0.555555556, 1};
// MaxGrad
static const std::vector<float> kMaxGrad = {0, 1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    -0.666666667, 0.333333333, 0, 0, -0.666666667, -1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.666666667,
    -0.666666667, 0, 0, 0, 0, 0.666666667, 0.333333333, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.666666667, 0, 0,
    -0.333333333, -0.666666667, -1, 1, 0.666666667, 0, 0, 0, 0.333333333, 0, 0, 0, 0, 0, 0, 0, 1,
    -0.666666667, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.666666667, 0.333333333, 0,
    -0.333333333, -0.666666667, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.666666667, -0.666666667, -1,
    0, 0, 1, 0.666666667, 0.333333333, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.666666667, 0.333333333, 0,
    -0.333333333, -0.666666667, -1, 1, 0, 0, 0, 0.666666667, 0.333333333, 0, 0, 0, 0};
// MaxGGOut
static const std::vector<float> kMaxGGOut = {0.888888889, 1, 0.666666667, 0.555555556, 0.555555556,
    0.444444444, 1, 0.888888889};
// MaxGG
static const std::vector<float> kMaxGG = {0.666666667, 1, 0, -0.333333333, 0.333333333, 0, -0.666666667,
    -1};
// AvgSame
static const std::vector<float> kAvgSame = {-0.416666667, -2.77555756e-17, 0.416666667, 0.314814815,
    0.203703704, 0.444444444, 0.166666667, 0.0555555556, -0.0555555556, -0.277777778, -0.388888889,
    -0.148148148, -0.0740740741, -0.185185185, -0.0617283951, 0.12962963, 0.37037037, 0.259259259,
    0.388888889, 0.277777778, 0.166666667, -0.111111111, -0.222222222, -0.333333333, -0.611111111,
    -0.194444444, -0.305555556, -0.305555556, -0.416666667, -2.77555756e-17, 0.425925926, 0.314814815,
    0.203703704, 0.277777778, 0.166666667, 0.0555555556, -0.166666667, -0.277777778, -0.388888889,
    -0.197530864, -0.0740740741, -0.185185185, -0.111111111, 0.12962963, 0.37037037, 0.5, 0.388888889,
    0.277777778, -9.25185854e-18, -0.111111111, -0.222222222, -0.5, -0.611111111, -0.194444444};
// AvgGrad
static const std::vector<float> kAvgGrad = {-0.25, 0.25, 0.166666667, -0.194444444, 0.25, 0.111111111,
    0.0555555556, 0, -0.0555555556, -0.111111111, -0.25, 0.194444444, -0.166666667, -0.25, 0.25,
    -0.138888889, 0.305555556, 0.166666667, -0.12037037, 0.231481481, 0, 0.0185185185, -0.0740740741,
    -0.166666667, 0.0185185185, -0.212962963, 0.138888889, 0, -0.138888889, 0.305555556, 0.111111111,
    0.0555555556, 0, 0.0740740741, -0.0185185185, -0.111111111, -0.037037037, -0.0740740741, -0.111111111,
    0.12962963, 0.037037037, -0.0555555556, 0.166666667, 0.111111111, 0.0555555556, 0.111111111,
    -0.0277777778, -0.166666667, -0.0925925926, 0.0648148148, -0.166666667, -0.203703704, 0.0925925926, 0,
    0.0462962963, 0.203703704, -0.0277777778, 0.25, 0.111111111, -0.0277777778, 0, -0.0833333333,
    -0.166666667, -0.166666667, 0.0833333333, -0.0555555556, -0.166666667, 0.166666667, 0.111111111,
    -0.0833333333, 0.166666667, 0.0277777778, 0.0833333333, 0, -0.0833333333, -0.166666667, -0.25, 0.25,
    -0.0555555556, -0.194444444, 0.25, 0.111111111, 0.0555555556, 0, 0.0277777778, -0.111111111, -0.25,
    -0.0833333333, -0.166666667, -0.25, 0, -0.138888889, 0.305555556, 0.111111111, -0.12037037,
    0.231481481, 0.111111111, 0.0185185185, -0.0740740741, -0.138888889, 0.0185185185, -0.212962963, -0.25,
    0, -0.138888889, 0.166666667, 0.111111111, 0.0555555556, 0.166666667, 0.0740740741, -0.0185185185, 0,
    -0.037037037, -0.0740740741, -0.166666667, 0.12962963, 0.037037037, -0.166666667, 0.166666667,
    0.111111111, 0.25, 0.111111111, -0.0277777778, 0.138888889, -0.0925925926, 0.0648148148, -0.111111111,
    -0.203703704, 0.0925925926, -0.111111111, 0.0462962963, 0.203703704, 0, 0.25, 0.111111111,
    0.0833333333, 0, -0.0833333333, -0.0277777778, -0.166666667, 0.0833333333, -0.111111111, -0.166666667,
    0.166666667, 0.0555555556, -0.0833333333, 0.166666667, 0.166666667, 0.0833333333, 0};
// BnY
static const std::vector<float> kBnY = {-2.25295402, 0.466303869, 1.9209818, 0.296183732, 1.42993053,
    0.126063596, 0.938879258, -0.0440565412, 0.447827985, -0.214176678, -0.0432232879, -0.384296815,
    -0.534274561, -0.554416952, -1.02532583, -0.724537089, -1.51637711, -0.894657225, -2.00742838,
    -1.06477736, 2.16650744, 0.381243801, 1.67545617, 0.211123664};
// BnMean
static const std::vector<float> kBnMean = {0.0648148148, 0.12962963};
// BnVarU
static const std::vector<float> kBnVarU = {0.501589974, 0.464272353};
// BnVarB
static const std::vector<float> kBnVarB = {0.459790809, 0.42558299};
// BnYNchw
static const std::vector<float> kBnYNchw = {-2.02388859, 2.26358745, 2.02539433, 1.78720122, 1.54900811,
    1.31081499, -0.00401014263, -0.0944669999, -0.184923857, -0.275380714, -0.365837572, -0.456294429,
    -0.356536801, -0.594729914, -0.832923027, -1.07111614, -1.30930925, -1.54750237, -1.08949243,
    -1.17994929, 0.448274144, 0.357817286, 0.267360429, 0.176903572};
// BnMeanNchw
static const std::vector<float> kBnMeanNchw = {-0.00925925926, 0.203703704};
// BnVarUNchw
static const std::vector<float> kBnVarUNchw = {0.533015339, 0.410400299};
// BnVarBNchw
static const std::vector<float> kBnVarBNchw = {0.488597394, 0.376200274};
// BnInfY
static const std::vector<float> kBnInfY = {-2.23112242, 0.188811539, 1.77181507, 0.110263753, 1.30088125,
    0.0317159676, 0.829947424, -0.046831818, 0.359013602, -0.125379604, -0.11192022, -0.203927389,
    -0.582854042, -0.282475175, -1.05378786, -0.361022961, -1.52472169, -0.439570746, -1.99565551,
    -0.518118532, 2.00728198, 0.149537646, 1.53634816, 0.0709898605};
// BnGdx
static const std::vector<float> kBnGdx = {-1.48475669, 0.71979668, 0.912086956, 0.21025684, -0.409767933,
    -0.299283, -1.73162282, -0.80882284, 2.10256065, 0.467898757, 0.780705764, -0.0416410828, -0.541149126,
    -0.551180923, -1.86300402, 0.725540674, 1.97117946, 0.216000834, 0.649324571, -0.293539006,
    -2.10987015, -0.810874266, 1.72431333, 0.465847331};
// BnGds
static const std::vector<float> kBnGds = {2.50981762, 0.0378044749};
// BnGdo
static const std::vector<float> kBnGdo = {0, 0.666666667};
// BnIGdx
static const std::vector<float> kBnIGdx = {-2.1192022, 0.353465035, 1.41280147, 0.117821678, 0,
    -0.117821678, -1.41280147, -0.353465035, 2.1192022, 0.235643357, 0.706400733, 0, -0.706400733,
    -0.235643357, -2.1192022, 0.353465035, 1.41280147, 0.117821678, 0, -0.117821678, -1.41280147,
    -0.353465035, 2.1192022, 0.235643357};
// BnIGds
static const std::vector<float> kBnIGds = {2.40699509, 0.125676457};
// BnIGdo
static const std::vector<float> kBnIGdo = {0, 0.666666667};


const std::string SAME = "SAME", VALID = "VALID";

static CaseRegistrar nnCases({
    // Conv2D
    {"Conv2D", {F32({1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 3, 3, 1}), F32({1, 0, 0, 1}, {2, 2, 1, 1})}, conv({1, 1, 1, 1}, VALID),
     {F32({6, 8, 12, 14}, {1, 2, 2, 1})}, 1e-6, true, {}, 1e-4, "x[i,j] + x[i+1,j+1]"},
    {"Conv2D", {seq({2, 5, 5, 3}), seq({3, 3, 3, 2}, 29, 13)}, conv({1, 2, 2, 1}, SAME),
     {F32(kConvSame, {2, 3, 3, 2})}, 1e-5, true, {}, 1e-4, "SAME, stride 2, several channels"},
    {"Conv2D", {seq({1, 6, 6, 2}), seq({2, 2, 2, 3}, 23, 11)}, conv({1, 1, 1, 1}, VALID, {1, 2, 2, 1}),
     {F32(kConvDil, {1, 4, 4, 3})}, 1e-5, true, {}, 1e-4, "dilation 2"},
    {"Conv2D", {seq({2, 3, 3, 4}), seq({1, 1, 4, 2}, 31, 17)}, conv({1, 1, 1, 1}, SAME),
     {F32(kConvPoint, {2, 3, 3, 2})}, 1e-5, true, {}, 1e-4, "1x1: the GEMM-only path"},
    {"Conv2D", {seq({1, 5, 4, 2}), seq({3, 2, 2, 2}, 13, 7)}, conv({1, 2, 1, 1}, VALID),
     {F32(kConvRect, {1, 2, 3, 2})}, 1e-5, true, {}, 1e-4, "rectangular filter and strides"},
    {"Conv2D", {seq({1, 5, 4, 2}).cast(DType::Float64), seq({3, 2, 2, 2}, 13, 7).cast(DType::Float64)},
     conv({1, 2, 1, 1}, VALID), {F32(kConvRect, {1, 2, 3, 2}).cast(DType::Float64)}, 1e-6, false, {}, 1e-4, "float64"},
    {"Conv2D", {seq({1, 5, 4, 2}).cast(DType::Float16), seq({3, 2, 2, 2}, 13, 7).cast(DType::Float16)},
     conv({1, 2, 1, 1}, VALID), {F32(kConvRect, {1, 2, 3, 2}).cast(DType::Float16)}, 5e-3, false, {}, 1e-4, "float16"},
    {"Conv2D", {F32({}, {0, 3, 3, 1}), F32({1, 0, 0, 1}, {2, 2, 1, 1})}, conv({1, 1, 1, 1}, VALID),
     {F32({}, {0, 2, 2, 1})}, 0, false, {}, 1e-4, "empty batch"},
    // Conv2DBackpropInput
    {"Conv2DBackpropInput", {I32({2, 5, 5, 3}), seq({3, 3, 3, 2}, 29, 13), seq({2, 3, 3, 2}, 17, 23)}, conv({1, 2, 2, 1}, SAME),
     {F32(kBpInSame, {2, 5, 5, 3})}, 1e-5, true, {}, 1e-4, "SAME, stride 2"},
    {"Conv2DBackpropInput", {I32({1, 6, 6, 2}), seq({2, 2, 2, 3}, 23, 11), seq({1, 4, 4, 3}, 41, 13)},
     conv({1, 1, 1, 1}, VALID, {1, 2, 2, 1}), {F32(kBpInDil, {1, 6, 6, 2})}, 1e-5, true, {}, 1e-4, "dilation 2"},
    {"Conv2DBackpropInput", {I32({2, 3, 3, 4}), seq({1, 1, 4, 2}, 31, 17), seq({2, 3, 3, 2}, 17, 23)}, conv({1, 1, 1, 1}, VALID),
     {F32(kBpInPoint, {2, 3, 3, 4})}, 1e-5, true, {}, 1e-4, "1x1"},
    // Conv2DBackpropFilter
    {"Conv2DBackpropFilter", {seq({2, 5, 5, 3}), I32({3, 3, 3, 2}), seq({2, 3, 3, 2}, 17, 23)}, conv({1, 2, 2, 1}, SAME),
     {F32(kBpFiSame, {3, 3, 3, 2})}, 1e-5, true, {}, 1e-4, "SAME, stride 2"},
    {"Conv2DBackpropFilter", {seq({1, 6, 6, 2}), I32({2, 2, 2, 3}), seq({1, 4, 4, 3}, 41, 13)},
     conv({1, 1, 1, 1}, VALID, {1, 2, 2, 1}), {F32(kBpFiDil, {2, 2, 2, 3})}, 1e-5, true, {}, 1e-4, "dilation 2"},
    {"Conv2DBackpropFilter", {seq({2, 3, 3, 4}), I32({1, 1, 4, 2}), seq({2, 3, 3, 2}, 17, 23)}, conv({1, 1, 1, 1}, VALID),
     {F32(kBpFiPoint, {1, 1, 4, 2})}, 1e-5, true, {}, 1e-4, "1x1"},
    // MaxPool and its gradients
    {"MaxPool", {F32({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, {1, 4, 4, 1})},
     pool({1, 2, 2, 1}, {1, 2, 2, 1}, VALID), {F32({6, 8, 14, 16}, {1, 2, 2, 1})}},
    {"MaxPool", {seq({2, 5, 5, 3})}, pool({1, 3, 3, 1}, {1, 2, 2, 1}, SAME), {F32(kMaxSame, {2, 3, 3, 3})},
     1e-6, true, {}, 1e-4, "SAME: padding never wins"},
    {"MaxPool", {seq({1, 4, 5, 2})}, pool({1, 2, 3, 1}, {1, 1, 2, 1}, VALID), {F32(kMaxRect, {1, 3, 2, 2})},
     1e-6, true, {}, 1e-4, "rectangular window"},
    {"MaxPool", {F32({1, NAN, 3, 2, -1, -2, -3, -4}, {1, 2, 2, 2})}, pool({1, 2, 2, 1}, {1, 2, 2, 1}, VALID),
     {F32({3, NAN}, {1, 1, 1, 2})}, 0, false, {}, 1e-4, "NaN propagates"},
    {"MaxPoolGrad", {seq({2, 5, 5, 3}), F32(kMaxSame, {2, 3, 3, 3}), seq({2, 3, 3, 3}, 13, 7)},
     pool({1, 3, 3, 1}, {1, 2, 2, 1}, SAME), {F32(kMaxGrad, {2, 5, 5, 3})}, 1e-6, true, {}, 1e-4, "to the window maxima"},
    {"MaxPoolGradGrad", {seq({1, 4, 4, 2}), F32(kMaxGGOut, {1, 2, 2, 2}), seq({1, 4, 4, 2}, 13, 7)},
     pool({1, 2, 2, 1}, {1, 2, 2, 1}, VALID), {F32(kMaxGG, {1, 2, 2, 2})}, 1e-6, true, {}, 1e-4, "gathers at the maxima"},
    // AvgPool and its gradient
    {"AvgPool", {F32({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, {1, 4, 4, 1})},
     pool({1, 2, 2, 1}, {1, 2, 2, 1}, VALID), {F32({3.5f, 5.5f, 11.5f, 13.5f}, {1, 2, 2, 1})}},
    {"AvgPool", {seq({2, 5, 5, 3})}, pool({1, 3, 3, 1}, {1, 2, 2, 1}, SAME), {F32(kAvgSame, {2, 3, 3, 3})},
     1e-6, true, {}, 1e-4, "SAME: averages the valid cells only"},
    {"AvgPool", {seq({2, 5, 5, 3}).cast(DType::Float64)}, pool({1, 3, 3, 1}, {1, 2, 2, 1}, SAME),
     {F32(kAvgSame, {2, 3, 3, 3}).cast(DType::Float64)}, 1e-6, false, {}, 1e-4, "float64"},
    {"AvgPoolGrad", {I32({2, 5, 5, 3}), seq({2, 3, 3, 3}, 13, 7)}, pool({1, 3, 3, 1}, {1, 2, 2, 1}, SAME),
     {F32(kAvgGrad, {2, 5, 5, 3})}, 1e-6, true, {}, 1e-4, "SAME, stride 2"},
    // BiasAdd
    {"BiasAdd", {F32({1, 2, 3, 4, 5, 6}, {2, 3}), F32({10, 20, 30})}, {}, {F32({11, 22, 33, 14, 25, 36}, {2, 3})}},
    {"BiasAdd", {F32({1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 2, 2}), F32({10, 20})}, {{"data_format", std::string("NCHW")}},
     {F32({11, 12, 13, 14, 25, 26, 27, 28}, {1, 2, 2, 2})}, 1e-6, true, {}, 1e-4, "NCHW: bias on dim 1"},
    {"BiasAdd", {I32({1, 2, 3, 4}, {2, 2}), I32({10, 20})}, {}, {I32({11, 22, 13, 24}, {2, 2})}},
    {"BiasAddGrad", {F32({1, 2, 3, 4, 5, 6}, {2, 3})}, {}, {F32({5, 7, 9})}},
    {"BiasAddGrad", {F32({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {2, 2, 3})}, {{"data_format", std::string("NCHW")}},
     {F32({1 + 2 + 3 + 7 + 8 + 9, 4 + 5 + 6 + 10 + 11 + 12})}, 1e-6, true, {}, 1e-4, "NCHW"},
    // FusedBatchNormV3 (epsilon 0.001)
    {"FusedBatchNormV3", {seq({2, 2, 3, 2}), F32({1.5f, 0.5f}), F32({0.1f, -0.2f}), empty0(), empty0()},
     {{"epsilon", 0.001}, {"is_training", true}},
     {F32(kBnY, {2, 2, 3, 2}), F32(kBnMean), F32(kBnVarU), F32(kBnMean), F32(kBnVarB), empty0()}, 1e-5, true, {0, 1, 2},
     1e-4, "training: batch statistics; batch_variance is Bessel-corrected"},
    {"FusedBatchNormV3", {seq({2, 2, 2, 3}), F32({1.5f, 0.5f}), F32({0.1f, -0.2f}), empty0(), empty0()},
     {{"epsilon", 0.001}, {"is_training", true}, {"data_format", std::string("NCHW")}},
     {F32(kBnYNchw, {2, 2, 2, 3}), F32(kBnMeanNchw), F32(kBnVarUNchw), F32(kBnMeanNchw), F32(kBnVarBNchw), empty0()},
     1e-5, true, {0, 1, 2}, 1e-4, "NCHW"},
    {"FusedBatchNormV3", {seq({2, 2, 3, 2}), F32({1.5f, 0.5f}), F32({0.1f, -0.2f}), F32({0.1f, -0.1f}), F32({0.5f, 2.0f})},
     {{"epsilon", 0.001}, {"is_training", false}},
     {F32(kBnInfY, {2, 2, 3, 2}), F32({0.1f, -0.1f}), F32({0.5f, 2.0f}), F32({0.1f, -0.1f}), F32({0.5f, 2.0f}), empty0()},
     1e-5, true, {0, 1, 2}, 1e-4, "inference: the given population statistics"},
    {"FusedBatchNormV3", {seq({2, 2, 3, 2}).cast(DType::Float16), F32({1.5f, 0.5f}), F32({0.1f, -0.2f}), empty0(), empty0()},
     {{"epsilon", 0.001}, {"is_training", true}},
     {F32(kBnY, {2, 2, 3, 2}).cast(DType::Float16), F32(kBnMean), F32(kBnVarU), F32(kBnMean), F32(kBnVarB), empty0()},
     2e-3, false, {}, 1e-4, "float16 x with float32 statistics"},
    {"FusedBatchNormGradV3",
     {seq({2, 2, 3, 2}, 13, 7), seq({2, 2, 3, 2}), F32({1.5f, 0.5f}), F32(kBnMean), F32(kBnVarB), empty0()},
     {{"epsilon", 0.001}, {"is_training", true}},
     {F32(kBnGdx, {2, 2, 3, 2}), F32(kBnGds), F32(kBnGdo), empty0(), empty0()}, 1e-5, true, {0, 1, 2}, 1e-4, "training"},
    {"FusedBatchNormGradV3",
     {seq({2, 2, 3, 2}, 13, 7), seq({2, 2, 3, 2}), F32({1.5f, 0.5f}), F32({0.1f, -0.1f}), F32({0.5f, 2.0f}), empty0()},
     {{"epsilon", 0.001}, {"is_training", false}},
     {F32(kBnIGdx, {2, 2, 3, 2}), F32(kBnIGds), F32(kBnIGdo), empty0(), empty0()}, 1e-5, true, {0, 1, 2}, 1e-4, "inference"},
});

}  // namespace

// ---- shape functions ----

TEST_CASE("Conv2D infers TensorFlow's output sizes and keeps the batch symbol", "[engine][shape][nn]") {
  INFER_OK("Conv2D", "[b,28,28,1];[5,5,1,32]", "[b,28,28,32]", {"strides", Ints{1, 1, 1, 1}}, {"padding", std::string("SAME")});
  INFER_OK("Conv2D", "[b,28,28,1];[5,5,1,32]", "[b,24,24,32]", {"strides", Ints{1, 1, 1, 1}}, {"padding", std::string("VALID")});
  INFER_OK("Conv2D", "[b,28,28,1];[5,5,1,32]", "[b,14,14,32]", {"strides", Ints{1, 2, 2, 1}}, {"padding", std::string("SAME")});
  INFER_OK("Conv2D", "[b,28,27,1];[5,5,1,32]", "[b,12,12,32]", {"strides", Ints{1, 2, 2, 1}}, {"padding", std::string("VALID")});
  INFER_OK("Conv2D", "[b,10,10,3];[3,3,3,8]", "[b,6,6,8]", {"strides", Ints{1, 1, 1, 1}}, {"padding", std::string("VALID")},
           {"dilations", Ints{1, 2, 2, 1}});
  INFER_OK("Conv2D", "[b,h,w,3];[3,3,3,8]", "[b,h,w,8]", {"strides", Ints{1, 1, 1, 1}}, {"padding", std::string("SAME")});
  INFER_OK("Conv2D", "[b,h,w,3];[1,1,3,8]", "[b,h,w,8]", {"strides", Ints{1, 1, 1, 1}}, {"padding", std::string("VALID")});
  INFER_OK("Conv2D", "[b,h,w,3];[3,3,3,8]", "[b,?,?,8]", {"strides", Ints{1, 2, 2, 1}}, {"padding", std::string("SAME")});
  INFER_OK("Conv2D", "?;[3,3,3,8]", "[?,?,?,8]", {"strides", Ints{1, 1, 1, 1}}, {"padding", std::string("VALID")});
  INFER_OK("Conv2D", "[2,5,5,3];?", "[2,3,3,?]", {"strides", Ints{1, 2, 2, 1}}, {"padding", std::string("SAME")});
  INFER_OK("Conv2D", "[b,3,28,28];[5,5,3,32]", "[b,32,24,24]", {"strides", Ints{1, 1, 1, 1}},
           {"padding", std::string("VALID")}, {"data_format", std::string("NCHW")});
}

TEST_CASE("Conv2D reports TensorFlow's shape errors", "[engine][shape][nn]") {
  INFER_ERROR("Negative dimension size caused by subtracting 5 from 4", "Conv2D", "[1,4,4,1];[5,5,1,2]",
              {"strides", Ints{1, 1, 1, 1}}, {"padding", std::string("VALID")});
  INFER_ERROR("Negative dimension size caused by subtracting 5 from 4", "Conv2D", "[1,4,9,1];[3,3,1,2]",
              {"strides", Ints{1, 1, 1, 1}}, {"padding", std::string("VALID")}, {"dilations", Ints{1, 2, 2, 1}});
  INFER_ERROR("Shape must be rank 4 but is rank 3", "Conv2D", "[28,28,1];[5,5,1,32]", {"strides", Ints{1, 1, 1, 1}},
              {"padding", std::string("SAME")});
  INFER_ERROR("Shape must be rank 4 but is rank 2", "Conv2D", "[1,28,28,1];[5,32]", {"strides", Ints{1, 1, 1, 1}},
              {"padding", std::string("SAME")});
  INFER_ERROR("Depth of input (3) is not a multiple of input depth of filter (2)", "Conv2D", "[b,8,8,3];[3,3,2,4]",
              {"strides", Ints{1, 1, 1, 1}}, {"padding", std::string("SAME")});
  INFER_ERROR("with input shapes: [b,8,8,3], [3,3,2,4]", "Conv2D", "[b,8,8,3];[3,3,2,4]",
              {"strides", Ints{1, 1, 1, 1}}, {"padding", std::string("SAME")});
  INFER_ERROR("requires the stride attribute to contain 4 values, but got: 2", "Conv2D", "[1,8,8,1];[3,3,1,1]",
              {"strides", Ints{1, 1}}, {"padding", std::string("SAME")});
  INFER_ERROR("requires the stride attribute to contain 4 values, but got: 0", "Conv2D", "[1,8,8,1];[3,3,1,1]",
              {"padding", std::string("SAME")});
  INFER_ERROR("Value for attr 'padding' of \"FULL\" is not in the list of allowed values", "Conv2D",
              "[1,8,8,1];[3,3,1,1]", {"strides", Ints{1, 1, 1, 1}}, {"padding", std::string("FULL")});
  INFER_ERROR("does not yet support strides in the batch and depth dimensions", "Conv2D", "[1,8,8,1];[3,3,1,1]",
              {"strides", Ints{2, 1, 1, 1}}, {"padding", std::string("SAME")});
  INFER_ERROR("Stride must be > 0, but got 0", "Conv2D", "[1,8,8,1];[3,3,1,1]", {"strides", Ints{1, 0, 1, 1}},
              {"padding", std::string("SAME")});
  INFER_ERROR("Invalid data format string: NWHC", "Conv2D", "[1,8,8,1];[3,3,1,1]", {"strides", Ints{1, 1, 1, 1}},
              {"padding", std::string("SAME")}, {"data_format", std::string("NWHC")});
  INFER_ERROR("has type float64 that does not match type float32", "Conv2D", "float32:[1,8,8,1];float64:[3,3,1,1]",
              {"strides", Ints{1, 1, 1, 1}}, {"padding", std::string("SAME")});
  INFER_ERROR("is not in the list of allowed values", "Conv2D", "int32:[1,8,8,1];int32:[3,3,1,1]",
              {"strides", Ints{1, 1, 1, 1}}, {"padding", std::string("SAME")});
}

TEST_CASE("Conv2D backprops take their output shape from the sizes input", "[engine][shape][nn]") {
  INFER_OK("Conv2DBackpropInput", "int32=[2,5,5,3];[3,3,3,2];[2,3,3,2]", "[2,5,5,3]", {"strides", Ints{1, 2, 2, 1}},
           {"padding", std::string("SAME")});
  INFER_OK("Conv2DBackpropInput", "int32:[4];[3,3,3,2];[b,3,3,2]", "[b,?,?,3]", {"strides", Ints{1, 2, 2, 1}},
           {"padding", std::string("SAME")});
  INFER_OK("Conv2DBackpropFilter", "[2,5,5,3];int32=[3,3,3,2];[2,3,3,2]", "[3,3,3,2]", {"strides", Ints{1, 2, 2, 1}},
           {"padding", std::string("SAME")});
  INFER_OK("Conv2DBackpropFilter", "[b,5,5,3];int32:[4];[b,3,3,2]", "[?,?,3,2]", {"strides", Ints{1, 2, 2, 1}},
           {"padding", std::string("SAME")});
  INFER_ERROR("out_backprop dimension 1 is 4 but the forward convolution produces 3", "Conv2DBackpropInput",
              "int32=[2,5,5,3];[3,3,3,2];[2,4,3,2]", {"strides", Ints{1, 2, 2, 1}}, {"padding", std::string("SAME")});
  INFER_ERROR("Dimension 1 of 'input_sizes' must be >= 0, but is -5", "Conv2DBackpropInput",
              "int32=[2,-5,5,3];[3,3,3,2];[2,3,3,2]", {"strides", Ints{1, 2, 2, 1}}, {"padding", std::string("SAME")});
  INFER_ERROR("Shape must be rank 4 but is rank 3", "Conv2DBackpropInput", "int32=[5,5,3];[3,3,3,2];[2,3,3,2]",
              {"strides", Ints{1, 2, 2, 1}}, {"padding", std::string("SAME")});
  INFER_ERROR("Dimensions must be equal, but are 3 and 4", "Conv2DBackpropFilter", "[2,5,5,4];int32=[3,3,3,2];[2,3,3,2]",
              {"strides", Ints{1, 2, 2, 1}}, {"padding", std::string("SAME")});
}

TEST_CASE("pooling infers window output sizes", "[engine][shape][nn]") {
  INFER_OK("MaxPool", "[b,28,28,32]", "[b,14,14,32]", {"ksize", Ints{1, 2, 2, 1}}, {"strides", Ints{1, 2, 2, 1}},
           {"padding", std::string("SAME")});
  INFER_OK("MaxPool", "[b,5,5,3]", "[b,2,2,3]", {"ksize", Ints{1, 3, 3, 1}}, {"strides", Ints{1, 2, 2, 1}},
           {"padding", std::string("VALID")});
  INFER_OK("AvgPool", "[b,?,7,c]", "[b,?,4,c]", {"ksize", Ints{1, 3, 3, 1}}, {"strides", Ints{1, 2, 2, 1}},
           {"padding", std::string("SAME")});
  INFER_OK("AvgPool", "?", "[?,?,?,?]", {"ksize", Ints{1, 3, 3, 1}}, {"strides", Ints{1, 2, 2, 1}},
           {"padding", std::string("SAME")});
  INFER_OK("MaxPoolGrad", "[b,5,5,3];[b,3,3,3];[b,3,3,3]", "[b,5,5,3]", {"ksize", Ints{1, 3, 3, 1}},
           {"strides", Ints{1, 2, 2, 1}}, {"padding", std::string("SAME")});
  INFER_OK("AvgPoolGrad", "int32=[2,5,5,3];[2,3,3,3]", "[2,5,5,3]", {"ksize", Ints{1, 3, 3, 1}},
           {"strides", Ints{1, 2, 2, 1}}, {"padding", std::string("SAME")});
  INFER_ERROR("Negative dimension size caused by subtracting 3 from 2", "MaxPool", "[1,2,2,1]",
              {"ksize", Ints{1, 3, 3, 1}}, {"strides", Ints{1, 1, 1, 1}}, {"padding", std::string("VALID")});
  INFER_ERROR("MaxPool requires the ksize attribute to contain 4 values, but got: 2", "MaxPool", "[1,4,4,1]",
              {"ksize", Ints{2, 2}}, {"strides", Ints{1, 1, 1, 1}}, {"padding", std::string("VALID")});
  INFER_ERROR("AvgPool requires the stride attribute to contain 4 values, but got: 3", "AvgPool", "[1,4,4,1]",
              {"ksize", Ints{1, 2, 2, 1}}, {"strides", Ints{1, 1, 1}}, {"padding", std::string("VALID")});
  INFER_ERROR("Pooling is not yet supported on the batch dimension", "MaxPool", "[2,4,4,1]",
              {"ksize", Ints{2, 2, 2, 1}}, {"strides", Ints{1, 1, 1, 1}}, {"padding", std::string("VALID")});
  INFER_ERROR("Sliding window ksize for dimension 1 was zero", "AvgPool", "[2,4,4,1]",
              {"ksize", Ints{1, 0, 2, 1}}, {"strides", Ints{1, 1, 1, 1}}, {"padding", std::string("VALID")});
  INFER_ERROR("Shape must be rank 4 but is rank 2", "MaxPool", "[4,4]", {"ksize", Ints{1, 2, 2, 1}},
              {"strides", Ints{1, 1, 1, 1}}, {"padding", std::string("VALID")});
  INFER_ERROR("Shapes must be equal rank and compatible", "MaxPoolGrad", "[b,5,5,3];[b,2,2,3];[b,3,3,3]",
              {"ksize", Ints{1, 3, 3, 1}}, {"strides", Ints{1, 2, 2, 1}}, {"padding", std::string("SAME")});
}

TEST_CASE("BiasAdd needs a bias as long as the channel dimension", "[engine][shape][nn]") {
  INFER_OK("BiasAdd", "[b,10];[10]", "[b,10]");
  INFER_OK("BiasAdd", "[b,?];[10]", "[b,10]");
  INFER_OK("BiasAdd", "[b,h,w,c];[?]", "[b,h,w,c]");
  INFER_OK("BiasAdd", "?;[3]", "?");
  INFER_OK("BiasAdd", "[b,3,4,4];[3]", "[b,3,4,4]", {"data_format", std::string("NCHW")});
  INFER_ERROR("Dimensions must be equal, but are 4 and 3", "BiasAdd", "[2,3];[4]");
  INFER_ERROR("Shape must be at least rank 2 but is rank 1", "BiasAdd", "[3];[3]");
  INFER_ERROR("Shape must be rank 1 but is rank 2", "BiasAdd", "[2,3];[1,3]");
  INFER_ERROR("Dimensions must be equal, but are 4 and 3", "BiasAdd", "[2,3,5,5];[4]", {"data_format", std::string("NCHW")});
  INFER_OK("BiasAddGrad", "[b,h,w,8]", "[8]");
  INFER_OK("BiasAddGrad", "[b,8,h,w]", "[8]", {"data_format", std::string("NCHW")});
  INFER_OK("BiasAddGrad", "?", "[?]");
}

TEST_CASE("FusedBatchNormV3 checks channels and gives six outputs", "[engine][shape][nn]") {
  INFER_OK("FusedBatchNormV3", "[b,28,28,16];[16];[16];[0];[0]", "[b,28,28,16];[16];[16];[16];[16];[0]");
  INFER_OK("FusedBatchNormV3", "[b,28,28,?];[16];[16];[0];[0]", "[b,28,28,16];[16];[16];[16];[16];[0]");
  INFER_OK("FusedBatchNormV3", "[b,16,7,7];[16];[16];[0];[0]", "[b,16,7,7];[16];[16];[16];[16];[0]",
           {"data_format", std::string("NCHW")});
  INFER_OK("FusedBatchNormV3", "[b,4,4,c];[c];[c];[c];[c]", "[b,4,4,c];[c];[c];[c];[c];[0]", {"is_training", false});
  INFER_ERROR("Dimensions must be equal, but are 16 and 8", "FusedBatchNormV3", "[b,28,28,16];[8];[8];[0];[0]");
  INFER_ERROR("Dimensions must be equal, but are 16 and 0", "FusedBatchNormV3", "[b,28,28,16];[16];[16];[0];[0]",
              {"is_training", false});
  INFER_ERROR("Shape must be rank 4 but is rank 2", "FusedBatchNormV3", "[b,16];[16];[16];[0];[0]");
  INFER_ERROR("Shape must be rank 1 but is rank 2", "FusedBatchNormV3", "[b,2,2,16];[1,16];[16];[0];[0]");
  INFER_ERROR("float32 is required for an input x of type float32", "FusedBatchNormV3",
              "[1,2,2,3];float64:[3];[3];[0];[0]");
  INFER_OK("FusedBatchNormGradV3", "[b,4,4,3];[b,4,4,3];[3];[3];[3];[0]", "[b,4,4,3];[3];[3];[0];[0]");
  INFER_ERROR("Shapes must be equal rank and compatible", "FusedBatchNormGradV3", "[b,4,4,3];[b,4,5,3];[3];[3];[3];[0]");
}

// ---- kernels: bad inputs give errors, never crashes ----

TEST_CASE("NN kernels refuse what TensorFlow's CPU kernels refuse", "[engine][nn]") {
  CHECK_THROWS_WITH(runEager("Conv2D", {seq({1, 3, 4, 4}), seq({3, 3, 3, 2})},
                             {{"strides", Ints{1, 1, 1, 1}}, {"padding", std::string("SAME")}, {"data_format", std::string("NCHW")}}),
                    Catch::Contains("only supports the NHWC tensor format on the CPU"));
  CHECK_THROWS_WITH(runEager("Conv2D", {seq({1, 4, 4, 4}), seq({3, 3, 2, 2})}, conv({1, 1, 1, 1}, "SAME")),
                    Catch::Contains("does not support grouped convolutions on the CPU"));
  CHECK_THROWS_WITH(runEager("MaxPool", {seq({1, 3, 4, 4})},
                             {{"ksize", Ints{1, 1, 2, 2}}, {"strides", Ints{1, 1, 2, 2}}, {"padding", std::string("SAME")},
                              {"data_format", std::string("NCHW")}}),
                    Catch::Contains("Default MaxPoolingOp only supports NHWC on device type CPU"));
  CHECK_THROWS_WITH(runEager("Conv2D", {seq({1, 2, 2, 1}), seq({3, 3, 1, 1})}, conv({1, 1, 1, 1}, "VALID")),
                    Catch::Contains("Negative dimension size caused by subtracting 3 from 2"));
  CHECK_THROWS_WITH(runEager("BiasAdd", {seq({2, 3}), seq({4})}), Catch::Contains("Dimensions must be equal"));
  CHECK_THROWS_WITH(runEager("AvgPoolGrad", {I32({2, 5, 5}), seq({2, 3, 3, 3})}, pool({1, 3, 3, 1}, {1, 2, 2, 1}, "SAME")),
                    Catch::Contains("Shape must be rank 4 but is rank 3"));
}

TEST_CASE("Conv2D agrees with its backprops on larger float32 problems, serial and threaded", "[engine][nn]") {
  // <dy, conv(x, f)> == <conv_backprop_input(dy), x> == <conv_backprop_filter(dy), f>, and the
  // threaded paths (whole chunks per thread) agree with the serial ones.
  auto dot = [](const Tensor& p, const Tensor& q) {
    double s = 0;
    for (int64_t i = 0; i < p.numElements(); ++i) s += p.getDouble(i) * q.getDouble(i);
    return s;
  };
  const int saved = intraOpThreads();
  struct Problem { ConcreteShape x, f; Ints strides, dilations; };
  for (const Problem& p : {Problem{{3, 17, 19, 5}, {3, 4, 5, 7}, {1, 2, 3, 1}, {1, 2, 1, 1}},
                           Problem{{8, 32, 32, 8}, {3, 3, 8, 4}, {1, 1, 1, 1}, {1, 1, 1, 1}}}) {
    Tensor x = randomF32(p.x, -1, 1, 3), f = randomF32(p.f, -1, 1, 4);
    std::vector<int32_t> xs(p.x.begin(), p.x.end()), fs(p.f.begin(), p.f.end());
    for (const char* pad : {"SAME", "VALID"}) {
      Attrs a = conv(p.strides, pad, p.dilations);
      std::vector<Tensor> first;
      for (int threads : {1, 2}) {
        setIntraOpThreads(threads);
        Tensor y = runEager("Conv2D", {x, f}, a)[0];
        Tensor dy = randomF32(y.shape(), -1, 1, 5);
        Tensor dx = runEager("Conv2DBackpropInput", {I32(xs), f, dy}, a)[0];
        Tensor df = runEager("Conv2DBackpropFilter", {x, I32(fs), dy}, a)[0];
        const double ref = dot(dy, y);
        INFO(pad << " threads " << threads << ": " << ref << " " << dot(dx, x) << " " << dot(df, f));
        CHECK(dot(dx, x) == Approx(ref).epsilon(1e-4));
        CHECK(dot(df, f) == Approx(ref).epsilon(1e-4));
        if (first.empty()) {
          first = {y, dx, df};
        } else {
          CHECK(maxRelativeError(y, first[0]) < 1e-5);
          CHECK(maxRelativeError(dx, first[1]) < 1e-5);
          CHECK(maxRelativeError(df, first[2]) < 1e-4);
        }
      }
    }
  }
  setIntraOpThreads(saved);
}

// ---- builders ----

TEST_CASE("conv1d is Conv2D on an expanded input, as tf.nn.conv1d builds it", "[engine][graph][nn]") {
  Graph g;
  Output x = ops::placeholder(g, DType::Float32, parseShape("[?,7,3]"), "x");
  Output f = ops::constant(g, seq({3, 3, 4}, 29, 13));
  Output y = ops::conv1d(g, x, f, 2, "SAME");
  const Shape& s = y.type().shape;
  REQUIRE(s.rank() == 3);
  CHECK(s[1].size == 4);
  CHECK(s[2].size == 4);
  bool sawConv = false;
  for (const Node& n : g.nodes()) sawConv = sawConv || (n.type() == "Conv2D" && n.name.rfind("conv1d/", 0) == 0);
  CHECK(sawConv);
  // Against Conv2D on the same data seen as [2, 1, 7, 3] and [1, 3, 3, 4].
  Tensor xv = seq({2, 7, 3});
  Session sess(g);
  Tensor got = sess.run({y}, {{x, xv}})[0];
  Tensor want = runEager("Conv2D", {xv.reshaped({2, 1, 7, 3}), seq({3, 3, 4}, 29, 13).reshaped({1, 3, 3, 4})},
                         conv({1, 1, 2, 1}, "SAME"))[0];
  CHECK(got.shape() == ConcreteShape{2, 4, 4});
  CHECK(maxRelativeError(got, want.reshaped({2, 4, 4})) < 1e-6);
  // Dilation and VALID padding; gradients flow to the input and the filter.
  Output y2 = ops::conv1d(g, x, f, 1, "VALID", 2);
  CHECK(y2.type().shape[1].size == 3);
  std::vector<Output> gr = gradients(g, {ops::reduceSum(g, y2, {})}, {x, f});
  REQUIRE(gr[0]);
  REQUIRE(gr[1]);
  auto r = sess.run({gr[0], gr[1]}, {{x, xv}});
  CHECK(r[0].shape() == ConcreteShape{2, 7, 3});
  CHECK(r[1].shape() == ConcreteShape{3, 3, 4});
  CHECK_THROWS_WITH(ops::conv1d(g, ops::constant(g, seq({2, 7})), f, 1, "SAME"), Catch::Contains("must be rank 3"));
}

TEST_CASE("dropout keeps about 1 - rate of the values, scaled, and is seeded", "[engine][graph][nn]") {
  Graph g;
  Output x = ops::constant(g, Tensor::filled(DType::Float32, {4000}, 1.0));
  Output y = ops::dropout(g, x, 0.3, 5);
  CHECK(y.node->name.rfind("dropout/", 0) == 0);
  std::vector<Output> gr = gradients(g, {ops::reduceSum(g, y, {})}, {x});
  REQUIRE(gr[0]);
  Session s(g);
  auto r = s.run({y, gr[0]});
  int64_t kept = 0;
  for (int64_t i = 0; i < 4000; ++i) {
    const double v = r[0].getDouble(i);
    CHECK((v == 0 || std::fabs(v - 1 / 0.7) < 1e-5));
    kept += v != 0;
    CHECK(r[1].getDouble(i) == Approx(v));  // d(sum(x * mask / keep)) / dx = mask / keep
  }
  CHECK(kept == Approx(2800).margin(150));
  Tensor again = s.run({y})[0];
  CHECK_FALSE(tensorsEqual(again, r[0]));  // a new mask each run
  Session s2(g);
  CHECK(tensorsEqual(s2.run({y})[0], r[0]));  // the same seed gives the same first mask
  CHECK(ops::dropout(g, x, 0.0, 1) == x);
  CHECK_THROWS_WITH(ops::dropout(g, x, 1.0, 1), Catch::Contains("rate must be a scalar tensor or a float in the range [0, 1), got 1"));
  CHECK_THROWS_WITH(ops::dropout(g, ops::constant(g, I32({1, 2})), 0.5, 1),
                    Catch::Contains("x has to be a floating point tensor since it's going to be scaled. Got a int32 tensor instead."));
}
