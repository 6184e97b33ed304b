// The debugger (`tlens_bench dap`): a real DapSession over an in-memory channel pair, timed as an
// editor would see it, each number next to a baseline measured in the same run.
//   - launch to the first stop (a breakpoint in the MLP example, `tlens dap` started fresh as an
//     editor starts it) against `tlens run` of the program up to that line, also a fresh process;
//   - stackTrace / scopes / variables latency (p50, p99) at a node stop, against `threads` (a
//     request the DAP thread answers without the program thread);
//   - a 10^8-element tensor (10^7 with --quick): its summary line and each expansion, against one
//     plain pass over its buffer;
//   - the run-time overhead of breakpoints that are set but never hit, and of nan_inf, on the
//     engine's MLP training step (precise, alternating trials) and on the MLP example run under
//     the debugger (its training loop timed by the program). Target <= 3% each.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "BenchUtil.h"
#include "dap/session/DapSession.h"
#include "engine/runtime/ThreadPool.h"
#include "lang/interp/Interpreter.h"
#include "lang/syntax/SourceFile.h"
#include "lang/tf/TfRuntime.h"
#include "lang/tf/exec/KernelExecution.h"
#include "protocol/Channel.h"
#include "tools/workloads/Mlp.h"

#ifndef TLENS_SOURCE_DIR
#define TLENS_SOURCE_DIR "."
#endif

namespace tlens::bench {

namespace {

using json = nlohmann::json;

/// A DAP client over protocol::channelPair() driving a DapSession on its own thread.
class BenchClient {
 public:
  BenchClient() {
    auto [server, client] = protocol::channelPair();
    server_ = std::move(server);
    client_ = std::move(client);
    session_ = std::make_unique<dap::DapSession>(*server_);
    thread_ = std::thread([this] { session_->run(); });
    reader_ = std::thread([this] {
      while (std::optional<std::string> body = client_->read()) {
        json m = json::parse(*body);
        std::lock_guard<std::mutex> lk(mu_);
        if (m["type"] == "event" && m["event"] == "output") output_ += m["body"]["output"].get<std::string>();
        else inbox_.push_back(std::move(m));
        cv_.notify_all();
      }
      std::lock_guard<std::mutex> lk(mu_);
      closed_ = true;
      cv_.notify_all();
    });
  }
  ~BenchClient() {
    request("disconnect");
    client_->close();
    server_->close();
    thread_.join();
    reader_.join();
  }
  json request(const std::string& command, json args = json::object()) {
    const int seq = seq_++;
    client_->write(json{{"seq", seq}, {"type", "request"}, {"command", command}, {"arguments", std::move(args)}}.dump());
    return wait([&](const json& m) { return m["type"] == "response" && m["request_seq"] == seq; });
  }
  json event(const std::string& name) {
    return wait([&](const json& m) { return m["type"] == "event" && m["event"] == name; });
  }
  std::string output() {
    std::lock_guard<std::mutex> lk(mu_);
    return output_;
  }
  /// initialize + launch + breakpoints + configurationDone.
  void start(const std::string& program, json launch, const std::vector<int>& lines, const std::vector<std::string>& functions,
             const std::vector<std::string>& filters) {
    request("initialize", {{"adapterID", "tlens"}});
    event("initialized");
    launch["program"] = program;
    request("launch", launch);
    json bps = json::array();
    for (int l : lines) bps.push_back({{"line", l}});
    if (!lines.empty()) request("setBreakpoints", {{"source", {{"path", program}}}, {"breakpoints", bps}});
    json fbs = json::array();
    for (const std::string& f : functions) fbs.push_back({{"name", f}});
    if (!functions.empty()) request("setFunctionBreakpoints", {{"breakpoints", fbs}});
    request("setExceptionBreakpoints", {{"filters", filters}});
    request("configurationDone");
  }

