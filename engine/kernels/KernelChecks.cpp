#include "engine/kernels/KernelChecks.h"

#include <string>

namespace tlens {

AxisView viewAround(KernelContext& c, const ConcreteShape& s, int64_t axisValue) {
  const int64_t r = static_cast<int64_t>(s.size());
  if (axisValue < -r || axisValue >= r)
    c.fail("Expected axis in the range [" + std::to_string(-r) + ", " + std::to_string(r) + "), but got " +
           std::to_string(axisValue));
  const size_t axis = static_cast<size_t>(axisValue < 0 ? axisValue + r : axisValue);
  AxisView v;
  for (size_t d = 0; d < s.size(); ++d) {
    if (d < axis) v.outer *= s[d];
    else if (d == axis) v.n = s[d];
    else v.inner *= s[d];
  }
  return v;
}

AxisView argReductionView(KernelContext& c, const Tensor& in) {
  const int64_t a = c.getInt("axis", 0);
  return viewAround(c, in.shape(), a < 0 ? a + in.rank() : a);
}

void checkPermutation(KernelContext& c, const std::vector<int64_t>& perm, int rank) {
  if (static_cast<int>(perm.size()) != rank)
    c.fail("transpose expects a vector of size " + std::to_string(rank) + ". But input(1) is a vector of size " +
           std::to_string(perm.size()));
  std::vector<char> seen(static_cast<size_t>(rank), 0);
  for (int64_t p : perm) {
    if (p < 0 || p >= rank) c.fail(std::to_string(p) + " is out of range [0 .. " + std::to_string(rank) + ")");
    seen[static_cast<size_t>(p)] = 1;
  }
  for (int i = 0; i < rank; ++i)
    if (!seen[static_cast<size_t>(i)]) c.fail(std::to_string(i) + " is missing from the permutation");
}

}  // namespace tlens
