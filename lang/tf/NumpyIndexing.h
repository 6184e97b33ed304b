// numpy's advanced indexing with one array key on an ndarray: integer arrays of any integer dtype
// (np.eye(10)[labels] with uint8 labels, negative indices) select along the first axis, and a
// boolean mask over the leading dims selects its true elements (a[a > 0]); both also assign
// (a[a > 0] = 0, a[[0, 2]] = 7). TensorObj::getItem/setItem call these first for ndarrays.
#pragma once

#include "lang/tf/TensorObj.h"

namespace tlens::tf {

/// self[key] for an integer-array or boolean-mask key (an ndarray, a TF tensor or a list); nullptr
/// when `key` is not one. Abstract mode types the result ([?, ...] for a mask of unknown values).
interp::Value numpyArrayIndex(TensorObj& self, interp::Interpreter& in, const interp::Value& key);

/// self[key] = v for the same keys on a concrete ndarray; false when `key` is not one.
bool numpyArrayAssign(TensorObj& self, interp::Interpreter& in, const interp::Value& key, const interp::Value& v);

}  // namespace tlens::tf
