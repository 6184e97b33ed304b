// Analyzer: one abstract run of a document through the interpreter (lang/interp, abstract mode)
// with the tensorflow/numpy modules installed (TF1 or TF2 by detectApiStyle), watching every
// evaluated expression (ValueObserver) to build a Snapshot. It never runs user code concretely:
// abstract mode has no side effects and a time budget. `tlens check` uses it too, so the CLI and
// the editor report the same diagnostics.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/runtime/Devices.h"
#include "lsp/analysis/Snapshot.h"

namespace tlens::lsp {

struct AnalysisInput {
  std::string uri;
  std::string path;  ///< file path of the document (diagnostics and related locations use it)
  std::string text;
  int version = 0;
  /// Workspace roots for absolute imports of workspace modules.
  std::vector<std::string> roots;
  /// Open documents by path: imports read these instead of the disk.
  std::shared_ptr<const std::map<std::string, std::string>> overlay;
  int timeBudgetMs = 500;
  /// Polled before every statement; when it returns true the run stops and analyze() returns
  /// null (a newer edit made this analysis stale).
  std::function<bool()> cancelled;
  /// Collect hover/completion facts (false for `tlens check`: diagnostics only).
  bool collectValues = true;
  /// The devices placement assumes (the editor machine's, or virtual GPUs: hovers then show
  /// where ops would run on a GPU machine).
  DeviceRequest devices;
};

/// Null only when cancelled. Never throws for bad user code (it becomes diagnostics).
/// With `leftovers`, the interpreter is not destroyed here but handed over (tearing down a big
/// program's graphs and objects takes a good part of an analysis): the server publishes the
/// diagnostics first and destroys it after.
std::shared_ptr<const Snapshot> analyze(const AnalysisInput& input, std::shared_ptr<void>* leftovers = nullptr);

}  // namespace tlens::lsp
