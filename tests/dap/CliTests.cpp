// The real `tlens` binary, run as a user runs it: what it refuses to run, and how it says so
// (exit status and stderr). Process-level defects are tested here, not through the libraries.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "protocol/Channel.h"

namespace fs = std::filesystem;

namespace {

struct Outcome {
  int status = -1;     ///< the exit status
  std::string output;  ///< stdout and stderr together
};

/// Runs `tlens <args>` (a shell command line) with a time limit, from a scratch directory.
Outcome runTlens(const std::string& args, int seconds = 60) {
  std::string cmd = "timeout " + std::to_string(seconds) + " " TLENS_BINARY " " + args + " 2>&1 </dev/null";
  Outcome o;
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p);
  char buf[4096];
  while (size_t n = std::fread(buf, 1, sizeof buf, p)) o.output.append(buf, n);
  int st = ::pclose(p);
  o.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return o;
}

fs::path scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / "tlens_cli_tests" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

/// `tlens <sub> --port 0` (or `tlens run --listen 0 program`) running in the background; the
/// port it printed on stderr.
struct ServerProcess {
  pid_t pid = -1;
  FILE* err = nullptr;
  int port = 0;

  explicit ServerProcess(const char* sub, const char* program = nullptr) {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      ::dup2(fds[1], 2);
      ::close(fds[0]);
      if (program) ::execl(TLENS_BINARY, "tlens", sub, "--listen", "0", program, static_cast<char*>(nullptr));
      else ::execl(TLENS_BINARY, "tlens", sub, "--port", "0", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(fds[1]);
    err = ::fdopen(fds[0], "r");
    char line[256] = {};
    REQUIRE(std::fgets(line, sizeof line, err));  // "tlens <sub>: listening on 127.0.0.1:PORT"
    const char* colon = std::strrchr(line, ':');
    REQUIRE(colon);
    port = std::atoi(colon + 1);
  }
  /// The exit status when the process ends by itself within `seconds`, else -1.
  int waitExit(int seconds) {
    for (int i = 0; i < seconds * 10; ++i) {
      int status = 0;
      if (::waitpid(pid, &status, WNOHANG) == pid) {
        pid = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      ::usleep(100 * 1000);
    }
    return -1;
  }
  ~ServerProcess() {
    if (pid < 0) {
      if (err) std::fclose(err);
      return;
    }
    ::kill(pid, SIGTERM);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (err) std::fclose(err);
  }
};

}  // namespace

TEST_CASE("tlens run refuses a file with a syntax error as CPython does, and runs none of it", "[cli]") {
  fs::path dir = scratch("syntax");
  std::ofstream(dir / "broken.py") << "print(1)\nx = (\nprint(2)\n";
  Outcome o = runTlens("run " + (dir / "broken.py").string());
  CHECK(o.status == 1);
  CHECK(o.output.find("File \"" + (dir / "broken.py").string() + "\", line") != std::string::npos);
  CHECK(o.output.find("SyntaxError: ") != std::string::npos);
  CHECK(o.output.find("1\n") == std::string::npos);  // before: printed 1 and 2, exit status 0
}

TEST_CASE("tlens run refuses a directory given as the program", "[cli]") {
  fs::path dir = scratch("directory");
  fs::create_directories(dir / "pkg.py");
  Outcome o = runTlens("run " + (dir / "pkg.py").string());
  CHECK(o.status != 0);
  CHECK(o.output.find("is a directory") != std::string::npos);
}

TEST_CASE("tlens run and tlens check refuse a FIFO or a device named *.py, without hanging or filling memory", "[cli]") {
  // Before: reading a FIFO blocked forever and /dev/zero grew until killed (issue 22.7).
  fs::path dir = scratch("special");
  REQUIRE(::mkfifo((dir / "fifo.py").c_str(), 0600) == 0);
  fs::create_symlink("/dev/zero", dir / "zero.py");
  for (const char* name : {"fifo.py", "zero.py"}) {
    Outcome run = runTlens("run " + (dir / name).string(), 20);
    CHECK(run.status == 1);
    CHECK(run.output.find("not a regular file") != std::string::npos);
    Outcome check = runTlens("check " + (dir / name).string(), 20);
    CHECK(check.status == 1);
    CHECK(check.output.find("not a regular file") != std::string::npos);
  }
  // An import of one, while checking a directory that holds them: the module is not found, the
  // check ends.
  std::ofstream(dir / "main.py") << "import fifo\nimport zero\nx = 1\n";
  Outcome scan = runTlens("check " + dir.string(), 30);
  CHECK(scan.status != 124);  // timeout's status: the scan hung
}

TEST_CASE("a source file over the 16 MiB limit is refused with its size", "[cli]") {
  fs::path dir = scratch("huge");
  {
    std::ofstream big(dir / "big.py");
    std::string line(1023, '#');
    for (int i = 0; i < 17 * 1024; ++i) big << line << '\n';
  }
  Outcome o = runTlens("run " + (dir / "big.py").string());
  CHECK(o.status == 1);
  CHECK(o.output.find("MiB limit") != std::string::npos);
}

TEST_CASE("ports and counts on the command line are parsed strictly and refused when out of range", "[cli]") {
  // Before: --port 12abc listened on 12, --port -3 on 65533 (issue 22.9).
  fs::path dir = scratch("numbers");
  std::ofstream(dir / "p.py") << "print(1)\n";
  const std::string prog = (dir / "p.py").string();
  for (std::string bad : {"12abc", "-3", "70000", "", "0x10"}) {
    INFO("value '" << bad << "'");
    for (std::string cmd : {"dap --port '" + bad + "'", "lsp --port '" + bad + "'", "run --listen '" + bad + "' " + prog}) {
      Outcome o = runTlens(cmd, 10);
      CHECK(o.status == 1);
      CHECK(o.output.find("must be an integer in 0..65535") != std::string::npos);
    }
  }
  Outcome gpus = runTlens("run --virtual-gpus 2x " + prog, 10);
  CHECK(gpus.status == 1);
  CHECK(gpus.output.find("--virtual-gpus") != std::string::npos);
  Outcome budget = runTlens("check --budget-ms 5k " + prog, 10);
  CHECK(budget.status == 1);
  Outcome steps = runTlens("train-mlp --steps 10x", 10);
  CHECK(steps.status == 1);
  CHECK(steps.output.find("--steps must be an integer") != std::string::npos);
}

TEST_CASE("tlens lsp --port serves the next client after one client's shutdown and exit", "[cli][lsp]") {
  // Before: the first client's exit stopped the whole server and the next client was refused.
  ServerProcess server("lsp");
  for (int client = 0; client < 2; ++client) {
    INFO("client " << client);
    auto ch = tlens::protocol::connectTcp(server.port);
    ch->write(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}})");
    auto init = ch->read();
    REQUIRE(init);
    CHECK(init->find("hoverProvider") != std::string::npos);
    ch->write(R"({"jsonrpc":"2.0","id":2,"method":"shutdown"})");
    REQUIRE(ch->read());
    ch->write(R"({"jsonrpc":"2.0","method":"exit"})");
    CHECK_FALSE(ch->read());  // the server closes this connection
    ch->close();
  }
}

