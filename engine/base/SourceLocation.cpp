#include "engine/base/SourceLocation.h"

namespace tlens {

std::string SourceLocation::str() const {
  if (!known()) return file.empty() ? "<unknown>" : file;
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

}  // namespace tlens
