// NumpyFormat: numpy 1.24's printing of arrays and scalars (numpy/core/arrayprint.py and
// dragon4.c), so that `print(sess.run(w))`, `repr(x)` and eager tensors show the same text as in
// a real run: Dragon4's shortest unique digits per dtype (float16, float32, float64), the
// 'maxprec' / 'unique' / 'fixed' / 'maxprec_equal' float modes with their trimming, the switch
// to scientific notation, column padding, nan/inf, line wrapping, summarisation with '...', and
// repr's `array(` prefix and dtype suffix.
//
// The formatting is pure (a Tensor and options in, text out). The options live per interpreter
// run (TfRuntime::printOptions) and are changed by np.set_printoptions; addNumpyFormatFunctions
// gives `_tlens` the natives behind np.set_printoptions, get_printoptions, array2string,
// array_str, array_repr, format_float_positional and format_float_scientific.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <string_view>

#include "engine/core/Tensor.h"
#include "lang/interp/Value.h"

namespace tlens::interp {
class ModuleObj;
}

namespace tlens::tf {

class TfRuntime;

/// np.get_printoptions(), numpy 1.24's defaults.
struct NumpyPrintOptions {
  int precision = 8;
  double threshold = 1000;  ///< a float: np.inf and sys.maxsize both mean "never summarise"
  int edgeitems = 3;
  int linewidth = 75;
  bool suppress = false;
  std::string floatmode = "maxprec";  ///< fixed, unique, maxprec, maxprec_equal
  char sign = '-';                    ///< '-', '+' or ' '
  std::string nanstr = "nan";
  std::string infstr = "inf";
  /// `formatter=`: element i of the tensor as text, or nullopt for the default format. Set per
  /// kind by the Python binding (bool, int, float).
  using ElementFormatter = std::function<std::string(const Tensor&, int64_t)>;
  ElementFormatter boolFormatter, intFormatter, floatFormatter;
  /// What np.get_printoptions() gives back as it was set: threshold (an int, or np.inf),
  /// formatter (a dict or None), legacy (False, '1.13', '1.21').
  interp::Value thresholdValue, formatterValue, legacyValue;
};

/// Dragon4 digits of one value of `dtype` (Float16/Float32/Float64; `x` holds the value exactly),
/// as np.format_float_positional / np.format_float_scientific give them. `precision`,
/// `minDigits`, `padLeft`, `padRight` and `expDigits` are -1 when not given; `trim` is one of
/// 'k', '.', '0', '-'.
std::string formatFloatPositional(double x, DType dtype, int precision = -1, bool unique = true,
                                  bool fractional = true, char trim = 'k', bool sign = false,
                                  int padLeft = -1, int padRight = -1, int minDigits = -1);
std::string formatFloatScientific(double x, DType dtype, int precision = -1, bool unique = true,
                                  char trim = 'k', bool sign = false, int padLeft = -1,
                                  int expDigits = -1, int minDigits = -1);

/// String arrays (DType::String) come in numpy's three kinds, `strKind`: 'U' (str elements,
/// dtype '<U5'), 'S' (bytes, '|S5') and 'O' (an object array of bytes, what TensorFlow returns
/// for tf.string). Other dtypes ignore it.
///
/// np.array2string(a, max_line_width, ..., separator, prefix, suffix) with `o` already holding
/// the call's overrides. An empty array is "[]".
std::string numpyArray2String(const Tensor& a, const NumpyPrintOptions& o, std::string_view separator = " ",
                              std::string_view prefix = "", std::string_view suffix = "", char strKind = 'O');
/// str(ndarray): array2string with ' ' between elements; a 0-d array prints as its scalar.
std::string numpyArrayStr(const Tensor& a, const NumpyPrintOptions& o, char strKind = 'O');
/// repr(ndarray): "array([1., 2.], dtype=float32)", empty shapes, the dtype on its own line when
/// it would not fit.
std::string numpyArrayRepr(const Tensor& a, const NumpyPrintOptions& o, char strKind = 'O');
/// repr() and str() of the numpy scalar in element 0 of `t` (np.float32(0.1) is 0.1, 1e-05,
/// 1e+16, inf, nan; ints as Python ints; True/False; b'abc' or 'abc' for strings).
std::string numpyScalarRepr(const Tensor& t, char strKind = 'O');
/// numpy's name of a string array's dtype: "<U6", "|S6" (the longest element, at least 1), "object".
std::string numpyStringDTypeName(const Tensor& t, char strKind);

/// `_tlens.set_printoptions`, `get_printoptions`, `array2string`, `array_str`, `array_repr`,
/// `format_float_positional`, `format_float_scientific`.
void addNumpyFormatFunctions(interp::ModuleObj& m, TfRuntime& rt);

}  // namespace tlens::tf
