// Scheduler: when each document is analysed, and on which thread (clangd's TUScheduler, small).
//
// Threading model. One worker thread analyses documents (the machine this runs on is small and
// one abstract run takes milliseconds to tens of milliseconds); the caller's thread (the
// protocol reader) only records edits and queues reads.
//  - update() records the newest text of a document. An update that finds the document's
//    previous text analysed is analysed at once; one that arrives while the previous text still
//    waits or is being analysed (edits come faster than analyses: typing) waits `debounceMs`
//    for the next one, so a burst of edits is analysed once, on the latest text.
//  - An analysis in progress polls its generation before every statement: a newer update()
//    cancels it (InterpCancelled), so stale work stops within one statement.
//  - read() runs an action on the snapshot of the document's latest text: immediately (on the
//    caller's thread) when that snapshot exists, otherwise on the worker right after the
//    analysis that produces it. Readers never see a snapshot older than the text they asked
//    about, so positions always match.
//  - Tearing down a big program's objects takes a good part of an analysis, so nobody waits for
//    it: the background thread frees the interpreter after the diagnostics are published, and
//    the stale snapshot while the next analysis runs (a Machine may be destroyed on any thread:
//    it re-reads the stack bounds, and generators' coroutines have stacks of their own). It
//    runs at a lower priority (nice 10), so the analysis the user waits for gets the cores.
//  - With threads == 0 everything is synchronous on the caller's thread (tests): update()
//    analyses before returning and read() always runs immediately.
// Documents that import an updated document are analysed again too (their overlay changed).
//
// Edits continue paused analyses (Analyzer.h): after analysing an edit, the background thread
// (the pauser, once it has freed what is waiting) runs the top-level statements before the edited
// line of the new text and keeps the interpreter; the next edit at or after that place continues it, so only the statements from
// the edit on run again. An analysis waits for a pauser still running when its result will fit
// (it has a head start on a run from the beginning); a newer pauser job cancels an older one.
// Texts are re-parsed incrementally from the document's previous tree.
//
// Background analyses: workspace files that are not open are analysed from disk, one at a time,
// only while no open document waits for an analysis (any edit cancels a background analysis in
// progress, which is queued again). Their diagnostics are published without a version. Each batch
// has a time budget (`backgroundBudgetMs`); files past it are skipped and the batch says so.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "lsp/analysis/Analyzer.h"
#include "lsp/server/Expected.h"

namespace tlens::lsp {

struct SchedulerOptions {
  int threads = 1;  ///< 0: synchronous
  int debounceMs = 30;
  int timeBudgetMs = 10000;  ///< the analyses' wall-clock safety limit; work (steps) bounds them (AnalysisInput)
  /// The devices placement assumes (virtualGpus >= 0: that many virtual GPUs).
  DeviceRequest devices;
  std::vector<std::string> roots;
  int backgroundBudgetMs = 60000;    ///< per batch of background analyses
  size_t maxBackgroundBytes = 1 << 20;  ///< larger unopened files are not analysed
};

/// Where a batch of background analyses stands (work-done progress).
struct BackgroundProgress {
  int done = 0, total = 0;
  bool finished = false;
  std::string message;  ///< "3/12 files: model.py"
};

class Scheduler {
 public:
  using SnapshotPtr = std::shared_ptr<const Snapshot>;
  using Action = std::function<void(Expected<SnapshotPtr>)>;
  /// `onAnalyzed` runs on the worker (or the caller, when synchronous) once per fresh analysis,
  /// with its diagnostics: as soon as the run ends, before the values are rendered (the snapshot
  /// is valid during the call only; see analyze()'s `early`).
  Scheduler(SchedulerOptions o, std::function<void(const Snapshot&)> onAnalyzed);
  ~Scheduler();

  void update(const std::string& uri, const std::string& path, std::string text, int version);
  void remove(const std::string& uri);
  void read(const std::string& uri, Action action);
  void setRoots(std::vector<std::string> roots);
  /// New analysis settings (the client's configuration): every open document is analysed again
  /// with them (an analysis in progress is cancelled); later background analyses use them too.
  void reconfigure(int timeBudgetMs, DeviceRequest devices);
  /// Queues unopened files (paths) for analysis from disk, after every open document. With
  /// `report`, the batch reports its progress to the listener.
  void analyzeInBackground(const std::vector<std::string>& paths, bool report);
  /// Queues the unopened files that (textually) import `path`, as last seen on disk.
  void reanalyzeImporters(const std::string& path);
  void setBackgroundListener(std::function<void(const BackgroundProgress&)> l);
  /// Prepares what every analysis of a TF program needs once per process (the embedded
  /// tensorflow and numpy modules, parsed), on the background thread: the first document opened
  /// after `initialize` need not wait for it.
  void warmUp();
  /// The open documents' texts by path (cross-file features).
  std::shared_ptr<const std::map<std::string, std::shared_ptr<const std::string>>> openTexts() const;
  /// Whether a document with this file path is open.
  bool isOpenPath(const std::string& path) const;
  /// The latest text of an open document (for edits), or null.
  std::shared_ptr<const std::string> text(const std::string& uri) const;

