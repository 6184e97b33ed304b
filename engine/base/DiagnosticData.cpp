#include "engine/base/DiagnosticData.h"

namespace tlens {

std::string DimInfo::str() const {
  if (known()) return std::to_string(size);
  return symbol.empty() ? "?" : symbol;
}

std::string ShapeInfo::str() const {
  if (!rankKnown) return "<unknown>";
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ",";
    s += dims[i].str();
  }
  return s + "]";
}

int64_t ShapeInfo::knownElements() const {
  int64_t n = 1;
  for (const DimInfo& d : dims)
    if (d.known()) n *= d.size;
  return n;
}

bool ShapeInfo::fullyKnown() const {
  if (!rankKnown) return false;
  for (const DimInfo& d : dims)
    if (!d.known()) return false;
  return true;
}

const ShapeInfo* DiagnosticData::shape(const std::string& role) const {
  for (const NamedShape& s : shapes)
    if (s.role == role) return &s.shape;
  return nullptr;
}

}  // namespace tlens
