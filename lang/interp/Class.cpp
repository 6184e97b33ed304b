#include "lang/interp/Class.h"

namespace tlens::interp {

Value ClassObj::lookup(std::string_view n) const {
  for (const auto& c : mro)
    if (const Value* v = c->dict.find(n)) return *v;
  if (mro.empty())
    if (const Value* v = dict.find(n)) return *v;
  return nullptr;
}

ClassObj* ClassObj::definer(std::string_view n) const {
  for (const auto& c : mro)
    if (c->dict.contains(n)) return c.get();
  return nullptr;
}

bool ClassObj::isSubclassOf(const ClassObj* other) const {
  if (this == other) return true;
  for (const auto& c : mro)
    if (c.get() == other) return true;
  return false;
}

bool ClassObj::computeMro() {
  // C3 linearisation: merge the bases' MROs and the list of bases, always taking the first head
  // that appears in no other list's tail.
  std::vector<std::vector<std::shared_ptr<ClassObj>>> seqs;
  for (const auto& b : bases) seqs.push_back(b->mro);
  seqs.push_back(bases);
  std::vector<std::shared_ptr<ClassObj>> out{std::static_pointer_cast<ClassObj>(shared_from_this())};
  for (;;) {
    std::erase_if(seqs, [](const auto& s) { return s.empty(); });
    if (seqs.empty()) break;
    std::shared_ptr<ClassObj> pick;
    for (const auto& s : seqs) {
      const auto& head = s.front();
      bool inTail = false;
      for (const auto& t : seqs)
        for (size_t i = 1; i < t.size() && !inTail; ++i)
          if (t[i] == head) inTail = true;
      if (!inTail) {
        pick = head;
        break;
      }
    }
    if (!pick) return false;
    out.push_back(pick);
    for (auto& s : seqs)
      if (!s.empty() && s.front() == pick) s.erase(s.begin());
  }
  mro = std::move(out);
  isException = false;
  for (const auto& c : mro)
    if (c->isException) isException = true;
  return true;
}

void ClassObj::clearReferences() {
  dict.clear();
  bases.clear();
  mro.clear();
  construct = nullptr;
}

std::shared_ptr<ClassObj> makeClass(std::string name, std::vector<std::shared_ptr<ClassObj>> bases, std::string module) {
  auto c = std::make_shared<ClassObj>();
  c->name = name;
  c->qualname = std::move(name);
  c->module = std::move(module);
  c->bases = std::move(bases);
  for (const auto& b : c->bases)
    if (b->isException) c->isException = true;
  if (!c->computeMro()) {
    c->mro = {c};
    for (const auto& b : c->bases)
      for (const auto& x : b->mro) c->mro.push_back(x);
  }
  track(c);
  return c;
}

}  // namespace tlens::interp
