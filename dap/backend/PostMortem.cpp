// The post-mortem stop (PostMortem.h).
#include "dap/backend/PostMortem.h"

namespace tlens::dap {
namespace {

bool contains(const std::string& s, const char* what) { return s.find(what) != std::string::npos; }

}  // namespace

std::string exceptionFilter(const interp::ExceptionReport& e) {
  if (contains(e.type, "Assertion") || contains(e.message, "assertion failed") || contains(e.message, "Assertion"))
    return "assert";
  for (const std::string* s : {&e.type, &e.message})
    if (contains(*s, "shape") || contains(*s, "Shape") || contains(*s, "Dimensions") || contains(*s, "dimension") ||
        contains(*s, "dtype"))
      return "shape_error";
  return "uncaught";
}

std::optional<PostMortemStop> postMortemStop(const interp::Diagnostic& d) {
  const interp::ExceptionReport& e = d.exception;
  if (e.empty()) return std::nullopt;
  PostMortemStop out;
  out.filter = exceptionFilter(e);
  std::vector<FrameInfo> all;
  for (auto it = e.traceback.rbegin(); it != e.traceback.rend(); ++it) {
    FrameInfo f;
    f.kind = FrameInfo::Kind::Traceback;
    f.name = it == e.traceback.rbegin() ? "<raised here>" : it->function;
    f.path = it->file;
    f.line = it->line;
    f.column = it->column;
    all.push_back(std::move(f));
  }
  if (all.empty()) {  // raised before any frame ran: the diagnostic's place
    FrameInfo f;
    f.kind = FrameInfo::Kind::Traceback;
    f.name = "<raised here>";
    f.path = d.file;
    f.line = d.start.line + 1;
    f.column = d.start.column + 1;
    all.push_back(std::move(f));
  }
  for (const FrameInfo& f : all)
    if (!f.path.empty() && f.path[0] != '<') out.traceback.push_back(f);
  if (out.traceback.empty()) out.traceback = all;
  out.exception = ExceptionDetails{out.filter, e.summary(), e.type, {}};
  out.stop.reason = StopReason::Exception;
  out.stop.description = "Uncaught " + e.type;
  out.stop.text = e.summary();
  return out;
}

}  // namespace tlens::dap
