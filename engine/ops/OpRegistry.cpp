#include "engine/ops/OpRegistry.h"

#include <cstdio>
#include <cstdlib>

#include "engine/core/Error.h"

namespace tlens {

const OpRegistry& OpRegistry::global() {
  static const OpRegistry* r = [] {
    auto* reg = new OpRegistry();
    registerBuiltinOps(*reg);
    return reg;
  }();
  return *r;
}

OpDef& OpRegistry::add(OpDef def) {
  if (byType_.count(def.type)) {
    std::fprintf(stderr, "tensorlens: op %s registered twice\n", def.type.c_str());
    std::abort();
  }
  ops_.push_back(std::make_unique<OpDef>(std::move(def)));
  OpDef* d = ops_.back().get();
  byType_[d->type] = d;
  for (const std::string& a : d->api) byApi_.emplace(a, d);
  return *d;
}

const OpDef* OpRegistry::find(std::string_view type) const {
  auto it = byType_.find(std::string(type));
  return it == byType_.end() ? nullptr : it->second;
}

const OpDef* OpRegistry::findByApi(std::string_view apiName) const {
  auto it = byApi_.find(std::string(apiName));
  if (it != byApi_.end()) return it->second;
  // tf.raw_ops.<Type> is every op, by its type (tensorflow.py derives the module the same way).
  constexpr std::string_view kRawOps = "tf.raw_ops.";
  if (apiName.substr(0, kRawOps.size()) == kRawOps) return find(apiName.substr(kRawOps.size()));
  return nullptr;
}

const OpDef& OpRegistry::get(std::string_view type) const {
  const OpDef* d = find(type);
  if (!d) throwError(ErrorCode::NotFound, "Op type not registered '" + std::string(type) + "'");
  return *d;
}

std::vector<const OpDef*> OpRegistry::all() const {
  std::vector<const OpDef*> v;
  for (const auto& d : ops_) v.push_back(d.get());
  return v;
}

OpBuilder::~OpBuilder() noexcept(false) { reg_.add(std::move(def_)); }

}  // namespace tlens
