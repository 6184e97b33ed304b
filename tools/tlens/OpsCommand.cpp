// tlens ops: prints the op registry, the one place each op is defined.
#include <cstdio>

#include <nlohmann/json.hpp>

#include "engine/ops/OpRegistry.h"
#include "engine/runtime/Kernel.h"
#include "tools/tlens/Commands.h"

namespace tlens::cli {

int opsCommand(const Args& args) {
  const bool json = !args.empty() && args[0] == "--json";
  nlohmann::json all = nlohmann::json::array();
  for (const OpDef* op : OpRegistry::global().all()) {
    std::string inputs;
    for (const InputDef& i : op->inputs) inputs += (inputs.empty() ? "" : ", ") + i.name + (i.variadic ? "..." : "");
    std::string attrs;
    for (const AttrDef& a : op->attrs) {
      attrs += (attrs.empty() ? "" : ", ") + a.name;
      if (!std::holds_alternative<std::monostate>(a.defaultValue)) attrs += "=" + attrToString(a.defaultValue);
    }
    const bool cpu = KernelRegistry::global().find(op->type, Device::CPU) != nullptr;
    const bool gpu = KernelRegistry::global().find(op->type, Device::GPU) != nullptr;
    if (json) {
      all.push_back({{"type", op->type}, {"api", op->api}, {"inputs", inputs}, {"attrs", attrs},
                     {"differentiable", op->differentiable}, {"stateful", op->stateful},
                     {"cpu", cpu}, {"gpu", gpu}, {"doc", op->summary}});
    } else {
      std::string api;
      for (const std::string& a : op->api) api += (api.empty() ? "" : " ") + a;
      std::printf("%-34s (%s)%s%s  %s%s%s\n    %s\n", op->type.c_str(), inputs.c_str(),
                  attrs.empty() ? "" : " ", attrs.c_str(), cpu ? "[cpu]" : "", gpu ? "[gpu]" : "",
                  op->differentiable ? (op->grad ? "[grad]" : "[grad missing]") : "",
                  (api.empty() ? op->summary : api + ": " + op->summary).c_str());
    }
  }
  if (json) std::printf("%s\n", all.dump(2).c_str());
  return 0;
}

}  // namespace tlens::cli
