// sys, os, os.path and time. Abstract mode never touches the file system or the clock's side
// effects: existence checks and listings are Unknown, makedirs/remove are skipped, sleep is a
// no-op and clock readings are Unknown floats. What depends on the environment is unknown there:
// sys.argv, os.environ, the clock, the working directory.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <thread>

#include "lang/interp/Format.h"
#include "lang/interp/FsPath.h"
#include "lang/interp/Imports.h"
#include "lang/interp/StdModules.h"

extern char** environ;

namespace tlens::interp {
namespace fs = std::filesystem;

Value makeTextSink(Imports& m, bool err);

std::shared_ptr<ModuleObj> makeSysModule(Interpreter& in) {
  Imports* mp = &importsOf(in);
  auto mod = makeModule("sys");
  Namespace& ns = mod->globals->vars;
  // Abstract mode: the command line is not known unless the analysis was given one (argparse then
  // reads no arguments: the defaults, and unknown values for required ones).
  bool unknownArgv = mp->abstract() && mp->opts.argv.empty();
  // For the embedded standard-library modules (timeit runs a statement once when analysing).
  ns.set("_tlens_abstract", boolean(mp->abstract()));
  if (unknownArgv) {
    ns.set("argv", unknownOf(mp->types.list));
  } else {
    std::vector<Value> argv;
    argv.push_back(makeStr(mp->mainFile ? mp->mainFile->path() : ""));
    for (const auto& a : mp->opts.argv) argv.push_back(makeStr(a));
    ns.set("argv", makeList(std::move(argv)));
  }
  ns.set("_tlens_argv_unknown", boolean(unknownArgv));
  ns.set("_tlens_unknown", unknown());
  ns.set("stdout", makeTextSink(*mp, false));
  ns.set("stderr", makeTextSink(*mp, true));
  ns.set("__stdout__", ns.get("stdout"));
  ns.set("__stderr__", ns.get("stderr"));
  std::vector<Value> path;
  for (const auto& r : mp->opts.workspaceRoots) path.push_back(makeStr(r));
  ns.set("path", makeList(std::move(path)));
  ns.set("version", makeStr("3.11.0 (tensorlens)"));
  ns.set("version_info", makeTuple({makeInt(3), makeInt(11), makeInt(0), makeStr("final"), makeInt(0)}));
  ns.set("platform", makeStr("linux"));
  ns.set("maxsize", makeInt(INT64_MAX));
  ns.set("byteorder", makeStr("little"));
  ns.set("executable", makeStr("tensorlens"));
  ns.set("implementation", makeStr("tensorlens"));
  defineRaw(ns, "exit", [mp](CallContext& c) -> Value {
    mp->raiseValue(mp->makeException(mp->types.systemExit, c.args.empty() ? std::vector<Value>{} : std::vector<Value>{c.args[0]}));
  });
  defineNative(ns, "getrecursionlimit", "", [mp](CallContext&) { return makeInt(mp->opts.maxRecursionDepth); });
  defineNative(ns, "setrecursionlimit", "limit, /", [mp](CallContext& c) -> Value {
    int64_t n = c.toInt(c.arg(0));
    if (n < 1) mp->valueError("recursion limit must be greater or equal than 1");
    mp->opts.maxRecursionDepth = static_cast<int>(std::min<int64_t>(n, 100000));
    return none();
  });
  defineNative(ns, "exc_info", "", [mp](CallContext&) -> Value {
    for (auto it = mp->frames.rbegin(); it != mp->frames.rend(); ++it)
      if ((*it)->handling) return makeTuple({mp->typeOf((*it)->handling), (*it)->handling, none()});
    return makeTuple({none(), none(), none()});
  });
  defineNative(ns, "getsizeof", "obj, default=None", [](CallContext&) { return makeInt(64); });
  auto modules = makeDict();
  for (const auto& [k, v] : mp->modulesByName) modules->setStr(k, v);
  ns.set("modules", modules);
  return mod;
}

std::shared_ptr<ModuleObj> makeOsPathModule(Interpreter& in) {
  Imports* mp = &importsOf(in);
  auto mod = makeModule("os.path");
  Namespace& ns = mod->globals->vars;
  ns.set("sep", makeStr("/"));
  defineRaw(ns, "join", [](CallContext& c) -> Value {
    std::string out;
    for (const Value& v : c.args) {
      std::string p = pathArg(c, v);
      if (!p.empty() && p[0] == '/') out = p;
      else if (out.empty() || out.back() == '/') out += p;
      else out += "/" + p;
    }
    return makeStr(out);
  });
  auto fsQuery = [mp](const char* name, bool (*q)(const fs::path&, std::error_code&)) {
    return NativeFunction::make(name, "path", [mp, q](CallContext& c) -> Value {
      if (mp->abstract()) return unknownOf(mp->types.bool_);
      std::error_code ec;
      return boolean(q(pathArg(c, c.arg(0)), ec));
    });
  };
  ns.set("exists", fsQuery("exists", [](const fs::path& p, std::error_code& ec) { return fs::exists(p, ec); }));
  ns.set("isfile", fsQuery("isfile", [](const fs::path& p, std::error_code& ec) { return fs::is_regular_file(p, ec); }));
  ns.set("isdir", fsQuery("isdir", [](const fs::path& p, std::error_code& ec) { return fs::is_directory(p, ec); }));
  defineNative(ns, "getsize", "path", [mp](CallContext& c) -> Value {
    if (mp->abstract()) return unknownOf(mp->types.int_);
    std::error_code ec;
    auto n = fs::file_size(pathArg(c, c.arg(0)), ec);
    if (ec) mp->raise("FileNotFoundError", "[Errno 2] No such file or directory: " + reprString(pathArg(c, c.arg(0))));
    return makeInt(static_cast<int64_t>(n));
  });
  defineNative(ns, "dirname", "p", [](CallContext& c) -> Value {
    std::string p = pathArg(c, c.arg(0));
    size_t i = p.rfind('/');
    if (i == std::string::npos) return makeStr("");
    std::string head = p.substr(0, i + 1);
    while (head.size() > 1 && head.back() == '/') head.pop_back();
    return makeStr(head);
  });
  defineNative(ns, "basename", "p", [](CallContext& c) -> Value {
    std::string p = pathArg(c, c.arg(0));
    size_t i = p.rfind('/');
    return makeStr(i == std::string::npos ? p : p.substr(i + 1));
  });
  defineNative(ns, "split", "p", [](CallContext& c) -> Value {
    std::string p = pathArg(c, c.arg(0));
    size_t i = p.rfind('/');
    if (i == std::string::npos) return makeTuple({makeStr(""), makeStr(p)});
    std::string head = p.substr(0, i + 1);
    while (head.size() > 1 && head.back() == '/') head.pop_back();
    return makeTuple({makeStr(head), makeStr(p.substr(i + 1))});
  });
  defineNative(ns, "splitext", "p", [](CallContext& c) -> Value {
    std::string p = pathArg(c, c.arg(0));
    size_t slash = p.rfind('/');
    size_t dot = p.rfind('.');
    size_t base = slash == std::string::npos ? 0 : slash + 1;
    if (dot == std::string::npos || dot <= base || p.find_first_not_of('.', base) > dot)
      return makeTuple({makeStr(p), makeStr("")});
    return makeTuple({makeStr(p.substr(0, dot)), makeStr(p.substr(dot))});
  });
  defineNative(ns, "abspath", "p", [](CallContext& c) -> Value {
    std::error_code ec;
    std::string s = fs::absolute(pathArg(c, c.arg(0)), ec).lexically_normal().string();
    if (s.size() > 1 && s.back() == '/') s.pop_back();
    return makeStr(s);
  });
  ns.set("realpath", ns.get("abspath"));
  defineNative(ns, "normpath", "p", [](CallContext& c) -> Value {
    std::string s = fs::path(pathArg(c, c.arg(0))).lexically_normal().string();
    if (s.size() > 1 && s.back() == '/') s.pop_back();
    return makeStr(s.empty() ? "." : s);
  });
  defineNative(ns, "expanduser", "p", [](CallContext& c) -> Value {
    std::string p = pathArg(c, c.arg(0));
    const char* home = std::getenv("HOME");
    if (!p.empty() && p[0] == '~' && home) p = std::string(home) + p.substr(1);
    return makeStr(p);
  });
  defineNative(ns, "isabs", "p", [](CallContext& c) { return boolean(!pathArg(c, c.arg(0)).empty() && pathArg(c, c.arg(0))[0] == '/'); });
  return mod;
}

std::shared_ptr<ModuleObj> makeOsModule(Interpreter& in) {
  Imports* mp = &importsOf(in);
  auto mod = makeModule("os");
  Namespace& ns = mod->globals->vars;
  ns.set("sep", makeStr("/"));
  ns.set("linesep", makeStr("\n"));
  ns.set("name", makeStr("posix"));
  ns.set("curdir", makeStr("."));
  ns.set("pardir", makeStr(".."));
  auto env = makeDict();
  if (mp->abstract()) env->imprecise = true;
  else
    for (char** e = environ; e && *e; ++e) {
      std::string kv(*e);
      size_t eq = kv.find('=');
      if (eq != std::string::npos) env->setStr(kv.substr(0, eq), makeStr(kv.substr(eq + 1)));
    }
  ns.set("environ", env);
  defineNative(ns, "getenv", "key, default=None", [env, mp](CallContext& c) -> Value {
    if (mp->abstract()) return mp->join(c.arg(1), unknownOf(mp->types.str));
    Value v = env->getStr(c.toStr(c.arg(0)));
    return v ? v : c.arg(1);
  });
  defineNative(ns, "getcwd", "", [mp](CallContext&) -> Value {
    if (mp->abstract()) return unknownOf(mp->types.str);
    std::error_code ec;
    return makeStr(fs::current_path(ec).string());
  });
  // os.chdir changes the process's directory, as in CPython (scripts chdir to their own folder
  // before reading relative paths); abstract mode never runs it.
  auto chdir = defineNative(ns, "chdir", "path", [mp](CallContext& c) -> Value {
    std::string p = pathArg(c, c.arg(0));
    std::error_code ec;
    fs::current_path(p, ec);
    if (ec) {
      if (ec == std::errc::no_such_file_or_directory)
        mp->raise("FileNotFoundError", "[Errno 2] No such file or directory: " + reprString(p));
      if (ec == std::errc::not_a_directory) mp->raise("NotADirectoryError", "[Errno 20] Not a directory: " + reprString(p));
      mp->raise("OSError", "[Errno " + std::to_string(ec.value()) + "] " + ec.message() + ": " + reprString(p));
    }
    return none();
  });
  chdir->sideEffecting = true;
  defineNative(ns, "fspath", "path", [](CallContext& c) -> Value { return fsPathValue(c, c.arg(0)); });
  // The base pathlib's paths derive from, so isinstance(p, os.PathLike) holds for them.
  auto pathLike = makeClass("PathLike", {mp->types.object}, "os");
  ns.set("PathLike", pathLike);
  defineNative(ns, "getpid", "", [](CallContext&) { return makeInt(static_cast<int64_t>(::getpid())); });
  defineNative(ns, "cpu_count", "", [](CallContext&) { return makeInt(static_cast<int64_t>(std::thread::hardware_concurrency())); });
  defineNative(ns, "listdir", "path='.'", [mp](CallContext& c) -> Value {
    if (mp->abstract()) return unknownOf(mp->types.list);
    std::vector<std::string> names;
    std::error_code ec;
    std::string p = pathArg(c, c.arg(0));
    for (const auto& e : fs::directory_iterator(p, ec)) names.push_back(e.path().filename().string());
    if (ec) mp->raise("FileNotFoundError", "[Errno 2] No such file or directory: " + reprString(p));
    std::sort(names.begin(), names.end());
    std::vector<Value> out;
    for (auto& n : names) out.push_back(makeStr(n));
    return makeList(std::move(out));
  });
  auto makedirs = defineNative(ns, "makedirs", "name, mode=511, exist_ok=False", [mp](CallContext& c) -> Value {
    std::string p = pathArg(c, c.arg(0));
    std::error_code ec;
    if (fs::exists(p, ec) && !c.toBool(c.arg(2))) mp->raise("FileExistsError", "[Errno 17] File exists: " + reprString(p));
    fs::create_directories(p, ec);
    return none();
  });
  makedirs->sideEffecting = true;
  auto mkdir = defineNative(ns, "mkdir", "path, mode=511", [mp](CallContext& c) -> Value {
    std::string p = pathArg(c, c.arg(0));
    std::error_code ec;
    if (fs::exists(p, ec)) mp->raise("FileExistsError", "[Errno 17] File exists: " + reprString(p));
    fs::create_directory(p, ec);
    if (ec) {
      if (ec == std::errc::no_such_file_or_directory) mp->raise("FileNotFoundError", "[Errno 2] No such file or directory: " + reprString(p));
      mp->raise("OSError", "[Errno " + std::to_string(ec.value()) + "] " + ec.message() + ": " + reprString(p));
    }
    return none();
  });
  mkdir->sideEffecting = true;
  auto remove = defineNative(ns, "remove", "path", [mp](CallContext& c) -> Value {
    std::error_code ec;
    std::string p = pathArg(c, c.arg(0));
    if (!fs::remove(p, ec)) mp->raise("FileNotFoundError", "[Errno 2] No such file or directory: " + reprString(p));
    return none();
  });
  remove->sideEffecting = true;
  ns.set("unlink", remove);
  // os.walk: top-down (dirpath, dirnames, filenames) tuples, names sorted; listed eagerly, so
  // changing dirnames in the loop does not prune. Abstract mode lists nothing (an Unknown list).
  defineNative(ns, "walk", "top, topdown=True, onerror=None, followlinks=False", [mp](CallContext& c) -> Value {
    if (mp->abstract()) return unknownOf(mp->types.list);
    std::vector<Value> out;
    std::vector<std::string> todo{pathArg(c, c.arg(0))};
    while (!todo.empty() && out.size() < 1000000) {
      std::string dir = todo.front();
      todo.erase(todo.begin());
      std::vector<std::string> dirs, files;
      std::error_code ec;
      for (const auto& e : fs::directory_iterator(dir, ec)) {
        std::error_code ec2;
        (e.is_directory(ec2) ? dirs : files).push_back(e.path().filename().string());
      }
      if (ec) continue;
      std::sort(dirs.begin(), dirs.end());
      std::sort(files.begin(), files.end());
      std::vector<Value> d, f;
      for (auto& n : dirs) d.push_back(makeStr(n));
      for (auto& n : files) f.push_back(makeStr(n));
      out.push_back(makeTuple({makeStr(dir), makeList(std::move(d)), makeList(std::move(f))}));
      std::vector<std::string> sub;
      for (auto& n : dirs) sub.push_back(dir + (dir.empty() || dir.back() == '/' ? "" : "/") + n);
      todo.insert(todo.begin(), sub.begin(), sub.end());
    }
    if (!c.toBool(c.arg(1))) std::reverse(out.begin(), out.end());
    return makeList(std::move(out));
  });
  auto rename = defineNative(ns, "rename", "src, dst", [mp](CallContext& c) -> Value {
    std::error_code ec;
    std::string src = pathArg(c, c.arg(0));
    fs::rename(src, pathArg(c, c.arg(1)), ec);
    if (ec) mp->raise("FileNotFoundError", "[Errno 2] No such file or directory: " + reprString(src) + " -> " + reprString(pathArg(c, c.arg(1))));
    return none();
  });
  rename->sideEffecting = true;
  ns.set("replace", rename);
  auto rmdir = defineNative(ns, "rmdir", "path", [mp](CallContext& c) -> Value {
    std::error_code ec;
    std::string p = pathArg(c, c.arg(0));
    if (!fs::is_directory(p, ec)) mp->raise("FileNotFoundError", "[Errno 2] No such file or directory: " + reprString(p));
    if (!fs::is_empty(p, ec)) mp->raise("OSError", "[Errno 39] Directory not empty: " + reprString(p));
    fs::remove(p, ec);
    return none();
  });
  rmdir->sideEffecting = true;
  // Runs the command through the shell as CPython does and returns its wait status (exit code
  // << 8). Its standard output goes through the program's output sink (the debugger's console,
  // never the protocol's stdout); abstract mode never runs it (sideEffecting).
  auto system = defineNative(ns, "system", "command", [mp](CallContext& c) -> Value {
    std::string cmd = c.toStr(c.arg(0));
    std::fflush(nullptr);
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) mp->raise("OSError", "os.system: cannot start the shell");
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) mp->write(std::string_view(buf, n), false);
    int status = pclose(p);
    return makeInt(status);
  });
  system->sideEffecting = true;
  auto path = mp->modulesByName.count("os.path") ? mp->modulesByName["os.path"] : makeOsPathModule(in);
  mp->modulesByName["os.path"] = path;
  mod->set("path", path);
  return mod;
}

