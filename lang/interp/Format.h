// Format: Python's text formatting of values (Format.cpp): float repr, format specs, `%` and
// str.format, and the repr of a str.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "lang/interp/Function.h"

namespace tlens::interp {

class ObjectProtocol;

/// Python float repr ("0.1", "1e-05", "inf").
std::string formatFloat(double d);
/// format(v, spec) for ints, floats, strings.
std::string applyFormatSpec(ObjectProtocol& m, const Value& v, std::string_view spec);
/// "fmt" % args
std::string percentFormat(ObjectProtocol& m, std::string_view fmt, const Value& args);
/// "fmt".format(*args, **kwargs)
std::string strFormat(ObjectProtocol& m, std::string_view fmt, const std::vector<Value>& args, const KwArgs& kwargs);
/// repr of a str.
std::string reprString(std::string_view s);

}  // namespace tlens::interp
