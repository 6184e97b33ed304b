#pragma once
// A double to an element type, defined for every double, as numpy's casts give on x86.
// C++ leaves a float-to-integer conversion out of the target's range undefined (UBSan reports it);
// numpy's astype compiles to the x86 truncating conversions, whose out-of-range answer is the
// most negative value of the 32- or 64-bit register, then truncates to the element's width:
//   1e20 -> int32 -2147483648, NaN -> int64 INT64_MIN, 40000.0 -> uint8 64, -1.0 -> uint8 255.
// Kept out of Tensor.h: only the few files that convert element by element include it.

#include <cstdint>
#include <limits>
#include <type_traits>

namespace tlens {

template <typename T>
T convertDouble(double x) {
  if constexpr (std::is_same_v<T, bool>) {
    return x != 0.0;
  } else if constexpr (std::is_integral_v<T> && sizeof(T) == 8) {
    if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0)) return static_cast<T>(std::numeric_limits<int64_t>::min());
    return static_cast<T>(static_cast<int64_t>(x));
  } else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T> && sizeof(T) == 4) {
    // uint32 goes through the 64-bit conversion: exact in range (numpy's out-of-range answers
    // for uint32 come from another instruction and are not reproduced).
    if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0)) return 0;
    return static_cast<T>(static_cast<int64_t>(x));
  } else if constexpr (std::is_integral_v<T>) {
    // int32 and narrower: the 32-bit conversion, then modular truncation.
    if (!(x >= -2147483648.0 && x < 2147483648.0)) return static_cast<T>(std::numeric_limits<int32_t>::min());
    return static_cast<T>(static_cast<int32_t>(x));
  } else {
    return static_cast<T>(x);
  }
}

}  // namespace tlens
