// The example programs (examples/*.py), sorted by name, for the tests that run over every one of
// them. Test targets that include this define TLENS_SOURCE_DIR.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace tlens::test {

inline std::vector<std::filesystem::path> examplePaths() {
  std::vector<std::filesystem::path> out;
  for (auto& e : std::filesystem::directory_iterator(std::string(TLENS_SOURCE_DIR) + "/examples"))
    if (e.path().extension() == ".py") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

inline std::string readFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace tlens::test
