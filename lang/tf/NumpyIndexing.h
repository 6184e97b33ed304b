// numpy's advanced indexing on an ndarray: integer arrays of any integer dtype, lists and ranges
// (np.eye(10)[labels] with uint8 labels, negative indices) select along the first axis, a boolean
// mask over the leading dims selects its true elements (a[a > 0]), and tuple keys mix them with
// ints, slices and Ellipsis (a[np.arange(n), y], a[:, idx], a[mask, 0]) with numpy's placement of
// the broadcast index dims. All of them also assign (a[a > 0] = 0, p[range(n), y] -= 1).
// TensorObj::getItem/setItem call these first for ndarrays; None (newaxis) beside an index array
// is not supported (the basic path's error).
#pragma once

#include "lang/tf/TensorObj.h"

namespace tlens::tf {

/// self[key] for an integer-array or boolean-mask key (an ndarray, a TF tensor, a list, a range) or
/// a tuple holding one; nullptr when `key` is not one. Abstract mode types the result ([?, ...]
/// for a mask of unknown values).
interp::Value numpyArrayIndex(TensorObj& self, interp::Interpreter& in, const interp::Value& key);

/// self[key] = v for the same keys on a concrete ndarray; false when `key` is not one.
bool numpyArrayAssign(TensorObj& self, interp::Interpreter& in, const interp::Value& key, const interp::Value& v);

}  // namespace tlens::tf
