// The standard library in both modes: abstract mode (the language server) writes no file, reads
// no data file, never touches the network and stays bounded on regular expressions; concrete mode
// refuses downloads with an error that names the URL, and gives up on catastrophic regexes.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <filesystem>

#include "InterpTestSupport.h"

namespace {

namespace fs = std::filesystem;

std::string tempDir(const std::string& name) {
  auto dir = fs::temp_directory_path() / ("tlens-stdlib-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

std::string errors(const RunResult& r) {
  std::string s;
  for (const auto& d : r.diagnostics)
    if (d.severity == Severity::Error || d.severity == Severity::Warning) s += format(d) + "\n";
  return s;
}

}  // namespace

TEST_CASE("stdlib: abstract mode writes no file and reads no data file", "[lang][interp][abstract]") {
  const std::string dir = tempDir("abstract");
  {
    std::ofstream(dir + "/data.json") << "{\"a\": 1}";
    std::ofstream(dir + "/data.pkl", std::ios::binary) << std::string("\x80\x02K\x07.", 5);
  }
  const std::string src = "import json, pickle, shutil, gzip, csv, os, glob, zipfile, tarfile\n"
                          "d = '" + dir + "'\n"
                          "with open(d + '/out.json', 'w') as f:\n"
                          "    json.dump({'a': 1}, f)\n"
                          "with open(d + '/out.pkl', 'wb') as f:\n"
                          "    pickle.dump([1, 2], f)\n"
                          "shutil.copy(d + '/data.json', d + '/copy.json')\n"
                          "shutil.copytree(d, d + '-tree')\n"
                          "with gzip.open(d + '/out.gz', 'wb') as g:\n"
                          "    g.write(b'x')\n"
                          "with open(d + '/out.csv', 'w') as f:\n"
                          "    csv.writer(f).writerow([1, 2])\n"
                          "os.makedirs(d + '/made')\n"
                          "shutil.rmtree(d + '/made')\n"
                          "loaded = json.load(open(d + '/data.json'))\n"
                          "unpickled = pickle.load(open(d + '/data.pkl', 'rb'))\n"
                          "shutil.move(d + '/data.pkl', d + '/moved.pkl')\n"
                          "files = glob.glob(d + '/*')\n"
                          "pure = json.loads('{\"k\": [1, 2]}')\n";
  RunResult r = runPython(src, Mode::Abstract);
  INFO(r.diagnosticText());
  CHECK(errors(r).empty());
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(dir)) left.push_back(e.path().filename().string());
  std::sort(left.begin(), left.end());
  CHECK(left == std::vector<std::string>{"data.json", "data.pkl"});
  CHECK(!fs::exists(dir + "-tree"));

  // The same program runs concretely and does write (the test can fail).
  RunResult c = runPython(src);
  INFO(c.err);
  CHECK(c.status == 0);
  CHECK(fs::exists(dir + "/out.json"));
  CHECK(fs::exists(dir + "/moved.pkl"));
  CHECK(fs::exists(dir + "-tree/data.json"));
  fs::remove_all(dir);
  fs::remove_all(dir + "-tree");
}

TEST_CASE("stdlib: abstract values from files are unknown, pure results are known", "[lang][interp][abstract]") {
  InterpOptions o;
  o.mode = Mode::Abstract;
  Interpreter in(o);
  in.runSource("main.py",
               "import json, pickle, glob, re, datetime\n"
               "loaded = json.load(open('/etc/hostname'))\n"
               "unpickled = pickle.load(open('/etc/hostname', 'rb'))\n"
               "files = glob.glob('/etc/*')\n"
               "import os\nwalked = os.walk('/etc')\n"
               "now = datetime.datetime.now()\n"
               "pure = json.loads('[1, 2]')\n"
               "words = re.findall(r'\\w+', 'a b c')\n"
               "long_words = re.findall(r'\\w+', 'ab ' * 2000)\n"
               "stamp = datetime.datetime(2020, 1, 2).strftime('%Y%m%d')\n");
  auto g = [&](const char* n) { return in.mainModule()->get(n); };
  CHECK(isUnknown(g("loaded")));
  CHECK(isUnknown(g("unpickled")));
  CHECK(isUnknown(g("files")));
  CHECK(isUnknown(g("walked")));
  CHECK(isUnknown(g("now")));
  CHECK(isUnknown(g("long_words")));
  CHECK(in.repr(g("pure")) == "[1, 2]");
  CHECK(in.repr(g("words")) == "['a', 'b', 'c']");
  CHECK(in.repr(g("stamp")) == "'20200102'");
}

TEST_CASE("stdlib: downloads fail with an error naming the URL, silently unknown in abstract mode", "[lang][interp]") {
  const std::string src = "import urllib.request, requests\n"
                          "try:\n"
                          "    urllib.request.urlretrieve('https://example.com/cifar.tar.gz', 'cifar.tar.gz')\n"
                          "except OSError as e:\n"
                          "    print(type(e).__name__, e.reason)\n"
                          "r = requests.get('https://example.com/data.csv')\n";
  RunResult c = runPython(src);
  CHECK(c.out ==
        "URLError tensorlens does not access the network: urlretrieve https://example.com/cifar.tar.gz was not downloaded "
        "(put the file on disk and read it from there)\n");
  CHECK(c.status == 1);
  CHECK(c.err.find("requests.exceptions.ConnectionError") == std::string::npos);
  CHECK(c.err.find("ConnectionError: tensorlens does not access the network: requests.get https://example.com/data.csv") !=
        std::string::npos);

  RunResult a = runPython(src, Mode::Abstract);
  INFO(a.diagnosticText());
  CHECK(a.out.empty());
  CHECK(errors(a).empty());
}

TEST_CASE("stdlib: a catastrophic regular expression raises instead of hanging", "[lang][interp]") {
  auto t0 = std::chrono::steady_clock::now();
  RunResult c = runPython("import re\n"
                          "try:\n"
                          "    re.match(r'(a+)+b', 'a' * 5000)\n"
                          "except RuntimeError as e:\n"
                          "    print('RuntimeError', 'too costly' in str(e))\n");
  CHECK(c.out == "RuntimeError True\n");
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(20));
  // Abstract mode does not match subjects this long at all.
  t0 = std::chrono::steady_clock::now();
  RunResult a = runPython("import re\nm = re.match(r'(a+)+b', 'a' * 5000)\n", Mode::Abstract);
  CHECK(errors(a).empty());
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
}

