// tlens check [--format text|json] [--hints] [--budget-ms N] [--agreement] PATH...: abstract analysis,
// compiler-style diagnostics.
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "lang/tf/Agreement.h"
#include "lsp/analysis/Analyzer.h"
#include "tools/tlens/Commands.h"
#include "tools/tlens/ProgramRunner.h"

namespace tlens::cli {

namespace {

const char* severityName(interp::Severity s) {
  switch (s) {
    case interp::Severity::Error: return "error";
    case interp::Severity::Warning: return "warning";
    case interp::Severity::Information: return "info";
    case interp::Severity::Hint: return "hint";
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
  int budgetMs = 500;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--agreement") {
      agreement = true;
    } else if (args[i] == "--format") {
      if (i + 1 >= args.size()) throw std::invalid_argument("--format needs a value");
      format = args[++i];
    } else if (args[i] == "--budget-ms") {
      if (i + 1 >= args.size()) throw std::invalid_argument("--budget-ms needs a value");
      budgetMs = std::stoi(args[++i]);
      if (budgetMs < 0) throw std::invalid_argument("--budget-ms must be >= 0 (0: no limit)");
    } else if (args[i] == "--hints") {
      showHints = true;
    } else {
      paths.push_back(args[i]);
    }
  }
  if (paths.empty()) {
    std::fprintf(stderr, "usage: tlens check [--format text|json] [--hints] [--budget-ms N] [--agreement] PATH...\n");
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
    in.text = readFile(file);
    in.collectValues = false;
    in.timeBudgetMs = budgetMs;
    std::shared_ptr<const lsp::Snapshot> snap = lsp::analyze(in);
    for (const interp::Diagnostic& d : snap->diagnostics) {
      if (d.severity == interp::Severity::Error) errors = true;
      if (format == "json") {
        nlohmann::json j{{"file", d.file.empty() ? file : d.file},
                         {"line", d.start.line + 1},
                         {"column", d.start.column + 1},
                         {"endLine", d.end.line + 1},
                         {"endColumn", d.end.column + 1},
                         {"severity", severityName(d.severity)},
                         {"message", d.message},
                         {"code", d.code}};
        nlohmann::json rel = nlohmann::json::array();
        for (const auto& r : d.related)
          rel.push_back({{"file", r.file}, {"line", r.start.line + 1}, {"column", r.start.column + 1}, {"message", r.message}});
        j["related"] = rel;
        all.push_back(j);
        continue;
      }
      if (!showHints && d.severity == interp::Severity::Hint) continue;
      std::printf("%s:%d:%d: %s: %s", (d.file.empty() ? file : d.file).c_str(), d.start.line + 1, d.start.column + 1,
                  severityName(d.severity), d.message.c_str());
      if (!d.code.empty()) std::printf(" [%s]", d.code.c_str());
      std::printf("\n");
      for (const auto& r : d.related)
        std::printf("%s:%d:%d: note: %s\n", r.file.c_str(), r.start.line + 1, r.start.column + 1, r.message.c_str());
    }
  }
  if (format == "json") std::printf("%s\n", all.dump(2).c_str());
  return errors ? 1 : 0;
}

}  // namespace tlens::cli
