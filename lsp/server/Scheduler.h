// Scheduler: when each document is analysed, and on which thread (clangd's TUScheduler, small).
//
// Threading model. One worker thread analyses documents (the machine this runs on is small and
// one abstract run takes milliseconds to tens of milliseconds); the caller's thread (the
// protocol reader) only records edits and queues reads.
//  - update() records the newest text of a document and (re)starts its debounce timer; edits
//    that arrive within `debounceMs` of each other are analysed once, on the latest text.
//  - An analysis in progress polls its generation before every statement: a newer update()
//    cancels it (InterpCancelled), so stale work stops within one statement.
//  - read() runs an action on the snapshot of the document's latest text: immediately (on the
//    caller's thread) when that snapshot exists, otherwise on the worker right after the
//    analysis that produces it. Readers never see a snapshot older than the text they asked
//    about, so positions always match.
//  - With threads == 0 everything is synchronous on the caller's thread (tests): update()
//    analyses before returning and read() always runs immediately.
// Documents that import an updated document are analysed again too (their overlay changed).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "lsp/analysis/Analyzer.h"
#include "lsp/server/Expected.h"

namespace tlens::lsp {

struct SchedulerOptions {
  int threads = 1;  ///< 0: synchronous
  int debounceMs = 30;
  int timeBudgetMs = 500;
  std::vector<std::string> roots;
};

class Scheduler {
 public:
  using SnapshotPtr = std::shared_ptr<const Snapshot>;
  using Action = std::function<void(Expected<SnapshotPtr>)>;
  /// `onAnalyzed` runs on the worker (or the caller, when synchronous) after each fresh snapshot.
  Scheduler(SchedulerOptions o, std::function<void(SnapshotPtr)> onAnalyzed);
  ~Scheduler();

  void update(const std::string& uri, const std::string& path, std::string text, int version);
  void remove(const std::string& uri);
  void read(const std::string& uri, Action action);
  void setRoots(std::vector<std::string> roots);
  /// The latest text of an open document (for edits), or null.
  std::shared_ptr<const std::string> text(const std::string& uri) const;

 private:
  struct Doc {
    std::string path;
    std::shared_ptr<const std::string> text;
    int version = 0;
    std::shared_ptr<std::atomic<uint64_t>> gen = std::make_shared<std::atomic<uint64_t>>(0);
    bool dirty = false;
    std::chrono::steady_clock::time_point due;
    SnapshotPtr snap;
    uint64_t snapGen = 0;
    std::vector<Action> waiters;
  };
  void markDirty(Doc& d, std::chrono::steady_clock::time_point due);
  AnalysisInput inputFor(const std::string& uri, const Doc& d) const;
  void analyzeNow(const std::string& uri);  // synchronous mode
  void loop();

  SchedulerOptions opts_;
  std::function<void(SnapshotPtr)> onAnalyzed_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::string, Doc> docs_;
  uint64_t counter_ = 0;
  bool stopping_ = false;
  std::thread worker_;
};

}  // namespace tlens::lsp
