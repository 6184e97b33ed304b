#include "engine/core/Device.h"

#include <algorithm>
#include <cctype>

namespace tlens {

std::optional<Device> Device::parse(std::string_view spec) {
  std::string s(spec);
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  // Keep the last path component ("device:gpu:0" or "gpu:0").
  if (size_t slash = s.rfind('/'); slash != std::string::npos) s = s.substr(slash + 1);
  if (s.rfind("device:", 0) == 0) s = s.substr(7);
  Device d;
  std::string kind = s.substr(0, s.find(':'));
  if (kind == "cpu") d.kind = CPU;
  else if (kind == "gpu") d.kind = GPU;
  else return std::nullopt;
  if (size_t colon = s.find(':'); colon != std::string::npos) {
    std::string idx = s.substr(colon + 1);
    if (idx.empty() || !std::all_of(idx.begin(), idx.end(), ::isdigit) || idx.size() > 6)
      return std::nullopt;
    d.index = std::stoi(idx);
  }
  return d;
}

std::string Device::str() const {
  return std::string(kind == CPU ? "/cpu:" : "/gpu:") + std::to_string(index);
}

std::string Device::fullName() const {
  return std::string("/job:localhost/replica:0/task:0/device:") + (kind == CPU ? "CPU:" : "GPU:") +
         std::to_string(index);
}

}  // namespace tlens
