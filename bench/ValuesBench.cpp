// The language server's snapshot memory (issue #5: the server's peak <= 100 MB on a 5,000-line
// TF-style file): the values a Snapshot keeps for hovers, inlay hints and completion. Target:
// <= 8 MB for that file. Baseline, measured in the same run: the same values one self-contained
// record each with its own strings (every field a std::string or vector, as RenderedValue, the
// layout before ValuePool). Also the heap the values really free (the allocator's own count,
// engine/core/HeapUsage.h), which includes the allocator's overheads.
#include <cstdio>
#include <string>

#include "BenchUtil.h"
#include "TfStyleFile.h"
#include "engine/core/HeapUsage.h"
#include "lsp/analysis/Analyzer.h"
#include "lsp/analysis/ValuePool.h"

namespace tlens::bench {

namespace {

size_t stringBytes(std::string_view s) { return s.size() > 15 ? s.size() + 1 : 0; }

/// What `v` took as one self-contained RenderedValue (plus its list of types).
size_t fatBytes(const lsp::ValueInfo& v) {
  size_t n = sizeof(lsp::RenderedValue) + sizeof(std::vector<std::string>);
  for (std::string_view s : {v.type(), v.value(), v.device(), v.placementNote(), v.node(), v.op(), v.opSummary(),
                             v.signature(), v.doc()})
    n += stringBytes(s);
  n += v.params().size() * sizeof(std::string) + v.types().size() * sizeof(std::string);
  for (const auto& p : v.params()) n += stringBytes(p);
  for (const auto& t : v.types()) n += stringBytes(t);
  for (const auto& row : v.summaryRows()) {
    n += sizeof row + row.size() * sizeof(std::string);
    for (const auto& c : row) n += stringBytes(c);
  }
  return n;
}

}  // namespace

void valuesBench(bool quick) {
  int lines = quick ? 1000 : 5000;
  std::string text = tfStyleFile(lines);
  lsp::AnalysisInput in;
  in.uri = "file:///model.py";
  in.path = "/model.py";
  in.text = text;
  in.timeBudgetMs = 20000;
  in.file = std::make_shared<lang::SourceFile>(in.path, text);
  std::shared_ptr<void> interpreter;
  auto snap = lsp::analyze(in, &interpreter);
  interpreter.reset();
  if (!snap || !snap->pool) {
    std::printf("values: the analysis returned no snapshot\n");
    return;
  }
  size_t n = snap->values.size() + snap->globals.size(), fat = 0;
  for (const auto& v : snap->values) fat += fatBytes(v);
  for (const auto& [name, v] : snap->globals) fat += fatBytes(v);
  size_t compact = snap->values.capacity() * sizeof(lsp::ValueInfo) + snap->pool->bytes();
  for (const auto& [name, v] : snap->globals) compact += sizeof(lsp::ValueInfo) + name.size();  // map nodes, roughly
  std::printf("\nSnapshot values of a %d-line TF-style file (issue #5: server peak <= 100 MB)\n", lines);
  std::printf("  %zu values (%zu globals), sizeof(ValueInfo) %zu; %zu distinct strings, %zu details\n", n,
              snap->globals.size(), sizeof(lsp::ValueInfo), snap->pool->strings(), snap->pool->details());
  std::printf("  %-44s %10.2f MB  %6.1f bytes/value\n", "baseline: one record + own strings per value", fat / 1048576.0,
              double(fat) / double(n));
  std::printf("  %-44s %10.2f MB  %6.1f bytes/value  (%.1fx smaller)\n", "pooled (ValueInfo + ValuePool)",
              compact / 1048576.0, double(compact) / double(n), double(fat) / double(compact));
  // What freeing them gives back, as the allocator counts it (the snapshot's other parts stay).
  // This benchmark holds the only reference to the snapshot: emptying it in place is safe.
  auto& s = const_cast<lsp::Snapshot&>(*snap);
  size_t before = heapBytesInUse();
  std::vector<lsp::ValueInfo>().swap(s.values);  // `= {}` would keep the capacity
  s.globals = {};
  s.pool.reset();
  size_t freed = before - heapBytesInUse();
  std::printf("  %-44s %10.2f MB  %6.1f bytes/value\n", "heap freed with the values (allocator)", freed / 1048576.0,
              double(freed) / double(n));
  if (!quick)
    std::printf("  target <= 8 MB on 5,000 lines: %s\n", verdict(freed <= 8u * 1024 * 1024 && compact <= 8u * 1024 * 1024));
}

}  // namespace tlens::bench
