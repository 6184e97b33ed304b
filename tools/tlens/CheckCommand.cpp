// tlens check [--format text|json] [--hints] [--budget-steps N] [--budget-ms N] [--agreement] PATH...:
// abstract analysis, compiler-style diagnostics. The analysis is bounded by work (interpreter
// steps), so the output is the same on an idle or a loaded machine; --budget-ms is only a
// wall-clock safety limit that reports itself when hit.
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "lang/syntax/SourceText.h"
#include "lang/tf/exec/Agreement.h"
#include "lsp/analysis/Analyzer.h"
#include "lsp/features/Features.h"
#include "tools/tlens/ParseNumber.h"
#include "tools/tlens/Commands.h"
#include "tools/tlens/ProgramRunner.h"

namespace tlens::cli {

namespace {

/// LSP severities: 1 error, 2 warning, 3 information, 4 hint.
const char* severityName(int severity) {
  switch (severity) {
    case 2: return "warning";
    case 3: return "info";
    case 4: return "hint";
  }
  return "error";
}

std::vector<std::string> expand(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const std::string& p : paths) {
    if (std::filesystem::is_directory(p)) {
      for (auto& e : std::filesystem::recursive_directory_iterator(p))
        if (e.is_regular_file() && e.path().extension() == ".py") files.push_back(e.path().string());
    } else {
      files.push_back(p);
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

int checkCommand(const Args& args) {
  std::string format = "text";
  std::vector<std::string> paths;
  bool showHints = false, agreement = false;
  int budgetMs = interp::InterpOptions::kDefaultTimeLimitMs;
  uint64_t budgetSteps = interp::InterpOptions::kDefaultWorkBudget;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--agreement") {
      agreement = true;
    } else if (args[i] == "--format") {
      if (i + 1 >= args.size()) throw std::invalid_argument("--format needs a value");
      format = args[++i];
    } else if (args[i] == "--budget-ms") {
      if (i + 1 >= args.size()) throw std::invalid_argument("--budget-ms needs a value");
      budgetMs = static_cast<int>(parseIntArg("--budget-ms (0: no limit)", args[++i], 0, 3600 * 1000));
    } else if (args[i] == "--budget-steps") {
      if (i + 1 >= args.size()) throw std::invalid_argument("--budget-steps needs a value");
      budgetSteps = static_cast<uint64_t>(parseIntArg("--budget-steps (0: no limit)", args[++i], 0, 1LL << 40));
    } else if (args[i] == "--hints") {
      showHints = true;
    } else {
      paths.push_back(args[i]);
    }
  }
  if (paths.empty()) {
    std::fprintf(stderr, "usage: tlens check [--format text|json] [--hints] [--budget-steps N] [--budget-ms N] [--agreement] PATH...\n");
    return 2;
  }
  bool errors = false;
  nlohmann::json all = nlohmann::json::array();
  if (agreement) {
    // Runs each program twice (abstract and concrete) and compares the types (see Agreement.h).
    int bad = 0;
    for (const std::string& file : expand(paths)) {
      tf::AgreementReport r = tf::checkAgreement(file, readFile(file));
      std::printf("%s: %s\n", file.c_str(), r.str().c_str());
      if (!r.disagreements.empty()) ++bad;
    }
    return bad ? 1 : 0;
  }
  for (const std::string& file : expand(paths)) {
    // The language server's analysis, so the CLI and the editor report the same diagnostics.
    lsp::AnalysisInput in;
    in.path = file;
    try {
      in.text = readFile(file);
    } catch (const lang::SourceReadError& e) {  // a FIFO, a device, a directory, a huge file
      std::fprintf(stderr, "%s: error: %s\n", file.c_str(), e.what());
      errors = true;
      continue;
    }
    in.timeBudgetMs = budgetMs;
    in.workBudget = budgetSteps;
    std::shared_ptr<const lsp::Snapshot> snap = lsp::analyze(in);
    // What the editor publishes: the interpreter's diagnostics for this file and the lints.
    for (const lsp::DiagnosticInfo& d : lsp::diagnostics(*snap)) {
      if (d.severity == 1) errors = true;
      if (format == "json") {
        nlohmann::json j{{"file", file},
                         {"line", d.range.start.line + 1},
                         {"column", d.range.start.column + 1},
                         {"endLine", d.range.end.line + 1},
                         {"endColumn", d.range.end.column + 1},
                         {"severity", severityName(d.severity)},
                         {"message", d.message},
                         {"code", d.code}};
        nlohmann::json rel = nlohmann::json::array();
        for (const auto& r : d.related)
          rel.push_back({{"file", r.file}, {"line", r.range.start.line + 1}, {"column", r.range.start.column + 1}, {"message", r.message}});
        j["related"] = rel;
        all.push_back(j);
        continue;
      }
      if (!showHints && d.severity == 4) continue;
      std::printf("%s:%d:%d: %s: %s", file.c_str(), d.range.start.line + 1, d.range.start.column + 1,
                  severityName(d.severity), d.message.c_str());
      if (!d.code.empty()) std::printf(" [%s]", d.code.c_str());
      std::printf("\n");
      for (const auto& r : d.related)
        std::printf("%s:%d:%d: note: %s\n", r.file.c_str(), r.range.start.line + 1, r.range.start.column + 1, r.message.c_str());
    }
  }
  if (format == "json") std::printf("%s\n", all.dump(2).c_str());
  return errors ? 1 : 0;
}

}  // namespace tlens::cli
