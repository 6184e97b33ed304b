#include "lsp/server/Scheduler.h"

#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "lang/syntax/TextDiff.h"
#include "lsp/features/Workspace.h"
#include "lsp/protocol/Uri.h"
#include "lsp/server/Trace.h"

namespace tlens::lsp {

namespace {

/// The lines of `text` that start with `import` or `from` (what mayImport looks at).
std::string importLines(const std::string& text) {
  std::string out;
  std::istringstream ss(text);
  for (std::string line; std::getline(ss, line);) {
    size_t a = line.find_first_not_of(" \t");
    if (a == std::string::npos) continue;
    if (line.compare(a, 7, "import ") == 0 || line.compare(a, 5, "from ") == 0) out += line.substr(a) + "\n";
  }
  return out;
}

/// The file's text, or nullopt when it is missing, not a regular file, or over `maxBytes`.
std::optional<std::string> readSmallFile(const std::string& path, size_t maxBytes) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  auto size = std::filesystem::file_size(path, ec);
  if (ec || size > maxBytes) return std::nullopt;
  std::ifstream f(path, std::ios::binary);
  if (!f) return std::nullopt;
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace

Scheduler::Scheduler(SchedulerOptions o, std::function<void(const Snapshot&)> onAnalyzed)
    : opts_(std::move(o)), onAnalyzed_(std::move(onAnalyzed)) {
  if (opts_.threads > 0) {
    worker_ = std::thread([this] { loop(); });
    background_ = std::thread([this] { backgroundLoop(); });
  }
}

void Scheduler::dispose(std::shared_ptr<const void> garbage) {
  if (!garbage || opts_.threads == 0) return;  // synchronous: destroyed right here
  std::lock_guard<std::mutex> l(mu_);
  disposeLocked(std::move(garbage));
}

void Scheduler::disposeLocked(std::shared_ptr<const void> garbage) {
  if (!garbage || opts_.threads == 0) return;
  reap_.push_back(std::move(garbage));
  cv_.notify_all();
}

Scheduler::~Scheduler() {
  {
    std::lock_guard<std::mutex> l(mu_);
    stopping_ = true;
    for (auto& [uri, d] : docs_) d.gen->fetch_add(1);  // cancels the analysis in progress
    fgCounter_.fetch_add(1);                              // and a background one
    pauseCancel_ = true;                                  // and a pauser job
  }
  cv_.notify_all();
  if (worker_.joinable()) worker_.join();
  {
    std::lock_guard<std::mutex> l(mu_);
    backgroundStop_ = true;  // after the worker: it may still hand over garbage
  }
  cv_.notify_all();
  if (background_.joinable()) background_.join();
}

void Scheduler::setRoots(std::vector<std::string> roots) {
  std::lock_guard<std::mutex> l(mu_);
  opts_.roots = std::move(roots);
}

void Scheduler::reconfigure(int timeBudgetMs, DeviceRequest devices) {
  std::vector<std::string> dirty;
  {
    std::lock_guard<std::mutex> l(mu_);
    opts_.timeBudgetMs = timeBudgetMs;
    opts_.devices = devices;
    auto now = std::chrono::steady_clock::now();
    for (auto& [u, d] : docs_) {
      markDirty(d, now);
      dirty.push_back(u);
    }
  }
  if (opts_.threads == 0) {
    for (const auto& u : dirty) analyzeNow(u);
    return;
  }
  cv_.notify_all();
}

void Scheduler::markDirty(Doc& d, std::chrono::steady_clock::time_point due) {
  d.gen->store(++counter_);
  fgCounter_.fetch_add(1);
  d.dirty = true;
  d.due = due;
}

void Scheduler::update(const std::string& uri, const std::string& path, std::string text, int version) {
  trace("update");
  {
    std::lock_guard<std::mutex> l(mu_);
    // Debounce only bursts: an edit that finds the previous one analysed (its diagnostics
    // published) is analysed at once; one that comes while the previous one still waits or is
    // being analysed (edits faster than analyses) waits `debounceMs` for the next one.
    auto now = std::chrono::steady_clock::now();
    Doc& d = docs_[uri];
    bool burst = d.dirty || d.analyzing;
    auto due = now + std::chrono::milliseconds(burst ? opts_.debounceMs : 0);
    d.path = path;
    d.text = std::make_shared<const std::string>(std::move(text));
    d.version = version;
    markDirty(d, due);
    for (auto& [other, od] : docs_)
      if (other != uri && mayImport(*od.text, path)) markDirty(od, due);
    queueImportersLocked(path, path);
  }
  if (opts_.threads == 0) {
    std::vector<std::string> dirty;
    {
      std::lock_guard<std::mutex> l(mu_);
      for (auto& [u, d] : docs_)
        if (d.dirty) dirty.push_back(u);
    }
    for (const auto& u : dirty) analyzeNow(u);
    std::unique_lock<std::mutex> l(mu_);
    while (!bg_.empty()) runBackground(l);
    return;
  }
  cv_.notify_all();
}

void Scheduler::remove(const std::string& uri) {
  std::vector<Action> waiters;
  std::shared_ptr<PausedAnalysis> paused;
  {
    std::lock_guard<std::mutex> l(mu_);
    auto it = docs_.find(uri);
    if (it == docs_.end()) return;
    it->second.gen->fetch_add(1);
    waiters = std::move(it->second.waiters);
    paused = std::move(it->second.paused);
    pauseJobs_.erase(uri);
    if (runningPauseUri_ == uri) pauseCancel_ = true;
    docs_.erase(it);
  }
  cv_.notify_all();  // an analysis waiting for this document's pauser
  dispose(std::move(paused));
  for (auto& w : waiters) w(Error{ErrorCode::ContentModified, "the document was closed"});
}

std::shared_ptr<const std::string> Scheduler::text(const std::string& uri) const {
  std::lock_guard<std::mutex> l(mu_);
  auto it = docs_.find(uri);
  return it == docs_.end() ? nullptr : it->second.text;
}

void Scheduler::read(const std::string& uri, Action action) {
  SnapshotPtr ready;
  {
    std::lock_guard<std::mutex> l(mu_);
    auto it = docs_.find(uri);
    if (it == docs_.end()) {
      ready = nullptr;
    } else if (it->second.snap && it->second.snapGen == it->second.gen->load()) {
      ready = it->second.snap;
    } else {
      it->second.waiters.push_back(std::move(action));
      return;
    }
  }
  if (!ready) action(Error{ErrorCode::InvalidParams, "unknown document: " + uri});
  else action(ready);
}

AnalysisInput Scheduler::inputFor(const std::string& uri, const Doc& d) const {
  AnalysisInput in;
  in.uri = uri;
  in.path = d.path;
  in.text = *d.text;
  in.version = d.version;
  in.roots = opts_.roots;
  auto overlay = std::make_shared<std::map<std::string, std::string>>();
  for (const auto& [u, od] : docs_)
    if (u != uri) (*overlay)[od.path] = *od.text;
  in.overlay = overlay;
  in.timeBudgetMs = opts_.timeBudgetMs;
  in.devices = opts_.devices;
  return in;
}

void Scheduler::analyzeNow(const std::string& uri) {
  AnalysisInput in;
  uint64_t gen;
  std::shared_ptr<PausedAnalysis> paused;
  SnapshotPtr base;
  {
    std::unique_lock<std::mutex> l(mu_);
    auto it = docs_.find(uri);
    if (it == docs_.end()) return;
    it->second.dirty = false;
    in = inputFor(uri, it->second);
    gen = it->second.gen->load();
    bool stale = false;
    paused = prepareLocked(l, uri, in, gen, stale, base);
  }
  SnapshotPtr snap = analyze(in, nullptr, std::move(paused), nullptr, base.get());
  std::vector<Action> waiters;
  {
    std::lock_guard<std::mutex> l(mu_);
    auto it = docs_.find(uri);
    if (it == docs_.end() || !snap || it->second.gen->load() != gen) return;
    it->second.snap = snap;
    it->second.snapGen = gen;
    it->second.lastFile = snap->file;
    waiters = std::move(it->second.waiters);
  }
  if (onAnalyzed_) onAnalyzed_(*snap);
  for (auto& w : waiters) w(snap);
  // The pauser's job, synchronously.
  std::unique_lock<std::mutex> l(mu_);
  auto job = pauseJobs_.find(uri);
  if (job == pauseJobs_.end()) return;
  PauseJob j = std::move(job->second);
  pauseJobs_.erase(job);
  runPauseJob(std::move(j), l);
}

std::shared_ptr<PausedAnalysis> Scheduler::prepareLocked(std::unique_lock<std::mutex>& l, const std::string& uri,
                                                         AnalysisInput& in, uint64_t gen, bool& stale,
                                                         std::shared_ptr<const Snapshot>& base) {
  stale = false;
  base = nullptr;
  auto it = docs_.find(uri);
  if (it == docs_.end()) return nullptr;
  std::shared_ptr<const lang::SourceFile> prev = it->second.lastFile;
  if (!prev || prev->path() != in.path) return nullptr;  // first analysis: nothing to continue
  // Parse once (incrementally, without the lock: the reader thread keeps taking edits) for both
  // the analysis and the pauser job.
  SnapshotPtr last = it->second.snap;
  l.unlock();
  in.file = std::make_shared<lang::SourceFile>(*prev, in.text);
  // An edit after the place where the last run stopped at the work budget takes that snapshot as
  // it is: no run, so no pauser to wait for or to start (a paused run stays for a later edit
  // before the stop).
  bool reuse = last && reusesStopped(in, *last);
  l.lock();
  // After the lock was let go: the document may be gone or edited again (then `stale`).
  auto lookAgain = [&] {
    it = docs_.find(uri);
    stale = stopping_ || it == docs_.end() || it->second.gen->load() != gen;
    return !stale;
  };
  if (!lookAgain()) return nullptr;
  if (reuse) {
    base = std::move(last);
    return nullptr;
  }
  uint32_t editAt = static_cast<uint32_t>(lang::commonPrefix(prev->text(), in.text));
  // A pauser job for a text that agrees with this one up to the line it pauses before will fit:
  // wait for it (it started earlier than a run from the beginning would).
  while (opts_.threads > 0 && it->second.pauseJob != 0 && it->second.pauseText &&
         lang::commonPrefix(*it->second.pauseText, in.text) >= it->second.pauseLine) {
    // Waiting anyway: free what the background thread has not reached yet (it is busy with the
    // pauser), so that fewer versions' objects are alive at once and the background thread is
    // free for the next pause sooner. One item at a time: the pause may be ready meanwhile. Not
    // when the pauser is nearly there: freeing an interpreter takes longer than the last tenth
    // of a pause, and the analysis would start that much later.
    bool nearlyDone = runningPauseUri_ == uri &&
                      pauseProgress_.load(std::memory_order_relaxed) >= it->second.pauseLine / 10 * 9;
    if (!reap_.empty() && !nearlyDone) reapOneLocked(l, 1);
    else cv_.wait(l);
    if (!lookAgain()) return nullptr;
  }
  Doc& d = it->second;
  std::shared_ptr<PausedAnalysis> paused = std::move(d.paused);
  // The next edit will most likely be here again: pause a run of this text before this line.
  PauseJob job;
  job.id = ++pauseCounter_;
  job.uri = uri;
  job.input = in;
  job.editAt = editAt;
  size_t nl = editAt == 0 ? std::string::npos : in.text.rfind('\n', editAt - 1);
  d.pauseLine = nl == std::string::npos ? 0 : static_cast<uint32_t>(nl + 1);
  d.pauseJob = job.id;
  d.pauseText = d.text;
  if (runningPauseUri_ == uri) pauseCancel_ = true;
  pauseJobs_[uri] = std::move(job);
  cv_.notify_all();
  return paused;
}

void Scheduler::runPauseJob(PauseJob job, std::unique_lock<std::mutex>& l) {
  runningPauseUri_ = job.uri;
  pauseCancel_ = false;
  pauseProgress_ = 0;
  job.input.cancelled = [this] { return pauseCancel_.load(std::memory_order_relaxed); };
  job.input.progress = &pauseProgress_;
  l.unlock();
  trace("pause-start");
  std::shared_ptr<PausedAnalysis> p;
  try {
    p = analyzePrefix(job.input, job.editAt);
  } catch (...) {
    p = nullptr;  // a bug; the next analysis runs from the beginning
  }
  trace("pause-end", p ? 1 : 0);
  l.lock();
  runningPauseUri_.clear();
  auto it = docs_.find(job.uri);
  if (it != docs_.end() && it->second.pauseJob == job.id) {
    disposeLocked(std::move(it->second.paused));
    it->second.paused = std::move(p);
    it->second.pauseJob = 0;
    it->second.pauseText.reset();
  }
  cv_.notify_all();
  if (p) {
    l.unlock();
    dispose(std::move(p));
    l.lock();
  }
}

void Scheduler::reapOneLocked(std::unique_lock<std::mutex>& l, int byWorker) {
  std::shared_ptr<const void> item = std::move(reap_.back());
  reap_.pop_back();
  l.unlock();
  trace("reap-start", byWorker);
  item.reset();  // the destructors run here, without the lock
  trace("reap-end", byWorker);
  l.lock();
}

void Scheduler::backgroundLoop() {
  // Lower priority: this thread works for later edits and frees memory; when it competes with the
  // analysis the user waits for (and its parser thread) for a core, the analysis goes first.
  setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10);
  std::unique_lock<std::mutex> l(mu_);
  while (true) {
    if (!reap_.empty()) {
      // Garbage first: a pauser run must not build a new interpreter while the old ones live.
      reapOneLocked(l, 0);
      continue;
    }
    if (backgroundStop_) return;
    if (warmUpPending_ && !stopping_) {
      warmUpPending_ = false;
      AnalysisInput in;
      in.uri = "tensorlens:warm-up";
      in.path = "<warm-up>";
      in.text = "import tensorflow as tf\nimport numpy as np\n";
      in.collectValues = false;
      in.timeBudgetMs = opts_.timeBudgetMs;
      l.unlock();
      try {
        analyze(in);  // parses the embedded modules into the process-wide cache
      } catch (...) {
      }
      l.lock();
      continue;
    }
    if (!stopping_ && !pauseJobs_.empty()) {
      auto it = pauseJobs_.begin();
      PauseJob job = std::move(it->second);
      pauseJobs_.erase(it);
      runPauseJob(std::move(job), l);
      continue;
    }
    cv_.wait(l);
  }
}

bool Scheduler::openPathLocked(const std::string& path) const {
  for (const auto& [u, d] : docs_)
    if (d.path == path) return true;
  return false;
}

bool Scheduler::isOpenPath(const std::string& path) const {
  std::lock_guard<std::mutex> l(mu_);
  return openPathLocked(path);
}

std::shared_ptr<const std::map<std::string, std::shared_ptr<const std::string>>> Scheduler::openTexts() const {
  auto out = std::make_shared<std::map<std::string, std::shared_ptr<const std::string>>>();
  std::lock_guard<std::mutex> l(mu_);
  for (const auto& [u, d] : docs_) (*out)[d.path] = d.text;
  return out;
}

void Scheduler::warmUp() {
  if (opts_.threads == 0) return;
  {
    std::lock_guard<std::mutex> l(mu_);
    warmUpPending_ = true;
  }
  cv_.notify_all();
}

void Scheduler::setBackgroundListener(std::function<void(const BackgroundProgress&)> l) {
  std::lock_guard<std::mutex> g(mu_);
  bgListener_ = std::move(l);
}

void Scheduler::queueImportersLocked(const std::string& path, const std::string& except) {
  for (const auto& [p, imports] : bgImports_) {
    if (p == except || bgQueued_.count(p) || !mayImport(imports, path) || openPathLocked(p)) continue;
    if (bg_.empty()) {
      bgDone_ = bgTotal_ = 0;
      bgReport_ = false;
      bgStart_ = std::chrono::steady_clock::now();
    }
    bg_.push_back(p);
    bgQueued_.insert(p);
    ++bgTotal_;
  }
}

void Scheduler::reanalyzeImporters(const std::string& path) {
  {
    std::lock_guard<std::mutex> l(mu_);
    queueImportersLocked(path, path);
  }
  if (opts_.threads == 0) {
    std::unique_lock<std::mutex> l(mu_);
    while (!bg_.empty()) runBackground(l);
    return;
  }
  cv_.notify_all();
}

void Scheduler::emitProgressLocked(std::vector<BackgroundProgress>& out, bool finished) {
  if (!bgReport_ || !bgListener_) return;
  BackgroundProgress p;
  p.done = bgDone_;
  p.total = bgTotal_;
  p.finished = finished;
  p.message = std::to_string(bgDone_) + "/" + std::to_string(bgTotal_) + " files";
  out.push_back(std::move(p));
}

void Scheduler::analyzeInBackground(const std::vector<std::string>& paths, bool report) {
  std::vector<BackgroundProgress> events;
  std::function<void(const BackgroundProgress&)> listener;
  {
    std::lock_guard<std::mutex> l(mu_);
    if (bg_.empty()) {
      bgDone_ = bgTotal_ = 0;
      bgReport_ = false;
      bgStart_ = std::chrono::steady_clock::now();
    }
    for (const auto& p : paths) {
      if (bgQueued_.count(p) || openPathLocked(p)) continue;
      bg_.push_back(p);
      bgQueued_.insert(p);
      ++bgTotal_;
    }
    if (report && !bg_.empty()) {
      bgReport_ = true;
      emitProgressLocked(events, false);
    }
    listener = bgListener_;
  }
  for (const auto& e : events) listener(e);
  if (opts_.threads == 0) {
    std::unique_lock<std::mutex> l(mu_);
    while (!bg_.empty()) runBackground(l);
    return;
  }
  cv_.notify_all();
}

void Scheduler::runBackground(std::unique_lock<std::mutex>& l) {
  std::string path = bg_.front();
  bg_.pop_front();
  bgQueued_.erase(path);
  std::vector<BackgroundProgress> events;
  auto finishIfEmpty = [&] {
    if (bg_.empty()) emitProgressLocked(events, true);
  };
  auto emit = [&] {
    auto listener = bgListener_;
    std::vector<BackgroundProgress> ev = std::move(events);
    events.clear();
    l.unlock();
    for (const auto& e : ev) listener(e);
    l.lock();
  };
  auto elapsed = std::chrono::steady_clock::now() - bgStart_;
  if (elapsed > std::chrono::milliseconds(opts_.backgroundBudgetMs)) {
    // Over budget: skip what is left of this batch, and say so.
    int skipped = 1 + static_cast<int>(bg_.size());
    bg_.clear();
    bgQueued_.clear();
    if (bgReport_ && bgListener_) {
      BackgroundProgress p{bgDone_, bgTotal_, true,
                           std::to_string(bgDone_) + "/" + std::to_string(bgTotal_) + " files; " +
                               std::to_string(skipped) + " skipped (time limit)"};
      events.push_back(p);
    }
    return emit();
  }
  if (openPathLocked(path)) {  // the editor's text is analysed instead
    ++bgDone_;
    emitProgressLocked(events, false);
    finishIfEmpty();
    return emit();
  }
  AnalysisInput in;
  in.uri = pathToUri(path);
  in.path = path;
  in.version = -1;
  in.roots = opts_.roots;
  auto overlay = std::make_shared<std::map<std::string, std::string>>();
  for (const auto& [u, od] : docs_) (*overlay)[od.path] = *od.text;
  in.overlay = overlay;
  in.timeBudgetMs = opts_.timeBudgetMs;
  in.devices = opts_.devices;
  uint64_t fg = fgCounter_.load();
  in.cancelled = [this, fg] { return fgCounter_.load() != fg; };
  size_t maxBytes = opts_.maxBackgroundBytes;
  l.unlock();
  std::optional<std::string> text = readSmallFile(path, maxBytes);
  SnapshotPtr snap;
  std::shared_ptr<void> leftovers;
  if (text) {
    in.text = std::move(*text);
    try {
      snap = analyze(in, &leftovers);
    } catch (...) {
      snap = nullptr;
    }
  } else {
    // Deleted (or too large): publish nothing for it, which clears what was published before.
    auto empty = std::make_shared<Snapshot>();
    empty->uri = in.uri;
    empty->version = -1;
    empty->file = std::make_shared<lang::SourceFile>(path, "");
    snap = empty;
  }
  l.lock();
  if (stopping_) return;
  if (!snap && fgCounter_.load() != fg) {
    // An edit came in: the open documents go first; this file waits at the front of the queue.
    if (!bgQueued_.count(path)) {
      bg_.push_front(path);
      bgQueued_.insert(path);
    }
    return;
  }
  ++bgDone_;
  if (text) bgImports_[path] = importLines(in.text);
  emitProgressLocked(events, false);
  finishIfEmpty();
  bool publish = snap && !openPathLocked(path);
  auto listener = bgListener_;
  std::vector<BackgroundProgress> ev = std::move(events);
  l.unlock();
  if (publish && onAnalyzed_) onAnalyzed_(*snap);
  for (const auto& e : ev) listener(e);
  dispose(std::move(leftovers));
  dispose(std::move(snap));
  l.lock();
}

void Scheduler::loop() {
  std::unique_lock<std::mutex> l(mu_);
  while (!stopping_) {
    // The dirty document due first.
    auto best = docs_.end();
    for (auto it = docs_.begin(); it != docs_.end(); ++it)
      if (it->second.dirty && (best == docs_.end() || it->second.due < best->second.due)) best = it;
    if (best == docs_.end()) {
      if (!bg_.empty()) {
        runBackground(l);
        continue;
      }
      cv_.wait(l);
      continue;
    }
    if (std::chrono::steady_clock::now() < best->second.due) {
      cv_.wait_until(l, best->second.due);
      continue;  // re-evaluate: an edit may have moved the deadline
    }
    std::string uri = best->first;
    best->second.dirty = false;
    AnalysisInput in = inputFor(uri, best->second);
    uint64_t gen = best->second.gen->load();
    auto genRef = best->second.gen;
    in.cancelled = [genRef, gen] { return genRef->load() != gen; };
    // The values of a run stopped at the work budget are worth finishing for a newer text that
    // agrees with this one past the stop (it takes the snapshot as it is); for no other.
    in.cancelledStopped = [this, uri, genRef, gen, analysed = best->second.text, seen = gen,
                           verdict = false](uint32_t stopEnd) mutable {
      uint64_t now = genRef->load();
      if (now == gen) return false;
      if (now == seen) return verdict;
      seen = now;
      std::shared_ptr<const std::string> newest;
      {
        std::lock_guard<std::mutex> g(mu_);
        auto at = docs_.find(uri);
        if (at != docs_.end() && at->second.gen == genRef) newest = at->second.text;
      }
      verdict = !newest || lang::commonPrefix(*analysed, *newest) <= stopEnd;
      return verdict;
    };
    bool staleNow = false;
    trace("prepare");
    SnapshotPtr base;
    std::shared_ptr<PausedAnalysis> paused = prepareLocked(l, uri, in, gen, staleNow, base);
    auto found = docs_.find(uri);
    if (staleNow || found == docs_.end()) {
      if (paused) {
        l.unlock();
        dispose(std::move(paused));
        l.lock();
      }
      continue;  // edited again (or closed) while waiting for the pauser
    }
    Doc& d = found->second;
    // The stale snapshot serves no read any more (reads wait for the latest text): free it now
    // (on the background thread, while this analysis runs), so that two snapshots of a big file are not
    // alive at once. (Unless it is the `base` this text takes as it is.)
    SnapshotPtr stale = std::move(d.snap);
    d.analyzing = true;
    l.unlock();
    trace("analyze-start", paused ? 1 : 0);
    if (!base) dispose(std::move(stale));
    SnapshotPtr snap;
    std::shared_ptr<void> leftovers;  // the interpreter: destroyed after publishing
    // The diagnostics are published as soon as the run ends; the values (hovers, completion)
    // are rendered after, unless a newer edit makes them pointless.
    bool published = false;
    auto early = [&](const Snapshot& s) {
      {
        std::lock_guard<std::mutex> g(mu_);
        auto at = docs_.find(uri);
        if (at == docs_.end() || at->second.gen->load() != gen) return;
        at->second.lastFile = s.file;
        at->second.analyzing = false;  // an edit now is analysed at once, not debounced
      }
      trace("analyze-end", s.reusedStatements);
      if (onAnalyzed_) onAnalyzed_(s);
      trace("published");
      published = true;
    };
    try {
      snap = analyze(in, &leftovers, std::move(paused), early, base.get());
    } catch (...) {
      snap = nullptr;  // analyze() does not throw for user code; this is a bug, keep serving
    }
    if (published) trace("values");
    l.lock();
    disposeLocked(std::move(stale));
    base.reset();
    auto it = docs_.find(uri);
    if (it != docs_.end()) it->second.analyzing = false;
    if (it == docs_.end() || it->second.gen->load() != gen) {
      // Edited meanwhile. A snapshot of a run stopped at the work budget may still serve the
      // newer text as it is (prepareLocked): kept, though no read gets it (snapGen is stale).
      if (snap && snap->stopped && it != docs_.end() && it->second.gen == genRef && !it->second.snap) {
        it->second.snap = std::move(snap);
        it->second.snapGen = gen;
      }
      disposeLocked(std::move(snap));
      disposeLocked(std::move(leftovers));
      continue;
    }
    if (!snap) {
      std::vector<Action> failed = std::move(it->second.waiters);
      l.unlock();
      for (auto& w : failed) w(Error{ErrorCode::InternalError, "analysis failed"});
      dispose(std::move(leftovers));
      l.lock();
      continue;
    }
    it->second.snap = snap;
    it->second.snapGen = gen;
    it->second.lastFile = snap->file;
    std::vector<Action> waiters = std::move(it->second.waiters);
    l.unlock();
    if (!published && onAnalyzed_) onAnalyzed_(*snap);
    for (auto& w : waiters) w(snap);
    dispose(std::move(leftovers));  // torn down on the background thread: the next edit need not wait
    l.lock();
  }
}

}  // namespace tlens::lsp
