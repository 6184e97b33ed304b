// PyBridge: modules tensorlens does not model, imported from the user's own Python.
//
// Concrete mode only (tlens run, the debugger). `installPythonBridge` sets the interpreter's
// foreign importer (ModuleRegistry::setForeignImporter); nothing else happens until a program
// imports a module that neither the registry nor the file system has. Then, once per process:
//   1. the chosen Python (`--python PATH`, the debugger's `python` launch argument, default
//      `python3` on PATH) is asked, in a subprocess, for its version, sys.path and standard
//      library names;
//   2. libtlens_pybridge.so (built beside tlens when python3-dev and pybind11-dev are present,
//      the only part of tensorlens that links libpython) is dlopen()ed and starts an embedded
//      CPython with that sys.path, after checking that major.minor match the libpython it was
//      built with.
// `tlens`, `tlens check` and `tlens lsp` never link or load libpython: abstract mode never
// installs the bridge, so foreign modules stay unknown there.
//
// Values cross as proxies (PyProxy, a NativeObject holding a CPython object); None, bools, ints,
// floats, str, lists, tuples and dicts by value; numpy arrays of float16/32/64, int32/64, uint8
// and bool become tensorlens ndarrays (a copy) and tensorlens arrays/tensors become numpy arrays
// that share their buffer (no copy); the program's functions become CPython callables that run
// in the interpreter. Errors raised in CPython arrive as the nearest built-in exception class with
// the CPython traceback in the message.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "lang/interp/Interpreter.h"

namespace tlens::tf {
class TfRuntime;
}

namespace tlens::pybridge {

struct BridgeOptions {
  /// The Python whose environment (sys.path, site-packages, venv) modules come from.
  std::string python = "python3";
  /// The program's path: figures are written beside it as <stem>_figure<N>.png.
  std::string programPath;
};

/// What the chosen Python said about itself.
struct PythonEnv {
  std::string executable;   ///< sys.executable
  std::string version;      ///< "3.11"
  std::string fullVersion;  ///< "3.11.2"
  std::vector<std::string> path;         ///< sys.path (without the script directory)
  std::vector<std::string> stdlibNames;  ///< sys.stdlib_module_names
};

/// What the process says before it dies of a fatal signal raised in a C extension of the
/// embedded Python (a debug adapter's session: its last events). `pythonStack` is faulthandler's
/// report of the Python threads. Runs inside the signal handler: async-signal-safe code only.
using FatalSignalHook = void (*)(int sig, const char* pythonStack, size_t size);
/// Sets the process's hook (nullptr clears it); any thread, at any time.
void setFatalSignalHook(FatalSignalHook hook);

/// The interface the shared module implements (one per process; never unloaded).
class Bridge {
 public:
  virtual ~Bridge() = default;
  /// major.minor of the libpython the module was built against ("3.11").
  virtual std::string builtVersion() const = 0;
  /// Where the module's crash handler finds the host's FatalSignalHook (set before start()).
  virtual void setFatalSignalHookSlot(const std::atomic<FatalSignalHook>* slot) = 0;
  /// Starts CPython for `env` (once). Returns an error message, empty on success.
  virtual std::string start(const PythonEnv& env) = 0;
  /// Imports `name` in CPython as a module proxy; raises ModuleNotFoundError / the import's
  /// exception in the program.
  virtual std::shared_ptr<interp::ModuleObj> import(interp::Interpreter& in, tf::TfRuntime& rt, const std::string& name,
                                                    const BridgeOptions& o) = 0;
  /// End of a run: writes matplotlib figures still open as PNG files, releases the run's state.
  virtual void finish(interp::Interpreter& in, const BridgeOptions& o) = 0;
};

/// The shared module's entry point (extern "C" tlens_pybridge_create).
using CreateFn = Bridge* (*)();

/// Concrete mode: lets `in` import modules from the user's Python. Call after installTensorFlow.
/// Returns a handle whose destruction (or finishPythonBridge) ends the run's use of the bridge.
void installPythonBridge(interp::Interpreter& in, tf::TfRuntime& rt, BridgeOptions o);
/// Writes open matplotlib figures (if the program used the bridge). Call after the run.
void finishPythonBridge(interp::Interpreter& in);

/// Asks `python` about itself (a subprocess). Throws std::runtime_error with a clear message
/// when it cannot be run.
PythonEnv queryPython(const std::string& python);
/// Where libtlens_pybridge.so is looked for: beside the running executable, then the build
/// directory it was built in.
std::vector<std::string> bridgeLibraryCandidates();
/// Whether this process has loaded libtlens_pybridge.so (tests: the language server never does).
bool bridgeLoaded();

}  // namespace tlens::pybridge