 private:
  struct Doc {
    std::string path;
    std::shared_ptr<const std::string> text;
    int version = 0;
    std::shared_ptr<std::atomic<uint64_t>> gen = std::make_shared<std::atomic<uint64_t>>(0);
    bool dirty = false;
    bool analyzing = false;  ///< the worker is analysing a text of this document
    std::chrono::steady_clock::time_point due;
    SnapshotPtr snap;
    uint64_t snapGen = 0;
    std::vector<Action> waiters;
    /// The syntax tree of the last analysed text (the next text is re-parsed from it).
    std::shared_ptr<const lang::SourceFile> lastFile;
    /// A paused analysis of an earlier text, ready to continue (see above).
    std::shared_ptr<PausedAnalysis> paused;
    /// The pauser job for this document, while one is queued or running: its id, text and the
    /// start of the line it pauses before.
    uint64_t pauseJob = 0;
    std::shared_ptr<const std::string> pauseText;
    uint32_t pauseLine = 0;
  };
  struct PauseJob {
    uint64_t id = 0;
    std::string uri;
    AnalysisInput input;
    uint32_t editAt = 0;
  };
  void markDirty(Doc& d, std::chrono::steady_clock::time_point due);
  AnalysisInput inputFor(const std::string& uri, const Doc& d) const;
  void analyzeNow(const std::string& uri);  // synchronous mode
  void loop();
  /// Before analysing `d` (lock held): the previous tree for `in`, and the paused analysis to
  /// continue (waiting for a pauser job that will fit); queues the pauser job for the new text.
  /// Null when `d` was removed or edited again while waiting (`uri` is looked up again).
  /// When the document's snapshot serves the new text as it is (a run that stopped at the work
  /// budget before the edit: analyze()'s `base`), sets `base` to it instead, waits for nothing and
  /// queues no pauser job.
  std::shared_ptr<PausedAnalysis> prepareLocked(std::unique_lock<std::mutex>& l, const std::string& uri,
                                                AnalysisInput& in, uint64_t gen, bool& stale,
                                                std::shared_ptr<const Snapshot>& base);
  /// Frees the last item of reap_ without the lock (held on entry and on return); `byWorker`
  /// for the trace: 1 when the worker frees it while it waits for a pause.
  void reapOneLocked(std::unique_lock<std::mutex>& l, int byWorker);
  /// The background thread: frees garbage, then runs pauser jobs.
  void backgroundLoop();
  /// Runs a pauser job and stores its result (synchronous mode: right after the analysis).
  void runPauseJob(PauseJob job, std::unique_lock<std::mutex>& l);
  bool openPathLocked(const std::string& path) const;
  void queueImportersLocked(const std::string& path, const std::string& except);
  /// Runs the first queued background file; `l` is held on entry and on return.
  void runBackground(std::unique_lock<std::mutex>& l);
  void emitProgressLocked(std::vector<BackgroundProgress>& out, bool finished);
  /// Hands `garbage` to the background thread (or, when synchronous, lets it die at the caller).
  void dispose(std::shared_ptr<const void> garbage);
  void disposeLocked(std::shared_ptr<const void> garbage);  ///< mu_ held

  SchedulerOptions opts_;
  std::function<void(const Snapshot&)> onAnalyzed_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, Doc> docs_;
  uint64_t counter_ = 0;
  bool stopping_ = false;
  std::thread worker_;
  // Background analyses of unopened files.
  std::deque<std::string> bg_;
  std::set<std::string> bgQueued_;
  std::map<std::string, std::string> bgImports_;  ///< path -> its import lines, as last analysed
  std::atomic<uint64_t> fgCounter_{0};  ///< bumped by every edit: cancels a background analysis
  int bgDone_ = 0, bgTotal_ = 0;
  bool bgReport_ = false;
  std::chrono::steady_clock::time_point bgStart_;
  std::function<void(const BackgroundProgress&)> bgListener_;
  std::map<std::string, PauseJob> pauseJobs_;  ///< queued, by document
  std::string runningPauseUri_;                ///< the document of the job running now
  std::atomic<bool> pauseCancel_{false};        ///< stops the running job (superseded, closed)
  std::atomic<uint32_t> pauseProgress_{0};      ///< where the running job is (a statement's start byte)
  uint64_t pauseCounter_ = 0;
  std::vector<std::shared_ptr<const void>> reap_;  ///< garbage for the background thread
  bool backgroundStop_ = false;
  bool warmUpPending_ = false;
  std::thread background_;
};

}  // namespace tlens::lsp