TEST_CASE("stdlib: bad input gives Python errors, never a crash", "[lang][interp]") {
  RunResult r = runPython("import json, pickle, re, struct\n"
                          "for f in [lambda: json.loads('[' * 100000), lambda: pickle.loads(b'\\x80\\x04\\x95' + b'\\xff' * 8),\n"
                          "          lambda: pickle.loads(b'(' * 1000 + b'.'), lambda: pickle.loads(b'h\\x05.'),\n"
                          "          lambda: re.compile('(' * 10000), lambda: struct.unpack('<' + 'i' * 3, b'\\x00'),\n"
                          "          lambda: pickle.loads(b'cos\\nsystem\\n.'), lambda: bytes(-1)]:\n"
                          "    try:\n"
                          "        f()\n"
                          "        print('no error')\n"
                          "    except Exception as e:\n"
                          "        print(type(e).__name__)\n");
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(r.out ==
        "RecursionError\nEOFError\nUnpicklingError\nUnpicklingError\nerror\nerror\nno error\nValueError\n");
}

TEST_CASE("stdlib: timeit runs a callable or a statement string `number` times, once when analysing", "[lang][interp]") {
  const std::string src =
      "import timeit\n"
      "calls = []\n"
      "t = timeit.timeit(lambda: calls.append(1), number=25)\n"
      "runs = len(calls)\n"
      "reps = len(timeit.repeat(lambda: None, repeat=3, number=2))\n"
      "log = []\n"
      "ts = timeit.timeit('log.append(n)', setup='n = 2', number=5, globals={'log': log})\n"
      "logged = len(log)\n";
  Interpreter concrete{InterpOptions{}};
  REQUIRE(concrete.runSource("main.py", src) == 0);
  auto g = [](Interpreter& in, const char* n) { return in.repr(in.mainModule()->get(n)); };
  CHECK(g(concrete, "runs") == "25");
  CHECK(g(concrete, "reps") == "3");
  CHECK(g(concrete, "logged") == "5");
  CHECK(g(concrete, "log") == "[2, 2, 2, 2, 2]");
  CHECK(concrete.mainModule()->get("t")->kind() == Kind::Float);
  InterpOptions o;
  o.mode = Mode::Abstract;
  Interpreter abstract(o);
  abstract.runSource("main.py", src);
  CHECK(g(abstract, "runs") == "1");
  CHECK(g(abstract, "logged") == "0");  // exec runs no string when analysing
  CHECK(isUnknown(abstract.mainModule()->get("t")));
}

