// Static/dynamic agreement: the proof that what the editor shows is what runs. A program is run
// twice, abstractly (as the language server analyses it) and concretely (as the debugger runs
// it); wherever the abstract run says a tensor's dtype and shape are fully known, every value the
// concrete run observes at that place (same source span, op and output) must have exactly that
// type. Graph tensors are observed when their node runs (through DebugHooks), eager tensors when
// their op returns.
#pragma once

#include <string>
#include <vector>

#include "engine/graph/Graph.h"

namespace tlens::tf {

struct Disagreement {
  SourceLocation where;
  std::string op;
  int outputIndex = 0;
  std::string staticType;  ///< what abstract mode said
  std::string observed;    ///< what ran
};

struct AgreementReport {
  int compared = 0;       ///< concrete observations checked against a fully known static type
  int staticKnown = 0;    ///< places where abstract mode knew the full type
  int concreteExit = 0;   ///< the concrete run's exit status
  std::string concreteErrors;  ///< its stderr
  std::vector<Disagreement> disagreements;
  std::string str() const;
};

AgreementReport checkAgreement(const std::string& path, const std::string& text,
                               const std::vector<std::string>& argv = {});

}  // namespace tlens::tf
