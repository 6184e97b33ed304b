// Runs Python snippets with the tensorflow and numpy modules installed, in concrete or abstract
// mode, and reads back the static types of the globals they bind.
#pragma once

#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <memory>
#include <string>

#include "lang/interp/Interpreter.h"
#include "lang/tf/TensorObj.h"
#include "lang/tf/TfRuntime.h"
#include "lang/tf/exec/KernelExecution.h"

namespace tlens::tf::testing {

struct TfRun {
  std::unique_ptr<interp::Interpreter> interp;
  std::shared_ptr<TfRuntime> runtime;
  int status = 0;
  std::string out, err;

  /// The static type of global `name` ("float32[?, 256]"), or "<not a tensor>".
  std::string type(const std::string& name) const {
    interp::Value v = interp->mainModule()->get(name);
    auto* t = dynamic_cast<TensorObj*>(v.get());
    return t ? describeType(t->type) : "<not a tensor>";
  }
  std::string repr(const std::string& name) const {
    interp::Value v = interp->mainModule()->get(name);
    return v ? interp->repr(v) : "<unbound: " + name + ">";
  }
  /// How many of the run's diagnostics are errors.
  int errorCount() const {
    int n = 0;
    for (const auto& d : interp->diagnostics())
      if (d.severity == interp::Severity::Error) ++n;
    return n;
  }
  std::string diagnostics() const {
    std::string s;
    for (const auto& d : interp->diagnostics()) s += interp::format(d) + "\n";
    return s;
  }
};

inline TfRun runTf(const std::string& source, interp::Mode mode = interp::Mode::Concrete,
                   std::optional<ApiStyle> style = std::nullopt, TfOptions options = {}) {
  TfRun r;
  interp::InterpOptions o;
  o.mode = mode;
  o.timeBudgetMs = 0;
  o.out = [&r](std::string_view s) { r.out += s; };
  o.err = [&r](std::string_view s) { r.err += s; };
  r.interp = std::make_unique<interp::Interpreter>(o);
  options.style = style ? *style : detectApiStyle(source);
  if (!options.execution) options.execution = &kernelExecution();
  r.runtime = installTensorFlow(*r.interp, options);
  r.status = r.interp->runSource("main.py", source);
  return r;
}

/// An empty directory of its own under the system's temp directory, for a test that writes files.
inline std::string freshTempDir(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() / ("tlens-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

}  // namespace tlens::tf::testing