TEST_CASE("stdlib: exec and eval run nothing in abstract mode, and their results are unknown", "[lang][interp][abstract]") {
  InterpOptions o;
  o.mode = Mode::Abstract;
  Interpreter in(o);
  in.runSource("main.py",
               "side = []\n"
               "v = eval('side.append(1) or 3')\n"
               "exec('side.append(2)\\nw = 4')\n"
               "ns = {}\n"
               "exec('z = 1', ns)\n"
               "code = compile('1 + 1', '<string>', 'eval')\n"
               "n = len(side)\n"
               "known = 2 + 3\n");
  auto g = [&](const char* n) { return in.mainModule()->get(n); };
  CHECK(isUnknown(g("v")));
  CHECK(isUnknown(g("code")));
  CHECK(in.repr(g("n")) == "0");
  CHECK(in.repr(g("ns")) == "{}");
  CHECK(in.repr(g("known")) == "5");
}

TEST_CASE("stdlib: an error inside exec'd code is located in <string>, as CPython's traceback", "[lang][interp]") {
  RunResult r = runPython("def run(src):\n"
                          "    exec(src)\n"
                          "run('a = 1\\nb = a / 0\\n')\n");
  CHECK(r.status == 1);
  CHECK(r.err ==
        "Traceback (most recent call last):\n"
        "  File \"main.py\", line 3, in <module>\n"
        "    run('a = 1\\nb = a / 0\\n')\n"
        "  File \"main.py\", line 2, in run\n"
        "    exec(src)\n"
        "  File \"<string>\", line 2, in <module>\n"
        "ZeroDivisionError: division by zero\n");
  RunResult s = runPython("eval('1 +')\n");
  CHECK(s.status == 1);
  CHECK(s.err.find("SyntaxError: ") != std::string::npos);
  CHECK(s.err.find("(<string>, line 1)") != std::string::npos);
}

TEST_CASE("stdlib: pathlib in abstract mode: pure parts are known, the file system is unknown and unchanged", "[lang][interp][abstract]") {
  const std::string dir = tempDir("pathlib");
  const std::string src = "from pathlib import Path\n"
                          "d = Path('" + dir + "')\n"
                          "p = d / 'sub' / 'f.txt'\n"
                          "name, suffix, stem = p.name, p.suffix, p.stem\n"
                          "parent = str(p.parent.relative_to(d))\n"
                          "there = p.exists()\n"
                          "(d / 'sub').mkdir(parents=True, exist_ok=True)\n"
                          "p.write_text('x')\n"
                          "text = p.read_text()\n"
                          "listed = [q.name for q in d.iterdir()]\n"
                          "found = list(d.glob('*.txt'))\n"
                          "here = Path.cwd() / 'x'\n";
  InterpOptions o;
  o.mode = Mode::Abstract;
  Interpreter in(o);
  in.runSource("main.py", src);
  auto g = [&](const char* n) { return in.mainModule()->get(n); };
  CHECK(in.repr(g("name")) == "'f.txt'");
  CHECK(in.repr(g("suffix")) == "'.txt'");
  CHECK(in.repr(g("stem")) == "'f'");
  CHECK(in.repr(g("parent")) == "'sub'");
  CHECK(isUnknown(g("there")));
  CHECK(isUnknown(g("text")));
  CHECK(!fs::exists(dir + "/sub"));
  // The same program writes and reads concretely (the test can fail).
  Interpreter c{InterpOptions{}};
  REQUIRE(c.runSource("main.py", src) == 0);
  CHECK(c.repr(c.mainModule()->get("text")) == "'x'");
  CHECK(c.repr(c.mainModule()->get("listed")) == "['sub']");
  CHECK(fs::exists(dir + "/sub/f.txt"));
  fs::remove_all(dir);
}