 private:
  template <class Pred>
  json wait(Pred pred) {
    std::unique_lock<std::mutex> lk(mu_);
    for (;;) {
      for (auto it = inbox_.begin(); it != inbox_.end(); ++it)
        if (pred(*it)) {
          json m = std::move(*it);
          inbox_.erase(it);
          return m;
        }
      // Events not waited for stay queued; wait for something new.
      const size_t seen = inbox_.size();
      if (closed_ || !cv_.wait_for(lk, std::chrono::minutes(5), [&] { return closed_ || inbox_.size() != seen; }))
        return json();
    }
  }

  std::unique_ptr<protocol::Channel> server_, client_;
  std::unique_ptr<dap::DapSession> session_;
  std::thread thread_, reader_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<json> inbox_;
  std::string output_;
  bool closed_ = false;
  int seq_ = 1;
};

/// `tlens dap` in a fresh process over pipes, as an editor starts it.
class ProcessClient {
 public:
  explicit ProcessClient(const std::string& tlens) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) throw std::runtime_error("pipe failed");
    pid_ = fork();
    if (pid_ == 0) {
      dup2(in[0], 0);
      dup2(out[1], 1);
      int devnull = open("/dev/null", O_WRONLY);
      dup2(devnull, 2);
      close(in[1]);
      close(out[0]);
      execl(tlens.c_str(), tlens.c_str(), "dap", static_cast<char*>(nullptr));
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_ = in[1];
    from_ = out[0];
  }
  ~ProcessClient() {
    if (to_ >= 0) close(to_);
    int status = 0;
    kill(pid_, SIGKILL);
    waitpid(pid_, &status, 0);
    close(from_);
  }
  json request(const std::string& command, json args = json::object()) {
    const int seq = seq_++;
    const std::string frame = protocol::encodeFrame(json{{"seq", seq}, {"type", "request"}, {"command", command}, {"arguments", std::move(args)}}.dump());
    if (write(to_, frame.data(), frame.size()) != static_cast<ssize_t>(frame.size())) throw std::runtime_error("write failed");
    return until([&](const json& m) { return m["type"] == "response" && m["request_seq"] == seq; });
  }
  json event(const std::string& name) {
    return until([&](const json& m) { return m["type"] == "event" && m["event"] == name; });
  }

