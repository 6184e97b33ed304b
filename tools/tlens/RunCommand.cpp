// tlens run [--check-numerics] [--log-device-placement] [--device cpu|gpu] [--virtual-gpus N] [--mode auto|eager|graph]
//           [--dump DIR] [--listen PORT] [--python PATH] prog.py [args...]
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "engine/runtime/DebugHooks.h"
#include "engine/runtime/Numerics.h"
#include "dap/session/DapSession.h"
#include "protocol/Channel.h"
#include "tools/tlens/ParseNumber.h"
#include "tools/tlens/Allocator.h"
#include "tools/tlens/Commands.h"
#include "lang/syntax/SourceFile.h"
#include "lang/syntax/SourceText.h"
#include "tools/tlens/ProgramRunner.h"
#include "lang/pybridge/PyBridge.h"

namespace tlens::cli {

namespace {

/// --dump: one JSON line per node output and run, in DIR/run-<n>.jsonl.
class DumpHooks : public DebugHooks {
 public:
  explicit DumpHooks(std::string dir) : dir_(std::move(dir)) { std::filesystem::create_directories(dir_); }
  void runStarted(const std::vector<const Node*>&) override {
    out_.close();
    out_.open(dir_ + "/run-" + std::to_string(++runs_) + ".jsonl");
    step_ = 0;
  }
  HookAction afterNode(const NodeEvent& e) override {
    if (!out_.is_open()) runStarted({});
    if (!e.outputs) return HookAction::Continue;
    for (size_t i = 0; i < e.outputs->size(); ++i) {
      const Tensor& t = (*e.outputs)[i];
      if (!t.valid()) continue;
      nlohmann::json j;
      j["step"] = step_;
      j["node"] = *e.name + ":" + std::to_string(i);
      j["op"] = e.op->type;
      j["device"] = e.device.str();
      j["type"] = t.typeStr();
      if (e.location && e.location->known()) j["source"] = e.location->str();
      if (isNumeric(t.dtype()) || t.dtype() == DType::Bool) {
        TensorSummary s = summarize(t);
        j["min"] = s.min, j["max"] = s.max, j["mean"] = s.mean, j["std"] = s.std;
        j["nan"] = s.nan, j["inf"] = s.posInf + s.negInf, j["zero"] = s.zero;
      }
      out_ << j.dump() << "\n";
    }
    ++step_;
    return HookAction::Continue;
  }
  void runFinished(bool) override { out_.flush(); }

 private:
  std::string dir_;
  std::ofstream out_;
  int runs_ = 0;
  int64_t step_ = 0;
};

/// A connection's channel that notes whether the client sent `attach`: only a session that
/// attached ran the program. A bare connect-and-close (a port scan) or a client that left before
/// attaching must not end the job, which keeps waiting for a real debugger.
class AttachWatch : public protocol::Channel {
 public:
  explicit AttachWatch(protocol::Channel& inner) : inner_(inner) { inner_.onError = [this](const std::string& e) { if (onError) onError(e); }; }
  std::optional<std::string> read() override {
    std::optional<std::string> body = inner_.read();
    if (body && !attached_) {
      nlohmann::json m = nlohmann::json::parse(*body, nullptr, false);
      if (m.is_object() && m.value("type", "") == "request" && m.value("command", "") == "attach") attached_ = true;
    }
    return body;
  }
  void write(std::string_view body) override { inner_.write(body); }
  void close() override { inner_.close(); }
  bool attached() const { return attached_; }

 private:
  protocol::Channel& inner_;
  std::atomic<bool> attached_{false};
};

/// --listen PORT: wait on 127.0.0.1:PORT for one debugger (DAP `attach`), then run the program
/// under it, so a job on a remote machine is debugged through an SSH tunnel to that port.
int runUnderDebugger(const ProgramOptions& o, int port) {
  dap::LaunchConfig c;
  c.program = std::filesystem::absolute(o.path).string();
  c.args = o.argv;
  c.mode = o.style;
  c.python = o.python;
  c.checkNumerics = true;  // the nan_inf filter needs it; the client's filters decide what stops
  c.devices = o.tf.devices;
  protocol::serveTcp(
      port,
      [&](protocol::Channel& ch) {
        AttachWatch watched(ch);
        {
          dap::DapSession session(watched);
          session.setAttachTarget(c);
          session.run();
        }
        return !watched.attached();  // one debugger, one run; anything else waits for the next
      },
      [&](int actual) {
        std::fprintf(stderr, "tlens run: waiting for a debugger to attach on 127.0.0.1:%d\n", actual);
        std::fflush(stderr);
      });
  return 0;  // the program's own exit status went to the debugger (the `exited` event)
}

}  // namespace

/// Ctrl-C: the first SIGINT becomes KeyboardInterrupt at the program's next statement (so its
/// `except KeyboardInterrupt` and `finally` blocks run and its files are flushed and closed, as
/// with CPython); a second one before the first was delivered (the program is inside a long
/// native call) ends the process at once.
static std::atomic<bool> gInterrupt{false};

static void onSigint(int) {
  if (gInterrupt.exchange(true)) {
    static const char msg[] = "\nKeyboardInterrupt\n";
    ssize_t ignored = write(2, msg, sizeof msg - 1);
    (void)ignored;
    _exit(130);
  }
}

int runCommand(const Args& args) {
  useComputeAllocatorSettings();
  SplitArgs s = splitProgramArgs(args);
  if (s.program.empty()) {
    std::fprintf(stderr, "usage: tlens run [--check-numerics] [--log-device-placement] [--device cpu|gpu] [--virtual-gpus N] "
                         "[--mode auto|eager|graph] [--dump DIR] [--listen PORT] [--python PATH] prog.py [args...]\n");
    return 2;
  }
  ProgramOptions o;
  o.path = s.program;
  o.argv = s.programArgs;
  std::unique_ptr<DumpHooks> dump;
  int listenPort = -1;
  for (size_t i = 0; i < s.flags.size(); ++i) {
    const std::string& f = s.flags[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= s.flags.size()) throw std::invalid_argument(f + " needs a value");
      return s.flags[++i];
    };
    if (f == "--check-numerics") o.tf.checkNumerics = true;
    else if (f == "--log-device-placement") o.tf.logDevicePlacement = true;
    else if (f == "--mode") o.style = value();
    else if (f == "--python") o.python = value();  // modules tensorlens does not model come from it
    else if (parseDeviceFlag(f, value, o.tf)) {
    } else if (f == "--listen") {
      listenPort = parsePortArg("--listen", value());
    } else if (f == "--dump") {
      dump = std::make_unique<DumpHooks>(value());
      o.tf.hooks = dump.get();
    } else {
      throw std::invalid_argument("unknown option " + f);
    }
  }
  if (listenPort >= 0) {
    // Refused before waiting for a debugger, not after one attached.
    lang::SourceFile file(o.path, readFile(o.path));
    if (std::string report = lang::syntaxErrorReport(file); !report.empty()) {
      std::fputs(report.c_str(), stderr);
      return 1;
    }
    return runUnderDebugger(o, listenPort);
  }
  o.interrupt = &gInterrupt;
  struct sigaction sa {};
  sa.sa_handler = onSigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  LoadedProgram p = loadProgram(o);
  // A file that does not parse does not run, as with CPython.
  if (std::string report = lang::syntaxErrorReport(*p.file); !report.empty()) {
    std::fputs(report.c_str(), stderr);
    return 1;
  }
  int status = p.interp->run(p.file);
  pybridge::finishPythonBridge(*p.interp);  // matplotlib figures still open become PNG files
  return status;
}

}  // namespace tlens::cli
