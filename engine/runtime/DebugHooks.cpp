#include "engine/runtime/DebugHooks.h"

#include <sstream>

namespace tlens {

std::string NumericsReport::message() const {
  std::ostringstream os;
  std::vector<std::string> what;
  if (counts.nan) what.push_back(std::to_string(counts.nan) + " NaN");
  if (counts.posInf) what.push_back(std::to_string(counts.posInf) + " +Inf");
  if (counts.negInf) what.push_back(std::to_string(counts.negInf) + " -Inf");
  os << "Node " << node << " (" << opType << ") on " << device.str() << " produced ";
  for (size_t i = 0; i < what.size(); ++i) os << (i ? ", " : "") << what[i];
  os << " in output " << outputIndex << " (" << elements << " elements)";
  if (location.known()) os << "\n  created at " << location.str();
  for (size_t i = 0; i < inputSummaries.size(); ++i) {
    const TensorSummary& s = inputSummaries[i];
    os << "\n  input " << i << ": " << (i < inputNames.size() ? inputNames[i] : "?") << " "
       << (i < inputTypes.size() ? inputTypes[i] : "") << " " << s.line();
    if (s.zero) os << " zeros=" << s.zero;
  }
  return os.str();
}

NumericsReport makeNumericsReport(const NodeEvent& e, int index, const NonFiniteCounts& c,
                                  const std::vector<std::string>& inputNames) {
  NumericsReport r;
  r.node = e.name ? *e.name : std::string();
  r.opType = e.op ? e.op->type : std::string();
  r.outputIndex = index;
  r.device = e.device;
  r.counts = c;
  if (e.outputs && static_cast<size_t>(index) < e.outputs->size())
    r.elements = (*e.outputs)[static_cast<size_t>(index)].numElements();
  if (e.location) r.location = *e.location;
  if (e.stack) r.stack = *e.stack;
  r.inputNames = inputNames;
  if (e.inputs)
    for (const Tensor& t : *e.inputs) {
      r.inputSummaries.push_back(t.valid() ? summarize(t) : TensorSummary{});
      r.inputTypes.push_back(t.valid() ? t.typeStr() : "<ref>");
    }
  return r;
}

}  // namespace tlens
