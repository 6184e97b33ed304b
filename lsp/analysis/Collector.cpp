#include "lsp/analysis/Collector.h"

#include <algorithm>

namespace tlens::lsp {

void Collector::onValue(const lang::SourceFile& file, TSNode expr, const interp::Value& v) {
  if (rendering_ || !v) return;
  if (std::find(files_.begin(), files_.end(), &file) == files_.end()) return;
  rendering_ = true;
  struct Reset {
    bool& b;
    ~Reset() { b = false; }
  } reset{rendering_};
  uint32_t s = ts_node_start_byte(expr), e = ts_node_end_byte(expr);
  uint64_t key = (static_cast<uint64_t>(s) << 32) | e;
  auto [it, fresh] = index_.try_emplace(key, values_.size());
  ValueInfo info = renderValue(in_, v, cache_);
  info.start = s;
  info.end = e;
  if (fresh) {
    values_.push_back(std::move(info));  // `types` stays empty while only `type` was seen
    return;
  }
  ValueInfo& old = values_[it->second];
  std::vector<std::string> types = std::move(old.types);
  if (types.empty() && info.type != old.type) types.push_back(old.type);
  if (!types.empty() && types.size() < 8 && std::find(types.begin(), types.end(), info.type) == types.end())
    types.push_back(info.type);
  // An Unknown seen later (the second run of a loop body) does not hide what was known.
  if (info.kind == ValueInfo::Kind::Unknown && old.kind != ValueInfo::Kind::Unknown) {
    old.types = std::move(types);
    return;
  }
  old = std::move(info);
  old.types = std::move(types);
}

std::vector<ValueInfo> Collector::take() {
  std::sort(values_.begin(), values_.end(), [](const ValueInfo& a, const ValueInfo& b) {
    return a.start != b.start ? a.start < b.start : a.end > b.end;
  });
  index_.clear();
  return std::move(values_);
}

}  // namespace tlens::lsp