TEST_CASE("tlens dap --port: one session's launch env and cwd do not leak into the next session", "[cli][dap]") {
  fs::path dir = scratch("env");
  fs::create_directories(dir / "elsewhere");
  std::ofstream(dir / "first.py") << "x = 1\n";
  std::ofstream(dir / "second.py") << "import os\nprint('leak=' + str(os.environ.get('TLENS_LEAK')) + ' cwd=' + os.getcwd())\n";
  ServerProcess server("dap");
  auto session = [&](const std::string& program, nlohmann::json extra) {
    auto ch = tlens::protocol::connectTcp(server.port);
    nlohmann::json launch{{"program", program}, {"stopOnEntry", false}};
    launch.update(extra);
    int seq = 1;
    auto send = [&](const std::string& command, nlohmann::json args) {
      ch->write(nlohmann::json{{"seq", seq++}, {"type", "request"}, {"command", command}, {"arguments", args}}.dump());
    };
    send("initialize", {{"adapterID", "tlens"}});
    send("launch", launch);
    send("configurationDone", nlohmann::json::object());
    std::string output;
    while (auto body = ch->read()) {
      nlohmann::json m = nlohmann::json::parse(*body);
      if (m["type"] == "event" && m["event"] == "output") output += m["body"]["output"].get<std::string>();
      if (m["type"] == "event" && m["event"] == "terminated") break;
    }
    send("disconnect", nlohmann::json::object());
    while (ch->read()) {
    }
    ch->close();
    return output;
  };
  session((dir / "first.py").string(), {{"env", {{"TLENS_LEAK", "yes"}}}, {"cwd", (dir / "elsewhere").string()}});
  std::string out = session((dir / "second.py").string(), nlohmann::json::object());
  CHECK(out.find("leak=None") != std::string::npos);
  CHECK(out.find("elsewhere") == std::string::npos);
}

TEST_CASE("tlens run --listen: a bare connect-and-close does not end the job, a real debugger then runs it", "[cli][dap]") {
  // Before: a port scan's connection ended the job with exit status 0 before the program ran.
  fs::path dir = scratch("listen");
  std::ofstream(dir / "job.py") << "print('job ran')\n";
  const std::string program = (dir / "job.py").string();
  ServerProcess job("run", program.c_str());
  tlens::protocol::connectTcp(job.port)->close();  // the scan
  auto ch = tlens::protocol::connectTcp(job.port);
  int seq = 1;
  auto send = [&](const std::string& command) {
    ch->write(nlohmann::json{{"seq", seq++}, {"type", "request"}, {"command", command}, {"arguments", nlohmann::json::object()}}.dump());
  };
  send("initialize");
  send("attach");
  send("configurationDone");
  std::string output;
  while (auto body = ch->read()) {
    nlohmann::json m = nlohmann::json::parse(*body);
    if (m["type"] == "event" && m["event"] == "output") output += m["body"]["output"].get<std::string>();
    if (m["type"] == "event" && m["event"] == "terminated") break;
  }
  send("disconnect");
  while (ch->read()) {
  }
  ch->close();
  CHECK(output.find("job ran") != std::string::npos);
  CHECK(job.waitExit(20) == 0);  // one debugger, one run: the job ends after it
}
