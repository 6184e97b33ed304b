// ProgramRunner: loads a Python program and runs it through the interpreter with the tensorflow
// and numpy modules installed, in concrete mode (tlens run, tlens graph) or abstract mode
// (tlens check). Shared by the subcommands; the debugger and the language server set up their
// interpreters the same way (lang/tf/TfRuntime.h).
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "lang/interp/Interpreter.h"
#include "lang/tf/TfRuntime.h"

namespace tlens::cli {

struct ProgramOptions {
  std::string path;
  std::vector<std::string> argv;
  interp::Mode mode = interp::Mode::Concrete;
  tf::TfOptions tf;
  /// "auto" (detectApiStyle), "graph" or "eager".
  std::string style = "auto";
  /// Output sinks; stdout/stderr when unset.
  std::function<void(std::string_view)> out, err;
  int timeBudgetMs = 500;
  /// Concrete mode: the Python whose modules a program may import when tensorlens does not model
  /// them (lang/pybridge).
  std::string python = "python3";
  /// Concrete mode: set by a SIGINT handler; the program sees KeyboardInterrupt (InterpOptions).
  std::atomic<bool>* interrupt = nullptr;
};

struct LoadedProgram {
  std::unique_ptr<interp::Interpreter> interp;
  std::shared_ptr<tf::TfRuntime> runtime;
  std::shared_ptr<const lang::SourceFile> file;
};

/// The file's bytes; throws std::runtime_error when it cannot be read.
std::string readFile(const std::string& path);

/// Reads the file (throws std::runtime_error when it cannot) and prepares an interpreter.
LoadedProgram loadProgram(const ProgramOptions& o);

/// Splits `args` at the first argument that ends in ".py": flags before it, then the program
/// path, then the program's own arguments.
struct SplitArgs {
  std::vector<std::string> flags;
  std::string program;
  std::vector<std::string> programArgs;
};
SplitArgs splitProgramArgs(const std::vector<std::string>& args);

/// The device flags shared by the subcommands: `--device cpu|gpu` (cpu hides the machine's GPUs)
/// and `--virtual-gpus N` (N GPUs of host memory instead of the machine's, so placement and
/// copies between devices can be tried without a GPU). Returns false when `flag` is neither;
/// `value` yields the flag's argument (throws when it is missing).
bool parseDeviceFlag(const std::string& flag, const std::function<std::string()>& value, tf::TfOptions& o);
inline constexpr const char* kDeviceFlagsUsage = "[--device cpu|gpu] [--virtual-gpus N]";

}  // namespace tlens::cli
