// The real `tlens` binary against resource bombs and interruptions (issue #22 items 1, 5, 8, 10):
// each bomb, run under an address-space limit (`prlimit --as`), ends within seconds with a clean
// MemoryError (`tlens run`) or a clean analysis (`tlens check`); Ctrl-C becomes
// KeyboardInterrupt and files the program wrote are flushed on every way out; numpy's errors are
// numpy's exception classes; os.system runs its command.
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

namespace fs = std::filesystem;

namespace {

struct Outcome {
  int status = -1;
  std::string output;  ///< stdout and stderr together
  double seconds = 0;
};

/// Runs a shell command line from `dir`, stdout and stderr together.
Outcome shell(const fs::path& dir, const std::string& cmd) {
  std::string full = "cd '" + dir.string() + "' && " + cmd + " 2>&1 </dev/null";
  Outcome o;
  auto t0 = std::chrono::steady_clock::now();
  FILE* p = ::popen(full.c_str(), "r");
  REQUIRE(p);
  char buf[4096];
  while (size_t n = std::fread(buf, 1, sizeof buf, p)) o.output.append(buf, n);
  // The sanitizer build's one-time notice about the coroutines' swapcontext is not the program's.
  const std::string notice = "ASan doesn't fully support makecontext/swapcontext";
  for (size_t at; (at = o.output.find(notice)) != std::string::npos;) {
    size_t begin = o.output.rfind('\n', at);
    begin = begin == std::string::npos ? 0 : begin + 1;
    size_t end = o.output.find('\n', at);
    o.output.erase(begin, end == std::string::npos ? std::string::npos : end - begin + 1);
  }
  int st = ::pclose(p);
  o.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return o;
}

fs::path scratch(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / "tlens_cli_resource_tests" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

const std::string kTlens = TLENS_BINARY;

}  // namespace

TEST_CASE("resource bombs end in a clean MemoryError or analysis under a memory limit", "[cli][resources]") {
#ifdef TLENS_SANITIZER_BUILD
  WARN("skipped in the sanitizer build: AddressSanitizer's shadow memory does not fit under prlimit --as");
  return;
#endif
  const char* bombs[][2] = {
      {"ljust", "s = 'x'.ljust(10**12)\n"},
      {"center", "s = 'x'.center(10**12)\n"},
      {"zfill", "s = '1'.zfill(10**12)\n"},
      {"expandtabs", "s = ('\\t' * 1000).expandtabs(10**9)\n"},
      {"replace", "s = ('x' * 10**6).replace('x', 'y' * 10**4)\n"},
      {"strmul", "s = 'x' * 10**12\n"},
      {"listmul", "l = [0] * 10**12\n"},
      {"plus", "s = 'x' * 1000\nwhile True:\n    s = s + s\n"},
      {"extend", "l = [1]\nwhile True:\n    l.extend(l)\n"},
      {"join", "s = 'ab'\nwhile True:\n    s = s.join([s, s, s])\n"},
      {"product", "import itertools\np = list(itertools.product(range(10**4), range(10**4), range(10**3)))\n"},
      {"range", "l = list(range(10**12))\n"},
      {"format", "s = '{:>1000000000000}'.format(1)\n"},
      {"np_ones", "import numpy as np\na = np.ones((10**6, 10**6))\n"},
      {"np_arange", "import numpy as np\na = np.arange(10**12)\n"},
      {"np_rand", "import numpy as np\na = np.random.rand(10**6, 10**6)\n"},
  };
  // (A comprehension of comprehensions, each under the caps, meets the memory check only after
  // tens of seconds on a loaded machine: InterpResourceTests cancels one instead.)
  fs::path dir = scratch("bombs");
  for (const auto& b : bombs) {
    const std::string file = std::string(b[0]) + ".py";
    write(dir / file, b[1]);
    Outcome run = shell(dir, "timeout 60 prlimit --as=2000000000 " + kTlens + " run " + file);
    INFO(b[0] << " (run, " << run.seconds << " s): " << run.output);
    CHECK(run.status == 1);
    CHECK(run.output.find("MemoryError") != std::string::npos);
    CHECK(run.output.find("internal error") == std::string::npos);
    CHECK(run.seconds < 55);  // wall clock: generous, as parallel ctest jobs and other builds load the machine
    Outcome check = shell(dir, "timeout 60 prlimit --as=1500000000 " + kTlens + " check " + file);
    INFO(b[0] << " (check, " << check.seconds << " s): " << check.output);
    CHECK(check.status == 0);
    CHECK(check.output.find("error") == std::string::npos);
    CHECK(check.seconds < 40);
  }
}

TEST_CASE("numpy allocations that cannot fit raise numpy's MemoryError before allocating", "[cli][resources]") {
  fs::path dir = scratch("np_alloc");
  write(dir / "p.py",
        "import numpy as np\n"
        "for f in [lambda: np.ones((10**6, 10**6)), lambda: np.arange(10**12), lambda: np.random.rand(10**6, 10**6),\n"
        "          lambda: np.zeros((10**7, 10**6), dtype=np.float32)]:\n"
        "    try:\n"
        "        f()\n"
        "    except MemoryError as e:\n"
        "        print(e)\n");
  Outcome o = shell(dir, "timeout 60 " + kTlens + " run p.py");
  INFO(o.output);
  // What numpy 1.24 prints for the same calls.
  CHECK(o.output ==
        "Unable to allocate 7.28 TiB for an array with shape (1000000, 1000000) and data type float64\n"
        "Unable to allocate 7.28 TiB for an array with shape (1000000000000,) and data type int64\n"
        "Unable to allocate 7.28 TiB for an array with shape (1000000, 1000000) and data type float64\n"
        "Unable to allocate 36.4 TiB for an array with shape (10000000, 1000000) and data type float32\n");
  CHECK(o.status == 0);
}

TEST_CASE("numpy errors are numpy's exception classes, so except clauses fire", "[cli]") {
  fs::path dir = scratch("np_errors");
  write(dir / "p.py",
        "import numpy as np\n"
        "for f in [lambda: np.zeros(3)[5], lambda: np.zeros((2, 3)).reshape(4), lambda: np.zeros(3) + np.zeros(4),\n"
        "          lambda: np.zeros((2, 3)) @ np.zeros((2, 3)), lambda: np.concatenate([np.zeros((2, 3)), np.zeros((2, 4))])]:\n"
        "    try:\n"
        "        f()\n"
        "    except (IndexError, ValueError) as e:\n"
        "        print(type(e).__name__, str(e).split(' for ')[0] if 'concat' in str(e).lower() else e)\n");
  Outcome o = shell(dir, "timeout 60 " + kTlens + " run p.py");
  INFO(o.output);
  // The first four lines are numpy 1.24's messages.
  CHECK(o.output.find("IndexError index 5 is out of bounds for axis 0 with size 3\n"
                      "ValueError cannot reshape array of size 6 into shape (4,)\n"
                      "ValueError operands could not be broadcast together with shapes (3,) (4,) \n"
                      "ValueError matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                      "(n?,k),(k,m?)->(n?,m?) (size 2 is different from 3)\n"
                      "ValueError ") == 0);
  CHECK(o.status == 0);
}

TEST_CASE("Ctrl-C in tlens run is KeyboardInterrupt, and files are flushed on every way out", "[cli]") {
  fs::path dir = scratch("sigint");
  write(dir / "caught.py",
        "f = open('out.txt', 'w')\n"
        "f.write('data\\n')\n"
        "open('ready', 'w').write('1')\n"
        "try:\n"
        "    while True:\n"
        "        x = [i for i in range(1000)]\n"
        "except KeyboardInterrupt:\n"
        "    print('caught')\n"
        "finally:\n"
        "    print('finally')\n");
  const std::string interrupt =
      "; pid=$!; i=0; while [ ! -s ready ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done; kill -INT $pid; wait $pid";
  // --foreground: without it timeout(1) passes a signal on to the program and again to its whole
  // process group, so the program would get two SIGINTs at once (a terminal's Ctrl-C sends one).
  Outcome o = shell(dir, "(timeout --foreground 60 " + kTlens + " run caught.py & " + interrupt.substr(2) + ")");
  INFO(o.output);
  CHECK(o.output == "caught\nfinally\n");
  CHECK(o.status == 0);
  CHECK(read(dir / "out.txt") == "data\n");

  // Uncaught: a traceback ending in KeyboardInterrupt, a failed status, and the file's data kept.
  fs::remove(dir / "ready");
  fs::remove(dir / "out.txt");
  write(dir / "uncaught.py",
        "f = open('out.txt', 'w')\n"
        "f.write('kept\\n')\n"
        "open('ready', 'w').write('1')\n"
        "while True:\n"
        "    pass\n");
  o = shell(dir, "(timeout --foreground 60 " + kTlens + " run uncaught.py & " + interrupt.substr(2) + ")");
  INFO(o.output);
  CHECK(o.output.find("KeyboardInterrupt") != std::string::npos);
  CHECK(o.status != 0);
  CHECK(o.status != 124);
  CHECK(read(dir / "out.txt") == "kept\n");

  // sys.exit and an uncaught exception with a file left open: the data is written too.
  write(dir / "exits.py", "import sys\nf = open('a.txt', 'w')\nf.write('a')\nsys.exit(3)\n");
  o = shell(dir, "timeout 60 " + kTlens + " run exits.py");
  CHECK(o.status == 3);
  CHECK(read(dir / "a.txt") == "a");
  write(dir / "raises.py", "f = open('b.txt', 'w')\nf.write('b')\nraise ValueError('x')\n");
  o = shell(dir, "timeout 60 " + kTlens + " run raises.py");
  CHECK(o.status == 1);
  CHECK(read(dir / "b.txt") == "b");
}

TEST_CASE("os.system runs its command and returns the wait status, and never runs in the analysis", "[cli]") {
  fs::path dir = scratch("os_system");
  write(dir / "p.py", "import os\nprint(os.system('echo hi'), os.system('exit 3'))\nos.system('touch marker')\n");
  Outcome o = shell(dir, "timeout 60 " + kTlens + " check p.py");
  CHECK(o.status == 0);
  CHECK_FALSE(fs::exists(dir / "marker"));
  o = shell(dir, "timeout 60 " + kTlens + " run p.py");
  INFO(o.output);
  CHECK(o.output == "hi\n0 768\n");
  CHECK(o.status == 0);
  CHECK(fs::exists(dir / "marker"));
}