std::shared_ptr<ModuleObj> makeTimeModule(Interpreter& in) {
  Imports* mp = &importsOf(in);
  auto mod = makeModule("time");
  Namespace& ns = mod->globals->vars;
  auto clock = [mp](const char* name, auto now) {
    return NativeFunction::make(name, "", [mp, now](CallContext&) -> Value {
      if (mp->abstract()) return unknownOf(mp->types.float_);
      return makeFloat(now());
    });
  };
  ns.set("time", clock("time", [] {
           return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
         }));
  auto steady = [] { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); };
  ns.set("perf_counter", clock("perf_counter", steady));
  ns.set("monotonic", clock("monotonic", steady));
  ns.set("process_time", clock("process_time", [] { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }));
  auto sleep = defineNative(ns, "sleep", "secs, /", [](CallContext& c) -> Value {
    double s = c.toDouble(c.arg(0));
    if (s > 0) std::this_thread::sleep_for(std::chrono::duration<double>(std::min(s, 3600.0)));
    return none();
  });
  sleep->sideEffecting = true;
  defineNative(ns, "strftime", "format, t=None, /", [mp](CallContext& c) -> Value {
    if (mp->abstract()) return unknownOf(mp->types.str);
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    localtime_r(&t, &tm);
    char buf[256];
    size_t n = std::strftime(buf, sizeof buf, c.toStr(c.arg(0)).c_str(), &tm);
    return makeStr(std::string(buf, n));
  });
  defineNative(ns, "ctime", "secs=None, /", [mp](CallContext&) -> Value {
    if (mp->abstract()) return unknownOf(mp->types.str);
    std::time_t t = std::time(nullptr);
    char buf[64];
    ctime_r(&t, buf);
    std::string s(buf);
    if (!s.empty() && s.back() == '\n') s.pop_back();
    return makeStr(s);
  });
  return mod;
}

}  // namespace tlens::interp
