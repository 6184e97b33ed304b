#include "lang/interp/Module.h"

#include "lang/interp/Objects.h"

namespace tlens::interp {

ModuleObj::ModuleObj(std::string n) : Object(kKind), name(std::move(n)), globals(std::make_shared<Env>()) {
  globals->vars.set("__name__", makeStr(name));
}

std::shared_ptr<ModuleObj> makeModule(std::string name) {
  auto m = std::make_shared<ModuleObj>(std::move(name));
  track(m);
  track(m->globals);
  return m;
}

void ModuleRegistry::add(std::string name, Factory factory) { factories_[std::move(name)] = std::move(factory); }

void ModuleRegistry::addSource(std::string name, std::string source) { sources_[std::move(name)] = std::move(source); }

bool ModuleRegistry::contains(std::string_view name) const {
  return factories_.find(name) != factories_.end() || sources_.find(name) != sources_.end();
}

const ModuleRegistry::Factory* ModuleRegistry::factory(std::string_view name) const {
  auto it = factories_.find(name);
  return it == factories_.end() ? nullptr : &it->second;
}

const std::string* ModuleRegistry::source(std::string_view name) const {
  auto it = sources_.find(name);
  return it == sources_.end() ? nullptr : &it->second;
}

std::vector<std::string> ModuleRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& [k, v] : factories_) out.push_back(k);
  for (const auto& [k, v] : sources_)
    if (!factories_.count(k)) out.push_back(k);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace tlens::interp
