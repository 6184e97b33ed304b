#include "lang/tf/EmbeddedPython.h"
#include "lang/tf/NumpyRandom.h"
#include "lang/tf/TfObjects.h"

namespace tlens::tf {

std::shared_ptr<TfRuntime> installTensorFlow(interp::Interpreter& in, TfOptions options) {
  auto rt = std::make_shared<TfRuntime>(in, std::move(options));
  in.attach(rt);
  registerCoreModule(in, rt);
  registerNumpyRandomModule(in, rt);
  // "abstract-only.<name>": models of libraries of the user's Python (sklearn, pandas) for the
  // language server, which never runs CPython; concrete runs import the real ones (lang/pybridge).
  constexpr std::string_view kAbstractOnly = "abstract-only.";
  for (const EmbeddedModule& m : embeddedModules()) {
    std::string_view name = m.name;
    if (name.substr(0, kAbstractOnly.size()) == kAbstractOnly) {
      if (in.isAbstract()) in.modules().addSource(std::string(name.substr(kAbstractOnly.size())), m.source);
      continue;
    }
    in.modules().addSource(m.name, m.source);
  }
  return rt;
}

}  // namespace tlens::tf
