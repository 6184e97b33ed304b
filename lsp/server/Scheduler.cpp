#include "lsp/server/Scheduler.h"

#include <filesystem>

namespace tlens::lsp {

namespace {

/// True when `importer` mentions the module `path` defines (`import m`, `from m import`).
bool mayImport(const std::string& importer, const std::string& path) {
  std::string stem = std::filesystem::path(path).stem().string();
  if (stem.empty()) return false;
  return importer.find("import " + stem) != std::string::npos || importer.find("from " + stem) != std::string::npos ||
         importer.find("." + stem + " import") != std::string::npos;
}

}  // namespace

Scheduler::Scheduler(SchedulerOptions o, std::function<void(SnapshotPtr)> onAnalyzed)
    : opts_(std::move(o)), onAnalyzed_(std::move(onAnalyzed)) {
  if (opts_.threads > 0) worker_ = std::thread([this] { loop(); });
}

Scheduler::~Scheduler() {
  {
    std::lock_guard<std::mutex> l(mu_);
    stopping_ = true;
    for (auto& [uri, d] : docs_) d.gen->fetch_add(1);  // cancels the analysis in progress
  }
  cv_.notify_all();
  if (worker_.joinable()) worker_.join();
}

void Scheduler::setRoots(std::vector<std::string> roots) {
  std::lock_guard<std::mutex> l(mu_);
  opts_.roots = std::move(roots);
}

void Scheduler::markDirty(Doc& d, std::chrono::steady_clock::time_point due) {
  d.gen->store(++counter_);
  d.dirty = true;
  d.due = due;
}

void Scheduler::update(const std::string& uri, const std::string& path, std::string text, int version) {
  {
    std::lock_guard<std::mutex> l(mu_);
    auto due = std::chrono::steady_clock::now() + std::chrono::milliseconds(opts_.debounceMs);
    Doc& d = docs_[uri];
    d.path = path;
    d.text = std::make_shared<const std::string>(std::move(text));
    d.version = version;
    markDirty(d, due);
    for (auto& [other, od] : docs_)
      if (other != uri && mayImport(*od.text, path)) markDirty(od, due);
  }
  if (opts_.threads == 0) {
    std::vector<std::string> dirty;
    {
      std::lock_guard<std::mutex> l(mu_);
      for (auto& [u, d] : docs_)
        if (d.dirty) dirty.push_back(u);
    }
    for (const auto& u : dirty) analyzeNow(u);
    return;
  }
  cv_.notify_all();
}

void Scheduler::remove(const std::string& uri) {
  std::vector<Action> waiters;
  {
    std::lock_guard<std::mutex> l(mu_);
    auto it = docs_.find(uri);
    if (it == docs_.end()) return;
    it->second.gen->fetch_add(1);
    waiters = std::move(it->second.waiters);
    docs_.erase(it);
  }
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
  return in;
}

void Scheduler::analyzeNow(const std::string& uri) {
  AnalysisInput in;
  uint64_t gen;
  {
    std::lock_guard<std::mutex> l(mu_);
    auto it = docs_.find(uri);
    if (it == docs_.end()) return;
    it->second.dirty = false;
    in = inputFor(uri, it->second);
    gen = it->second.gen->load();
  }
  SnapshotPtr snap = analyze(in);
  std::vector<Action> waiters;
  {
    std::lock_guard<std::mutex> l(mu_);
    auto it = docs_.find(uri);
    if (it == docs_.end() || !snap || it->second.gen->load() != gen) return;
    it->second.snap = snap;
    it->second.snapGen = gen;
    waiters = std::move(it->second.waiters);
  }
  if (onAnalyzed_) onAnalyzed_(snap);
  for (auto& w : waiters) w(snap);
}

void Scheduler::loop() {
  std::unique_lock<std::mutex> l(mu_);
  while (!stopping_) {
    // The dirty document due first.
    auto best = docs_.end();
    for (auto it = docs_.begin(); it != docs_.end(); ++it)
      if (it->second.dirty && (best == docs_.end() || it->second.due < best->second.due)) best = it;
    if (best == docs_.end()) {
      cv_.wait(l);
      continue;
    }
    if (std::chrono::steady_clock::now() < best->second.due) {
      cv_.wait_until(l, best->second.due);
      continue;  // re-evaluate: an edit may have moved the deadline
    }
    std::string uri = best->first;
    Doc& d = best->second;
    d.dirty = false;
    AnalysisInput in = inputFor(uri, d);
    uint64_t gen = d.gen->load();
    auto genRef = d.gen;
    in.cancelled = [genRef, gen] { return genRef->load() != gen; };
    l.unlock();
    SnapshotPtr snap;
    try {
      snap = analyze(in);
    } catch (...) {
      snap = nullptr;  // analyze() does not throw for user code; this is a bug, keep serving
    }
    l.lock();
    auto it = docs_.find(uri);
    if (it == docs_.end() || it->second.gen->load() != gen) continue;
    if (!snap) {
      std::vector<Action> failed = std::move(it->second.waiters);
      l.unlock();
      for (auto& w : failed) w(Error{ErrorCode::InternalError, "analysis failed"});
      l.lock();
      continue;
    }
    it->second.snap = snap;
    it->second.snapGen = gen;
    std::vector<Action> waiters = std::move(it->second.waiters);
    l.unlock();
    if (onAnalyzed_) onAnalyzed_(snap);
    for (auto& w : waiters) w(snap);
    l.lock();
  }
}

}  // namespace tlens::lsp
