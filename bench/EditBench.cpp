// The language server's edit path (issue #5: one-line edit -> new diagnostics <= 50 ms on a
// 5,000-line TF-style file), in-process, without the protocol: a full analysis of the edited
// text (the baseline), and the continuation of a paused analysis (analyzePrefix on the previous
// version, then analyze() of the edited one), for an edit in the middle of the file. Also the
// parts of a continuation: the incremental parse, the resumed run up to the diagnostics (what the
// server publishes first), the values after them, the interpreter's teardown.
#include <cstdio>
#include <string>
#include <thread>

#include "BenchUtil.h"
#include "TfStyleFile.h"
#include "engine/core/HeapUsage.h"
#include "lsp/analysis/Analyzer.h"

namespace tlens::bench {

void editBench(bool quick) {
  std::printf("\n== language server: an edit in the middle of a 5,000-line file ==\n");
  std::string text = tfStyleFile(quick ? 1000 : 5000);
  size_t at = text.find("[None, 784]", text.size() / 2) + 7;
  std::string edited = text;
  edited.replace(at, 3, "785");
  lsp::AnalysisInput base;
  base.uri = "file:///model.py";
  base.path = "/model.py";
  base.timeBudgetMs = 20000;
  base.pipeline = false;
  auto inputFor = [&](const std::string& t, std::shared_ptr<const lang::SourceFile> prev) {
    lsp::AnalysisInput in = base;
    in.text = t;
    in.previous = std::move(prev);
    return in;
  };
  auto first = lsp::analyze(inputFor(text, nullptr));
  auto prevFile = first->file;
  double tParse = timePerCall([&] { lang::SourceFile f(*prevFile, edited); }, 1, quick ? 3 : 9);
  std::shared_ptr<void> leftovers;
  double tFull = timePerCall(
      [&] {
        auto s = lsp::analyze(inputFor(edited, prevFile), &leftovers);
        leftovers.reset();
      },
      1, quick ? 3 : 9);
  std::vector<double> prefix, resume, diagnosed, teardown;
  size_t reused = 0;
  for (int k = 0; k < (quick ? 3 : 9); ++k) {
    // The pause is made on another thread, as the server's background thread makes it.
    double t0 = now(), t1 = 0, tDiagnostics = 0;
    std::shared_ptr<lsp::PausedAnalysis> p;
    std::thread([&] {
      p = lsp::analyzePrefix(inputFor(text, prevFile), static_cast<uint32_t>(at));
      t1 = now();
    }).join();
    auto s = lsp::analyze(inputFor(edited, prevFile), &leftovers, std::move(p),
                          [&](const lsp::Snapshot&) { tDiagnostics = now(); });
    double t2 = now();
    leftovers.reset();
    double t3 = now();
    reused = s->reusedStatements;
    prefix.push_back(t1 - t0);
    diagnosed.push_back(tDiagnostics - t1);
    resume.push_back(t2 - t1);
    teardown.push_back(t3 - t2);
  }
  auto med = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  std::printf("incremental parse of the edit     %7.1f ms\n", tParse * 1e3);
  std::printf("full analysis of the edited text  %7.1f ms (baseline)\n", tFull * 1e3);
  std::printf("pausing before the edit           %7.1f ms (%zu statements)\n", med(prefix) * 1e3, reused);
  std::printf("continuing after the edit: diagnostics %5.1f ms   %.2fx the baseline   target <= 50 ms  %s\n",
              med(diagnosed) * 1e3, med(diagnosed) / tFull, verdict(med(diagnosed) <= 0.05));
  std::printf("  then the values (hovers)         %7.1f ms (%.1f ms in all)\n", (med(resume) - med(diagnosed)) * 1e3,
              med(resume) * 1e3);
  std::printf("tearing the interpreter down      %7.1f ms (after publishing)\n", med(teardown) * 1e3);
  // The same continuation while another thread prepares the next pause (as the server's
  // background thread does).
  std::vector<double> busy;
  for (int k = 0; k < (quick ? 3 : 9); ++k) {
    std::shared_ptr<lsp::PausedAnalysis> p;
    std::thread([&] { p = lsp::analyzePrefix(inputFor(text, prevFile), static_cast<uint32_t>(at)); }).join();
    std::shared_ptr<lsp::PausedAnalysis> q;
    std::thread other([&] { q = lsp::analyzePrefix(inputFor(edited, prevFile), static_cast<uint32_t>(at)); });
    double t1 = now(), t2 = 0;
    auto s = lsp::analyze(inputFor(edited, prevFile), &leftovers, std::move(p),
                          [&](const lsp::Snapshot&) { t2 = now(); });
    other.join();
    q.reset();
    leftovers.reset();
    busy.push_back(t2 - t1);
  }
  std::printf("continuing, beside a pauser: diagnostics %5.1f ms\n", med(busy) * 1e3);

  // What one version of the document holds (malloc's count of bytes in use): its tree with the
  // child lists, the interpreter after a full run, the snapshot.
  auto heap = [] { return static_cast<double>(heapBytesInUse()) / 1e6; };
  double h0 = heap();
  auto file = std::make_shared<lang::SourceFile>(base.path, edited);
  double h1 = heap();
  lsp::AnalysisInput in = inputFor(edited, nullptr);
  in.file = file;
  auto snap = lsp::analyze(in, &leftovers);
  double h2 = heap();
  leftovers.reset();
  double h3 = heap();
  size_t values = snap->values.size();
  snap.reset();
  double h4 = heap();
  file.reset();
  in.file.reset();
  double h5 = heap();
  std::printf("memory: the tree %.1f MB and its child lists %.1f MB, the interpreter %.1f MB, the snapshot %.1f MB (%zu values)\n",
              h1 - h0, (h4 - h5) - (h1 - h0), h2 - h3, h3 - h4, values);
}

}  // namespace tlens::bench
