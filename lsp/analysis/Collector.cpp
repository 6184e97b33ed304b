#include "lsp/analysis/Collector.h"

#include <algorithm>

#include "lang/interp/SourceNames.h"
#include "lang/tf/TensorObj.h"

namespace tlens::lsp {

namespace {

/// The docstring object of a user function (null when none).
interp::Value docObject(const interp::Value& v) {
  if (auto* f = interp::as<interp::FunctionObj>(v)) return f->attrs.get("__doc__");
  return nullptr;
}

/// A default whose rendering cannot change while it lives: immutable values, tuples of them,
/// and kinds that are never shown (Render.cpp's simpleValue() is false for them whatever they
/// hold). Lists (and tuples holding them) can change length or items.
bool fixedDefault(const interp::Value& v, int depth = 0) {
  if (!v) return true;
  switch (v->kind()) {
    case interp::Kind::List: return false;
    case interp::Kind::Tuple:
      if (depth > 2) return false;
      for (const interp::Value& i : static_cast<interp::TupleObj*>(v.get())->items)
        if (!fixedDefault(i, depth + 1)) return false;
      return true;
    default: return true;
  }
}

/// Sets a flag for its lifetime: observations made while rendering (Python calls) are ignored.
struct Rendering {
  bool& flag;
  explicit Rendering(bool& f) : flag(f) { flag = true; }
  ~Rendering() { flag = false; }
};

}  // namespace

const ValueInfo* Collector::remembered(const interp::Value& v) const {
  interp::Kind k = v->kind();
  if (k != interp::Kind::Function && k != interp::Kind::NativeFunction && k != interp::Kind::Module) return nullptr;
  auto it = memo_.find(v.get());
  if (it == memo_.end() || it->second.object.expired()) return nullptr;
  if (k == interp::Kind::Function) {
    // The same doc object (alive, so its address is not another's), or none then and now.
    interp::Value doc = docObject(v);
    if (doc ? !it->second.hadDoc || doc != it->second.doc.lock() : it->second.hadDoc) return nullptr;
  }
  return &it->second.info;
}

void Collector::remember(const interp::Value& v, const ValueInfo& info) {
  interp::Kind k = v->kind();
  if (k == interp::Kind::Function) {
    for (const interp::Param& p : static_cast<interp::FunctionObj*>(v.get())->sig.params)
      if (!fixedDefault(p.defaultValue)) return;
  } else if (k != interp::Kind::NativeFunction && k != interp::Kind::Module) {
    return;
  }
  Memo& m = memo_[v.get()];
  m.object = v;
  interp::Value doc = docObject(v);
  m.doc = doc;
  m.hadDoc = doc != nullptr;
  m.info = info;
}

bool Collector::renderLater(const interp::Value& v) {
  switch (v->kind()) {
    case interp::Kind::None:
    case interp::Kind::Bool:
    case interp::Kind::Int:
    case interp::Kind::Float:
    case interp::Kind::Str:
    case interp::Kind::Unknown:
      return true;
    case interp::Kind::Native:
      // Tensors change only through set_shape, which calls beforeChange() first; dtypes never.
      return dynamic_cast<const tf::TensorObj*>(v.get()) || dynamic_cast<const tf::DTypeObj*>(v.get());
    default:
      return false;  // lists, dicts, objects, classes: their contents can change
  }
}

ValueInfo Collector::renderNow(const interp::Value& v) {
  if (const ValueInfo* known = remembered(v)) return *known;
  ValueInfo info = pool_->add(renderValue(in_, v, cache_));
  remember(v, info);
  return info;
}

void Collector::onValue(const lang::SourceFile& file, TSNode expr, const interp::Value& v) {
  if (rendering_) {
    // A rendering's Python ran the user's code (a property of a user's layer): the rows it gave
    // may depend on more than the model (RenderCache::summaries).
    if (!interp::isLibraryPath(file.path())) ++cache_.userCodeSeen;
    return;
  }
  if (!v) return;
  if (std::find(files_.begin(), files_.end(), &file) == files_.end()) return;
  uint32_t s = ts_node_start_byte(expr), e = ts_node_end_byte(expr);
  if (pending_.empty()) pending_.reserve(std::min<size_t>(textSize_ / 4, size_t{1} << 16));
  if (renderLater(v)) {
    pending_.push_back({s, e, v, 0});
    return;
  }
  Rendering guard(rendering_);
  // Rendered before it is listed: rendering may call Python and stop there (the work budget), and
  // an observation must not name a rendering that never came.
  ValueInfo info = renderNow(v);
  pending_.push_back({s, e, nullptr, static_cast<uint32_t>(eager_.size())});
  eager_.push_back(std::move(info));
}

void Collector::beforeChange(const interp::Value&) {
  // Rare (set_shape): everything seen so far is rendered as it is now, and no model's summary
  // rows are reused past it (a tensor's shape is not in the traces of Render.cpp).
  render();
  cache_.summaries.clear();
}

bool Collector::render(const std::function<bool()>& stop) {
  if (rendering_) return true;
  Rendering guard(rendering_);
  for (size_t i = 0; i < pending_.size(); ++i) {
    if ((i & 255) == 0 && stop && stop()) return false;
    const Observation& o = pending_[i];
    if (i + 1 < pending_.size() && pending_[i + 1].start < firstAt_.size())
      __builtin_prefetch(&firstAt_[pending_[i + 1].start]);  // the next span's slot: a cache miss
    record(o.start, o.end, o.value ? renderNow(o.value) : eager_[o.eager]);
  }
  pending_.clear();
  pending_.shrink_to_fit();
  eager_.clear();
  eager_.shrink_to_fit();
  return true;
}

void Collector::record(uint32_t s, uint32_t e, const ValueInfo& rendered) {
  if (s >= firstAt_.size()) {
    firstAt_.resize(std::max<size_t>({s + 1, textSize_ + 1, firstAt_.size() * 2}), 0);
    // About one distinct span per 5 bytes of a TF file: grow once or twice, not a dozen times
    // (capped: a huge file grows by doubling rather than reserving gigabytes up front).
    if (values_.empty()) values_.reserve(std::min<size_t>(textSize_ / 4, size_t{1} << 16));
  }
  ValueInfo info = rendered;
  info.start = s;
  info.end = e;
  for (uint32_t i = firstAt_[s]; i; i = next_[i - 1])
    if (ends_[i - 1] == e) {
      merge(values_[i - 1], info);
      return;
    }
  values_.push_back(info);  // no types() while only type() was seen
  next_.push_back(firstAt_[s]);
  ends_.push_back(e);
  firstAt_[s] = static_cast<uint32_t>(values_.size());
}

void Collector::merge(ValueInfo& old, const ValueInfo& info) {
  // Pooled strings are equal exactly when their pointers are: comparing types costs nothing, and
  // a list of types is only made (rarely) when a second one shows up.
  const std::vector<std::string>& seen = old.types();
  std::vector<std::string> types;
  if (seen.empty() ? info.type() != old.type()
                   : seen.size() < 8 && std::find(seen.begin(), seen.end(), info.type()) == seen.end()) {
    types = seen.empty() ? std::vector<std::string>{std::string(old.type())} : seen;
    types.emplace_back(info.type());
  } else {
    types = seen;
  }
  // An Unknown seen later (the second run of a loop body) does not hide what was known.
  if (info.kind == ValueInfo::Kind::Unknown && old.kind != ValueInfo::Kind::Unknown) {
    pool_->setTypes(old, std::move(types));
    return;
  }
  old = info;
  if (!types.empty()) pool_->setTypes(old, std::move(types));
}

std::optional<ValueInfo> Collector::valueOf(uint32_t start, uint32_t end) {
  std::optional<ValueInfo> out;
  if (start < firstAt_.size())
    for (uint32_t i = firstAt_[start]; i; i = next_[i - 1])
      if (ends_[i - 1] == end) out = values_[i - 1];
  for (const Observation& o : pending_) {
    if (o.start != start || o.end != end) continue;
    ValueInfo info = o.value ? renderNow(o.value) : eager_[o.eager];
    info.start = start;
    info.end = end;
    if (out) merge(*out, info);
    else out = info;
  }
  return out;
}

std::vector<ValueInfo> Collector::take() {
  render();
  // The order: by start (the index is by start already), then by descending end within a start.
  std::vector<uint32_t> order;
  order.reserve(values_.size());
  for (uint32_t head : firstAt_) {
    if (!head) continue;
    size_t from = order.size();
    for (uint32_t i = head; i; i = next_[i - 1]) order.push_back(i - 1);
    if (order.size() - from > 1)
      std::sort(order.begin() + static_cast<std::ptrdiff_t>(from), order.end(),
                [&](uint32_t a, uint32_t b) { return ends_[a] > ends_[b]; });
  }
  // Applied in place, one cycle of the permutation at a time: each value moves once (a sort
  // would swap the records N log N times) and no second copy is made.
  std::vector<bool> placed(values_.size());
  for (size_t p = 0; p < order.size(); ++p) {
    if (placed[p] || order[p] == p) continue;
    ValueInfo held = std::move(values_[p]);
    size_t at = p;
    while (order[at] != p) {
      if (order[order[at]] != p) __builtin_prefetch(&values_[order[order[at]]]);  // the next source
      values_[at] = std::move(values_[order[at]]);
      placed[at] = true;
      at = order[at];
    }
    values_[at] = std::move(held);
    placed[at] = true;
  }
  firstAt_.clear();
  next_.clear();
  ends_.clear();
  // The snapshot keeps these: no room reserved for observations that never came.
  values_.shrink_to_fit();
  return std::move(values_);
}

}  // namespace tlens::lsp
