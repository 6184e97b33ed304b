// Path arguments (PEP 519): what open(), os, os.path, glob and shutil accept as a file name: a
// str, bytes, or an os.PathLike object (one with `__fspath__`, such as a pathlib.Path).
#pragma once

#include <string>

#include "lang/interp/Function.h"

namespace tlens::interp {

/// os.fspath(v): a str or bytes as is, else the result of `v.__fspath__()` (which must be str or
/// bytes); TypeError "expected str, bytes or os.PathLike object, not X" otherwise. Unknown
/// throws NeedsKnownValue, as CallContext's readers do.
Value fsPathValue(CallContext& c, const Value& v);
/// fsPathValue() as text (bytes decoded as UTF-8).
std::string pathArg(CallContext& c, const Value& v);

}  // namespace tlens::interp