 private:
  template <class Pred>
  json until(Pred pred) {
    for (auto it = kept_.begin(); it != kept_.end(); ++it)
      if (pred(*it)) {
        json m = *it;
        kept_.erase(it);
        return m;
      }
    char buf[65536];
    for (;;) {
      while (std::optional<std::string> body = decoder_.next()) {
        json m = json::parse(*body);
        if (pred(m)) return m;
        if (m["type"] != "event" || m["event"] != "output") kept_.push_back(std::move(m));
      }
      const ssize_t n = read(from_, buf, sizeof buf);
      if (n <= 0) throw std::runtime_error("tlens dap ended");
      decoder_.feed(std::string_view(buf, static_cast<size_t>(n)));
    }
  }
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
  int seq_ = 1;
  protocol::FrameDecoder decoder_;
  std::deque<json> kept_;
};

/// Wall seconds of `tlens run path` in a fresh process.
double runProcess(const std::string& tlens, const std::string& path) {
  const double t0 = now();
  pid_t pid = fork();
  if (pid == 0) {
    int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, 1);
    dup2(devnull, 2);
    execl(tlens.c_str(), tlens.c_str(), "run", path.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return now() - t0;
}

std::string tlensBinary() {
  return (std::filesystem::read_symlink("/proc/self/exe").parent_path() / "tlens").string();
}

std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string writeTemp(const std::string& name, const std::string& text) {
  auto dir = std::filesystem::temp_directory_path() / "tlens_dap_bench";
  std::filesystem::create_directories(dir);
  std::string path = (dir / name).string();
  std::ofstream(path) << text;
  return path;
}

int lineOf(const std::string& text, const std::string& needle) {
  std::istringstream in(text);
  std::string l;
  for (int n = 1; std::getline(in, l); ++n)
    if (l.find(needle) != std::string::npos) return n;
  return 0;
}

/// Runs a program without a debugger (as `tlens run` does); returns seconds.
double runPlain(const std::string& path, std::string* out = nullptr) {
  auto file = std::make_shared<lang::SourceFile>(path, readFile(path));
  const double t0 = now();
  interp::InterpOptions io;
  io.workspaceRoots.push_back(std::filesystem::path(path).parent_path().string());
  io.out = [out](std::string_view s) {
    if (out) out->append(s);
  };
  io.err = [](std::string_view) {};
  interp::Interpreter in(io);
  tf::TfOptions to;
  to.style = tf::detectApiStyle(file->text());
  to.execution = &tf::kernelExecution();
  auto rt = tf::installTensorFlow(in, to);
  in.run(file);
  return now() - t0;
}

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

double median(std::vector<double> v) { return percentile(std::move(v), 0.5); }

/// The MLP example with its training loop timed by the program ("LOOP <seconds>") and a line
/// that never runs (for breakpoints that are set but never hit).
std::string timedExample(int steps) {
  std::string s = readFile(std::string(TLENS_SOURCE_DIR) + "/examples/mnist_mlp_tf1.py");
  auto replace = [&](const std::string& a, const std::string& b) {
    const size_t p = s.find(a);
    if (p == std::string::npos) throw std::runtime_error("bench: the MLP example changed: no '" + a + "'");
    s.replace(p, a.size(), b);
  };
  replace("import tensorflow as tf\n", "import time\nimport tensorflow as tf\n");
  replace("training_steps = 200", "training_steps = " + std::to_string(steps));
  replace("    for step in range(1, training_steps + 1):\n",
          "    _t0 = time.process_time()\n    for step in range(1, training_steps + 1):\n"
          "        if step < 0:\n            print(\"never\")\n");
  replace("    print(\"Optimization finished\")", "    print(\"LOOP %.6f\" % (time.process_time() - _t0))\n    print(\"Optimization finished\")");
  return s;
}

double loopSeconds(const std::string& output) {
  const size_t p = output.find("LOOP ");
  return p == std::string::npos ? -1 : std::stod(output.substr(p + 5));
}

double cpuNow() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

/// timePair on process CPU time: on a loaded machine, what others run does not count. Used with
/// one intra-op thread, so it is the work of one step.
std::pair<double, double> cpuPair(const std::function<void()>& a, const std::function<void()>& b, int iters, int trials) {
  std::vector<double> ta, tb;
  a();
  b();
  for (int k = 0; k < trials; ++k) {
    double s = cpuNow();
    for (int i = 0; i < iters; ++i) a();
    ta.push_back((cpuNow() - s) / iters);
    s = cpuNow();
    for (int i = 0; i < iters; ++i) b();
    tb.push_back((cpuNow() - s) / iters);
  }
  return {median(ta), median(tb)};
}

struct NullEvents : dap::DebuggerEvents {
  void stopped(const dap::StopInfo&) override {}
  void output(const std::string&, const std::string&) override {}
  void exited(int) override {}
};

void launchToStop(bool quick) {
  std::printf("\n== launch to first stop: MLP example, breakpoint at sess.run(init); fresh processes ==\n");
  const std::string tlens = tlensBinary();
  if (!std::filesystem::exists(tlens)) {
    std::printf("skipped: no %s (build the tlens target)\n", tlens.c_str());
    return;
  }
  const std::string text = timedExample(5);
  const std::string path = writeTemp("mlp_stop.py", text);
  // The program up to that line: what `tlens run` does before the debugger's first stop.
  const std::string prefix = writeTemp("mlp_prefix.py", text.substr(0, text.find("with tf.Session() as sess:")));
  const int line = lineOf(text, "sess.run(init)");
  std::vector<double> plain, dbg, dbgNoCheck;
  for (int k = 0; k < (quick ? 2 : 7); ++k) {
    plain.push_back(runProcess(tlens, prefix));
    for (bool check : {true, false}) {
      const double t0 = now();
      ProcessClient c(tlens);
      c.request("initialize", {{"adapterID", "tlens"}});
      c.request("launch", {{"program", path}, {"checkNumerics", check}});
      c.request("setBreakpoints", {{"source", {{"path", path}}}, {"breakpoints", {{{"line", line}}}}});
      c.request("setExceptionBreakpoints", {{"filters", check ? json::array({"nan_inf"}) : json::array()}});
      c.request("configurationDone");
      c.event("stopped");
      (check ? dbg : dbgNoCheck).push_back(now() - t0);
    }
  }
  const double base = median(plain);
  std::printf("tlens run of the program up to that line   %8.1f ms\n", base * 1e3);
  std::printf("tlens dap: start, launch -> stopped event  %8.1f ms   ratio %.2fx\n", median(dbg) * 1e3, median(dbg) / base);
  std::printf("  the same, checkNumerics off              %8.1f ms   ratio %.2fx\n", median(dbgNoCheck) * 1e3,
              median(dbgNoCheck) / base);
}

void inspectLatency(bool quick) {
  std::printf("\n== request latency at a node stop (fc2/MatMul of the MLP example), round trip ==\n");
  const std::string path = writeTemp("mlp_inspect.py", timedExample(3));
  BenchClient c;
  c.start(path, json::object(), {}, {"fc2/MatMul"}, {"nan_inf"});
  c.event("stopped");
  const int n = quick ? 50 : 300;
  auto measure = [&](const std::function<void()>& f) {
    std::vector<double> t;
    for (int i = 0; i < n; ++i) {
      const double s = now();
      f();
      t.push_back(now() - s);
    }
    return t;
  };
  auto base = measure([&] { c.request("threads"); });
  auto stack = measure([&] { c.request("stackTrace", {{"threadId", 1}}); });
  int nodeRef = 0, runRef = 0, globalsRef = 0;
  auto scopes = measure([&] {
    json r = c.request("scopes", {{"frameId", 0}});
    for (const json& s : r["body"]["scopes"]) {
      if (s["name"] == "Node") nodeRef = s["variablesReference"];
      if (s["name"] == "Run") runRef = s["variablesReference"];
      if (s["name"] == "Globals") globalsRef = s["variablesReference"];
    }
  });
  auto node = measure([&] { c.request("variables", {{"variablesReference", nodeRef}}); });
  auto run = measure([&] { c.request("variables", {{"variablesReference", runRef}}); });
  auto globals = measure([&] { c.request("variables", {{"variablesReference", globalsRef}}); });
  const size_t runSize = c.request("variables", {{"variablesReference", runRef}})["body"]["variables"].size();
  const double b50 = percentile(base, 0.5);
  auto row = [&](const char* what, const std::vector<double>& t) {
    std::printf("%-28s p50 %8.1f us  p99 %8.1f us   p50 ratio to threads %.1fx\n", what, percentile(t, 0.5) * 1e6,
                percentile(t, 0.99) * 1e6, percentile(t, 0.5) / b50);
  };
  row("threads (baseline)", base);
  row("stackTrace", stack);
  row("scopes", scopes);
  row("variables Node", node);
  std::string label = "variables Run (" + std::to_string(runSize) + " tensors)";
  row(label.c_str(), run);
  row("variables Globals", globals);
}

void bigTensor(bool quick) {
  const int64_t rows = quick ? 1000 : 10000;
  const int64_t n = rows * 10000;
  std::printf("\n== a float32[%lld, 10000] tensor (%lld elements, %.0f MB) in Globals ==\n", static_cast<long long>(rows),
              static_cast<long long>(n), static_cast<double>(n) * 4 / 1e6);
  const std::string path = writeTemp("big.py", "import tensorflow as tf\nbig = tf.zeros([" + std::to_string(rows) +
                                                   ", 10000]) + 1.0\nprint(\"ready\")\n");
  BenchClient c;
  c.start(path, json{{"mode", "eager"}}, {3}, {}, {});
  c.event("stopped");
  // Baseline: one plain pass over a buffer of the same size.
  std::vector<float> buf(static_cast<size_t>(n), 1.0f);
  const double tPass = timePerCall([&] {
    double s = 0;
    for (float x : buf) s += x;
    if (s < 0) std::printf("?");
  }, 1, 5);
  const int reps = quick ? 3 : 5;
  auto time = [&](const std::function<json()>& f, json* last = nullptr) {
    std::vector<double> t;
    for (int i = 0; i < reps; ++i) {
      const double s = now();
      json r = f();
      t.push_back(now() - s);
      if (last) *last = r;
    }
    return median(t);
  };
  int globalsRef = 0;
  json globals;
  const double tGlobals = time([&] {
    json r = c.request("scopes", {{"frameId", 0}});
    for (const json& s : r["body"]["scopes"])
      if (s["name"] == "Globals") globalsRef = s["variablesReference"];
    return c.request("variables", {{"variablesReference", globalsRef}});
  }, &globals);
  int bigRef = 0;
  for (const json& v : globals["body"]["variables"])
    if (v["name"] == "big") bigRef = v["variablesReference"];
  json chunks;
  const double tExpand = time([&] { return c.request("variables", {{"variablesReference", bigRef}}); });
  const double tIndexed = time([&] { return c.request("variables", {{"variablesReference", bigRef}, {"filter", "indexed"}}); }, &chunks);
  const int chunkRef = chunks["body"]["variables"][0]["variablesReference"];
  json rowsPage;
  const double tChunk = time([&] { return c.request("variables", {{"variablesReference", chunkRef}}); }, &rowsPage);
  const int rowRef = rowsPage["body"]["variables"][0]["variablesReference"];
  const double tRow = time([&] { return c.request("variables", {{"variablesReference", rowRef}}); });
  const double tPage = time([&] {
    return c.request("variables", {{"variablesReference", bigRef}, {"filter", "indexed"}, {"start", rows / 2}, {"count", 100}});
  });
  std::printf("one plain pass over the buffer (baseline) %8.1f ms\n", tPass * 1e3);
  std::printf("Globals (summary line: min/max/mean/std)  %8.1f ms   ratio %.2fx\n", tGlobals * 1e3, tGlobals / tPass);
  std::printf("expand (histogram + row ranges)           %8.1f ms   ratio %.2fx\n", tExpand * 1e3, tExpand / tPass);
  std::printf("expand, indexed only (row ranges)         %8.3f ms\n", tIndexed * 1e3);
  std::printf("a range of 100 rows                       %8.3f ms\n", tChunk * 1e3);
  std::printf("one row (10000 elements, 100 ranges)      %8.3f ms\n", tRow * 1e3);
  std::printf("a client page of 100 rows (start/count)   %8.3f ms\n", tPage * 1e3);
}

void workloadOverhead(bool quick) {
  using namespace workloads;
  // One intra-op thread and CPU time: the numbers are the work of a step, whatever else runs.
  setIntraOpThreads(1);
  std::printf("\n== run-time overhead on the engine's MLP training step (784-256-256-10, batch 128, Adam; 1 thread, CPU time) ==\n");
  MlpConfig cfg;
  GraphMlp graph(cfg);
  std::vector<MlpBatch> batches;
  for (int i = 0; i < 8; ++i) batches.push_back(makeBatch(cfg, static_cast<uint64_t>(i)));
  NullEvents ev;
  // The debugger as the engine sees it: its DebugHooks, no program (nothing here needs one).
  dap::Debugger idle(ev), armed(ev);
  const std::string example = std::string(TLENS_SOURCE_DIR) + "/examples/mnist_mlp_tf1.py";
  dap::LineBreakpointSpec atTest;
  atTest.line = lineOf(readFile(example), "print(\"Testing accuracy");
  armed.setLineBreakpoints(example, {atTest});
  std::vector<dap::FunctionBreakpointSpec> names(3);
  names[0].name = "nosuch";
  names[1].name = "fc9/.*";
  names[2].name = "NoSuchOp";
  armed.setFunctionBreakpoints(names);
  RunOptions none, hIdle, hArmed, hNan, checkOnly;
  hIdle.hooks = &idle;
  hArmed.hooks = &armed;
  hNan.hooks = &idle;
  hNan.checkNumerics = true;
  checkOnly.checkNumerics = true;
  int k = 0;
  const int iters = quick ? 5 : 20;
  const int trials = quick ? 5 : 15;
  auto step = [&](const RunOptions& o) { return [&] { graph.step(batches[static_cast<size_t>(k++ % 8)], o); }; };
  auto [t0, tI] = cpuPair(step(none), step(hIdle), iters, trials);
  std::printf("no debugger                     %8.3f ms/step\n", t0 * 1e3);
  std::printf("debugger, nothing set           %8.3f ms/step  %+.2f%% vs no debugger (hooks + Run scope record)\n", tI * 1e3,
              (tI / t0 - 1) * 100);
  auto [tI2, tA] = cpuPair(step(hIdle), step(hArmed), iters, trials);
  double over = (tA / tI2 - 1) * 100;
  std::printf("(a) breakpoints set, never hit  %8.3f ms/step  overhead %+.2f%% vs nothing set   target <= 3%%  %s\n", tA * 1e3,
              over, verdict(over <= 3));
  auto [tI3, tN] = cpuPair(step(hIdle), step(hNan), iters, trials);
  over = (tN / tI3 - 1) * 100;
  std::printf("(b) nan_inf (check-numerics)    %8.3f ms/step  overhead %+.2f%% vs nothing set   target <= 3%%  %s\n", tN * 1e3,
              over, verdict(over <= 3));
  auto [t02, tC] = cpuPair(step(none), step(checkOnly), iters, trials);
  std::printf("    (check-numerics alone, no debugger: %+.2f%%)\n", (tC / t02 - 1) * 100);
  setIntraOpThreads(2);
}

void exampleOverhead(bool quick) {
  setIntraOpThreads(1);
  std::printf("\n== run-time overhead on examples/mnist_mlp_tf1.py under the debugger (training loop CPU time, timed by the program; 1 thread) ==\n");
  const int steps = quick ? 50 : 200;
  const std::string text = timedExample(steps);
  const std::string path = writeTemp("mlp_timed.py", text);
  const int never = lineOf(text, "print(\"never\")");
  std::vector<double> plain, idle, armed, nan;
  runPlain(path);  // warm up: first-touch of the allocator and the kernels
  for (int k = 0; k < (quick ? 1 : 5); ++k) {
    std::string out;
    runPlain(path, &out);
    plain.push_back(loopSeconds(out));
    auto underDebugger = [&](bool bps, bool numerics) {
      BenchClient c;
      c.start(path, json{{"checkNumerics", numerics}}, bps ? std::vector<int>{never} : std::vector<int>{},
              bps ? std::vector<std::string>{"nosuch", "fc9/.*", "NoSuchOp"} : std::vector<std::string>{},
              numerics ? std::vector<std::string>{"nan_inf"} : std::vector<std::string>{});
      c.event("exited");
      return loopSeconds(c.output());
    };
    idle.push_back(underDebugger(false, false));
    armed.push_back(underDebugger(true, false));
    nan.push_back(underDebugger(false, true));
  }
  setIntraOpThreads(2);
  const double p = median(plain), i = median(idle), a = median(armed), n = median(nan);
  std::printf("%d steps: no debugger %.1f ms; debugger, nothing set %.1f ms (%+.2f%%)\n", steps, p * 1e3, i * 1e3, (i / p - 1) * 100);
  std::printf("(a) breakpoints set, never hit %.1f ms  overhead %+.2f%% vs nothing set   target <= 3%%  %s\n", a * 1e3,
              (a / i - 1) * 100, verdict(a / i - 1 <= 0.03));
  std::printf("(b) nan_inf                    %.1f ms  overhead %+.2f%% vs nothing set   target <= 3%%  %s\n", n * 1e3,
              (n / i - 1) * 100, verdict(n / i - 1 <= 0.03));
}

}  // namespace

void dapBench(bool quick) {
  // TLENS_BENCH_DAP=launch,inspect,big,workload,example picks sections (default: all).
  const char* only = std::getenv("TLENS_BENCH_DAP");
  auto want = [&](const char* name) { return !only || std::string(only).find(name) != std::string::npos; };
  if (want("launch")) launchToStop(quick);
  if (want("inspect")) inspectLatency(quick);
  if (want("big")) bigTensor(quick);
  if (want("workload")) workloadOverhead(quick);
  if (want("example")) exampleOverhead(quick);
}

}  // namespace tlens::bench
