// Analyzer: one abstract run of a document through the interpreter (lang/interp, abstract mode)
// with the tensorflow/numpy modules installed (TF1 or TF2 by detectApiStyle), watching every
// evaluated expression (ValueObserver) to build a Snapshot. It never runs user code concretely:
// abstract mode has no side effects and a work budget (interpreter steps, so the result does not
// depend on the machine's load). `tlens check` uses it too, so the CLI and
// the editor report the same diagnostics.
//
// Edits: people edit one place of a file many times in a row. analyzePrefix() runs the top-level
// statements before the place of the last edit and keeps the interpreter (a PausedAnalysis);
// analyze() of the next version continues it when that version starts with the same statements
// (Interpreter::resume), so only the statements from the edit on run again. The result is the
// one a full run gives (tests/lsp/ResumeTests.cpp).
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/DeviceSet.h"
#include "lang/interp/InterpOptions.h"
#include "lsp/analysis/Snapshot.h"

namespace tlens::lsp {

struct AnalysisInput {
  std::string uri;
  std::string path;  ///< file path of the document (diagnostics and related locations use it)
  std::string text;
  int version = 0;
  /// `text` parsed already (the scheduler shares one parse between an analysis and the pauser),
  /// or null.
  std::shared_ptr<const lang::SourceFile> file;
  /// Otherwise an earlier version of the document, when there is one: the text is re-parsed
  /// incrementally from its tree.
  std::shared_ptr<const lang::SourceFile> previous;
  /// Workspace roots for absolute imports of workspace modules.
  std::vector<std::string> roots;
  /// Open documents by path: imports read these instead of the disk.
  std::shared_ptr<const std::map<std::string, std::string>> overlay;
  /// The work budget in interpreter steps (InterpOptions::workBudget): what bounds an analysis,
  /// the same in the editor and in `tlens check`, idle or loaded.
  uint64_t workBudget = interp::InterpOptions::kDefaultWorkBudget;
  /// The wall-clock safety limit (InterpOptions::timeBudgetMs), far above the work budget's time.
  int timeBudgetMs = interp::InterpOptions::kDefaultTimeLimitMs;
  /// Polled before every statement; when it returns true the run stops and analyze() returns
  /// null (a newer edit made this analysis stale).
  std::function<bool()> cancelled;
  /// Polled instead of `cancelled` while the values of a run that stopped at the work budget are
  /// rendered, with the end byte of the statement it stopped in; true stops the rendering (null:
  /// `cancelled` is polled). The next edit, when it is after that statement, takes this snapshot
  /// as it is (analyze()'s `base`): the scheduler lets the rendering finish for such an edit.
  std::function<bool(uint32_t stopEnd)> cancelledStopped;
  /// When set, the start byte of each top-level statement is stored as it starts (the scheduler
  /// reads how far a pauser is).
  std::atomic<uint32_t>* progress = nullptr;
  /// A first analysis of a big text (>= 64 KB, nothing to continue) parses the rest of the text
  /// on a second thread while the first third already runs (same result either way).
  bool pipeline = true;
  /// Collect hover/completion facts (false for `tlens check`: diagnostics only).
  bool collectValues = true;
  /// The devices placement assumes (the editor machine's, or virtual GPUs: hovers then show
  /// where ops would run on a GPU machine).
  DeviceRequest devices;
};

/// An analysis stopped before a top-level statement, waiting for the next version of its document
/// (analyzePrefix). Used at most once: analyze() takes its interpreter.
struct PausedAnalysis;

/// Null only when cancelled. Never throws for bad user code (it becomes diagnostics).
/// With `leftovers`, the interpreter is not destroyed here but handed over (tearing down a big
/// program's graphs and objects takes a good part of an analysis): the server publishes the
/// diagnostics first and destroys it after.
/// With `paused` (from analyzePrefix on an earlier version), the run continues it when it fits:
/// same settings, same imports' texts, and `input.text` starts with the same top-level
/// statements at the same bytes; otherwise (or when it is still being built elsewhere: the caller
/// owns it exclusively) the run starts from the beginning.
/// With `early`, the diagnostics are handed to it as soon as the run ends, before the values are
/// rendered (most of what follows the run): a snapshot with everything but `values` and
/// `globals`, valid during the call only (the lints' few values are rendered on demand). What
/// it says is what the returned snapshot says. Rendering stops when `input.cancelled` turns true
/// (then null is returned, after `early` was called).
/// With `base` (the snapshot of an earlier version of the document, analysed with the same
/// settings), when that run stopped at the work budget and the text changed only after the
/// statement it stopped in (later statements binding the same names, no syntax error), nothing
/// runs: the snapshot is `base`'s for the new text, which is what a run would give (it would
/// stop at the same step; nothing after the stop runs). The values of a run that stops at the
/// work budget are rendered until `input.cancelledStopped` says otherwise.
using EarlyDiagnostics = std::function<void(const Snapshot&)>;
std::shared_ptr<const Snapshot> analyze(const AnalysisInput& input, std::shared_ptr<void>* leftovers = nullptr,
                                        std::shared_ptr<PausedAnalysis> paused = nullptr,
                                        const EarlyDiagnostics& early = nullptr, const Snapshot* base = nullptr);

/// Whether analyze() of `input` with `base` would take `base`'s snapshot without running
/// (the scheduler then waits for no paused run). `input.file` should be parsed already.
bool reusesStopped(const AnalysisInput& input, const Snapshot& base);

/// Runs the top-level statements of `input.text` that end before the line holding byte `editAt`,
/// less the last of them (an edit can change how the statement before it parses: `else:` after an
/// `if`), and keeps the interpreter for analyze(). Null when cancelled, when no statement would
/// run, when the prefix raised SystemExit or hit the clock's time limit (one stopped by the work budget
/// continues: it stops where a full run stops).
std::shared_ptr<PausedAnalysis> analyzePrefix(const AnalysisInput& input, uint32_t editAt);


}  // namespace tlens::lsp
