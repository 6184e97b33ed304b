// The part of the Python bridge linked into tlens: finds the user's Python, loads
// libtlens_pybridge.so on the first foreign import, and routes imports to it. No libpython here.
#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "lang/pybridge/PyBridge.h"

namespace tlens::pybridge {

namespace {

struct Process {
  std::mutex mu;
  bool tried = false;
  std::string python;  // the Python the bridge started with
  std::string error;   // why the bridge cannot be used (empty when it can)
  PythonEnv env;
  Bridge* bridge = nullptr;
};

std::atomic<FatalSignalHook>& fatalSignalHook() {
  static std::atomic<FatalSignalHook> hook{nullptr};
  return hook;
}

Process& process() {
  static Process* p = new Process;  // never destroyed: CPython is never finalised
  return *p;
}

std::string shellQuote(const std::string& s) {
  std::string r = "'";
  for (char c : s) r += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return r + "'";
}

const char* kQuery =
    "import sys, json; print(json.dumps({'executable': sys.executable, "
    "'version': '%d.%d' % sys.version_info[:2], 'full': '%d.%d.%d' % sys.version_info[:3], "
    "'path': [p for p in sys.path if p], 'stdlib': sorted(getattr(sys, 'stdlib_module_names', []))}))";

std::string dirOfExe() {
  char buf[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "";
  return std::filesystem::path(std::string(buf, static_cast<size_t>(n))).parent_path().string();
}

// Loads the shared module and starts CPython for `python`, once per process.
Bridge* ensureBridge(const std::string& python, std::string& error) {
  Process& p = process();
  std::lock_guard<std::mutex> lock(p.mu);
  if (p.tried) {
    if (p.python != python && p.error.empty()) {
      error = "the embedded Python was started with " + p.python + " and cannot change to " + python + " in this process";
      return nullptr;
    }
    error = p.error;
    return p.bridge;
  }
  p.tried = true;
  p.python = python;
  try {
    p.env = queryPython(python);
  } catch (const std::exception& e) {
    p.error = e.what();
    error = p.error;
    return nullptr;
  }
  void* handle = nullptr;
  std::string dlErrors;
  for (const std::string& cand : bridgeLibraryCandidates()) {
    if (!std::filesystem::exists(cand)) continue;
    // RTLD_GLOBAL: C extension modules (numpy's) resolve libpython's symbols globally.
    handle = dlopen(cand.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (handle) break;
    const char* e = dlerror();
    dlErrors += std::string("; ") + (e ? e : cand);
  }
  if (!handle) {
    p.error = "this tensorlens was built without the Python bridge (libtlens_pybridge.so not found: the build needs python3-dev and pybind11-dev)" + dlErrors;
    error = p.error;
    return nullptr;
  }
  auto create = reinterpret_cast<CreateFn>(dlsym(handle, "tlens_pybridge_create"));
  if (!create) {
    p.error = "libtlens_pybridge.so has no entry point";
    error = p.error;
    return nullptr;
  }
  Bridge* b = create();
  b->setFatalSignalHookSlot(&fatalSignalHook());
  if (b->builtVersion() != p.env.version) {
    p.error = "Python " + p.env.fullVersion + " (" + python + ") does not match the Python " + b->builtVersion() +
              " tensorlens' bridge was built with; pass --python with a Python " + b->builtVersion();
    error = p.error;
    return nullptr;
  }
  std::string startError = b->start(p.env);
  if (!startError.empty()) {
    p.error = "the embedded Python could not start: " + startError;
    error = p.error;
    return nullptr;
  }
  p.bridge = b;
  return b;
}

struct RunState {
  interp::Interpreter* in;
  BridgeOptions opts;
  bool used = false;
};

std::mutex runsMu;
std::map<interp::Interpreter*, std::weak_ptr<RunState>>& runs() {
  static auto* m = new std::map<interp::Interpreter*, std::weak_ptr<RunState>>;
  return *m;
}

}  // namespace

std::vector<std::string> bridgeLibraryCandidates() {
  std::vector<std::string> c;
  if (const char* env = std::getenv("TLENS_PYBRIDGE")) c.push_back(env);
  std::string dir = dirOfExe();
  if (!dir.empty()) c.push_back(dir + "/libtlens_pybridge.so");
#ifdef TLENS_PYBRIDGE_BUILD_DIR
  c.push_back(std::string(TLENS_PYBRIDGE_BUILD_DIR) + "/libtlens_pybridge.so");
#endif
  return c;
}

bool bridgeLoaded() {
  Process& p = process();
  std::lock_guard<std::mutex> lock(p.mu);
  return p.bridge != nullptr;
}

namespace {
int runShell(const std::string& cmd, std::string& out) {
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) return -1;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  int status = pclose(f);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return status;
}
}  // namespace

PythonEnv queryPython(const std::string& python) {
  std::string cmd = shellQuote(python) + " -c " + shellQuote(kQuery);
  std::string out;
  int status = runShell(cmd + " 2>/dev/null", out);  // the answer on stdout only
  if (status != 0) {
    out.clear();
    runShell(cmd + " 2>&1 >/dev/null", out);  // what it said on stderr, for the message
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::string why = code == 127 ? "not found" : "exit status " + std::to_string(code);
    if (!out.empty() && out.size() < 400) why += ": " + out;
    throw std::runtime_error("the Python '" + python + "' could not be run (" + why + ")");
  }
  // The JSON is the last line (site customisations may print before it).
  size_t nl = out.rfind('\n');
  nlohmann::json j = nlohmann::json::parse(nl == std::string::npos ? out : out.substr(nl + 1), nullptr, false);
  if (!j.is_object()) throw std::runtime_error("the Python '" + python + "' did not answer as a Python 3 does: " + out.substr(0, 200));
  PythonEnv e;
  e.executable = j.value("executable", python);
  e.version = j.value("version", "");
  e.fullVersion = j.value("full", e.version);
  for (const auto& s : j["path"]) e.path.push_back(s.get<std::string>());
  for (const auto& s : j["stdlib"]) e.stdlibNames.push_back(s.get<std::string>());
  return e;
}

void installPythonBridge(interp::Interpreter& in, tf::TfRuntime& rt, BridgeOptions o) {
  if (in.isAbstract()) return;  // abstract mode never runs anything in CPython
  auto state = std::make_shared<RunState>(RunState{&in, std::move(o)});
  {
    std::lock_guard<std::mutex> lock(runsMu);
    runs()[&in] = state;
  }
  std::shared_ptr<void> unregister(nullptr, [ip = &in](void*) {
    std::lock_guard<std::mutex> lock(runsMu);
    runs().erase(ip);
  });
  in.attach(state);
  in.attach(unregister);
  in.modules().setForeignImporter([st = state.get(), rt = &rt](interp::Interpreter& in, const std::string& name)
                                      -> std::shared_ptr<interp::ModuleObj> {
    std::string top = name.substr(0, name.find('.'));
    std::string error;
    Bridge* b = ensureBridge(st->opts.python, error);
    if (!b) in.raise("ModuleNotFoundError", "No module named '" + name + "': tensorlens does not model it and " + error);
    const PythonEnv& env = process().env;
    for (const std::string& s : env.stdlibNames)
      if (s == top)
        in.raise("ModuleNotFoundError", "No module named '" + name + "': a standard-library module tensorlens does not model (it is not taken from " +
                                            env.executable + ")");
    st->used = true;
    return b->import(in, *rt, name, st->opts);
  });
}

void finishPythonBridge(interp::Interpreter& in) {
  std::shared_ptr<RunState> st;
  {
    std::lock_guard<std::mutex> lock(runsMu);
    auto it = runs().find(&in);
    if (it != runs().end()) st = it->second.lock();
  }
  if (!st || !st->used) return;
  Bridge* b;
  {
    std::lock_guard<std::mutex> lock(process().mu);
    b = process().bridge;
  }
  if (b) b->finish(in, st->opts);
}

void setFatalSignalHook(FatalSignalHook hook) { fatalSignalHook().store(hook); }

}  // namespace tlens::pybridge
