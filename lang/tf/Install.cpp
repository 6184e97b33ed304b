#include "lang/tf/EmbeddedPython.h"
#include "lang/tf/NumpyRandom.h"
#include "lang/tf/TfObjects.h"

namespace tlens::tf {

std::shared_ptr<TfRuntime> installTensorFlow(interp::Interpreter& in, TfOptions options) {
  auto rt = std::make_shared<TfRuntime>(in, std::move(options));
  in.attach(rt);
  registerCoreModule(in, rt);
  registerNumpyRandomModule(in, rt);
  for (const EmbeddedModule& m : embeddedModules()) in.modules().addSource(m.name, m.source);
  return rt;
}

}  // namespace tlens::tf
