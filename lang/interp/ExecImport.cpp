// Imports. A module name is resolved, in order: modules already imported (sys.modules), the
// ModuleRegistry (native modules and embedded Python modules), then the file system: for a
// top-level name the importing file's directory and the workspace roots; for a submodule its
// package's directory. `name.py`, `name/__init__.py` and plain directories (namespace packages)
// count. Relative imports resolve against the importing file's directory. Each module runs once
// and is cached by name and by path; a module that raises while running is uncached.
//
// Abstract mode never fails an import: a module that cannot be found is Unknown (with a hint).
#include <filesystem>
#include <mutex>
#include <unordered_map>

#include "lang/interp/Machine.h"

namespace tlens::interp {
namespace fs = std::filesystem;

namespace {

/// Embedded modules parsed once per process: a SourceFile is immutable and its child cache is
/// thread-safe, so every interpreter (each language-server analysis, each debug session) shares
/// the trees of tensorflow.py, numpy.py, the Keras modules, ... instead of re-parsing ~150 KB.
std::shared_ptr<const lang::SourceFile> parsedEmbedded(const std::string& name, const std::string& src) {
  struct Entry {
    std::string text;
    std::shared_ptr<const lang::SourceFile> file;
  };
  static std::mutex mutex;
  static auto* cache = new std::unordered_map<std::string, Entry>();  // outlives static destructors
  std::lock_guard<std::mutex> lock(mutex);
  Entry& e = (*cache)[name];
  if (!e.file || e.text != src) {  // a registry may embed another text under the same name
    e.text = src;
    e.file = std::make_shared<lang::SourceFile>("<" + name + ">", src);
  }
  return e.file;
}

std::string dirOf(const std::string& path) {
  fs::path p(path);
  std::string d = p.parent_path().string();
  return d.empty() ? "." : d;
}

std::string joinPath(const std::string& a, std::string_view b) {
  return (fs::path(a) / fs::path(std::string(b))).lexically_normal().string();
}

/// Absolute, normalised, without a trailing separator.
std::string absoluteDir(const std::string& d) {
  std::error_code ec;
  fs::path p = fs::absolute(fs::path(d), ec).lexically_normal();
  if (p.filename().empty() && p.has_parent_path()) p = p.parent_path();
  return p.string();
}

bool isDir(const std::string& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

}  // namespace

std::shared_ptr<ModuleObj> Imports::loadModuleFile(const std::string& name, const std::string& path,
                                                   const std::string& packageDir) {
  auto byPath = modulesByPath.find(path);
  if (byPath != modulesByPath.end()) {
    modulesByName.emplace(name, byPath->second);
    return byPath->second;
  }
  auto m = makeModule(name);
  m->packageDir = packageDir;
  modulesByName[name] = m;
  modulesByPath[path] = m;
  if (path == packageDir) return m;  // namespace package: no code
  auto f = opts.loadFile(path);
  if (!f) return m;
  keepFile(f);
  m->file = path;
  m->set("__file__", makeStr(path));
  try {
    self().execModuleBody(m, f, false);
  } catch (...) {
    modulesByName.erase(name);
    modulesByPath.erase(path);
    throw;
  }
  return m;
}

std::shared_ptr<ModuleObj> Imports::findModuleIn(const std::string& name, const std::vector<std::string>& dirs,
                                                 std::string_view leaf) {
  for (const std::string& dir : dirs) {
    std::string file = joinPath(dir, std::string(leaf) + ".py");
    auto byPath = modulesByPath.find(file);
    if (byPath != modulesByPath.end()) return byPath->second;
    if (opts.loadFile(file)) return loadModuleFile(name, file, "");
    std::string pkg = joinPath(dir, leaf);
    std::string init = joinPath(pkg, "__init__.py");
    if (modulesByPath.count(init) || opts.loadFile(init)) return loadModuleFile(name, init, pkg);
    if (isDir(pkg)) return loadModuleFile(name, pkg, pkg);
  }
  return nullptr;
}

std::shared_ptr<ModuleObj> Imports::importModule(std::string_view dotted) {
  auto it = modulesByName.find(dotted);
  if (it != modulesByName.end()) return it->second;
  std::string name(dotted);
  size_t dot = name.rfind('.');
  std::shared_ptr<ModuleObj> parent;
  std::string leaf = name;
  if (dot != std::string::npos) {
    parent = importModule(std::string_view(name).substr(0, dot));
    if (!parent) return nullptr;
    leaf = name.substr(dot + 1);
    // Importing the parent may have imported this module too.
    it = modulesByName.find(dotted);
    if (it != modulesByName.end()) return it->second;
  }
  std::shared_ptr<ModuleObj> m;
  if (const auto* factory = registry.factory(name)) {
    m = (*factory)(api);
    if (!m) raise(types.importError, "native module '" + name + "' failed to initialise");
    modulesByName[name] = m;
  } else if (const std::string* src = registry.source(name)) {
    m = makeModule(name);
    auto f = keepFile(parsedEmbedded(name, *src));
    m->file = f->path();
    m->set("__file__", makeStr(f->path()));
    modulesByName[name] = m;
    try {
      self().execModuleBody(m, f, true);
    } catch (...) {
      modulesByName.erase(name);
      throw;
    }
  } else {
    std::vector<std::string> dirs;
    if (parent) {
      if (!parent->packageDir.empty()) dirs.push_back(parent->packageDir);
    } else {
      if (!frames.empty() && !file().path().empty() && file().path()[0] != '<')
        dirs.push_back(absoluteDir(dirOf(file().path())));
      if (mainFile) dirs.push_back(absoluteDir(dirOf(mainFile->path())));
      for (const auto& r : opts.workspaceRoots) dirs.push_back(absoluteDir(r));
    }
    m = findModuleIn(name, dirs, leaf);
    // Neither modelled nor the user's own file: the user's Python (concrete mode only; abstract
    // mode never runs anything in CPython).
    if (!m && !abstract() && registry.foreignImporter() && (!parent || parent->foreign)) {
      m = registry.foreignImporter()(api, name);
      if (m) modulesByName[name] = m;
    }
  }
  if (!m) return nullptr;
  if (parent && !parent->get(leaf)) parent->set(leaf, m);
  return m;
}

std::shared_ptr<ModuleObj> Imports::requireModule(std::string_view dotted, TSNode at) {
  auto m = importModule(dotted);
  if (m) return m;
  // Abstract mode: a module tensorlens neither models nor finds among the user's files is most
  // often a library of the user's Python (pandas, cv2, ...), which `tlens run` imports there. Its
  // values are unknown, silently: a hint on every such import would flag working code.
  (void)at;
  if (abstract()) return nullptr;
  raise(types.moduleNotFoundError, "No module named '" + std::string(dotted) + "'");
}

std::shared_ptr<ModuleObj> Imports::importSubmodule(const std::shared_ptr<ModuleObj>& pkg, std::string_view leaf) {
  std::string full = pkg->name + "." + std::string(leaf);
  if (auto m = importModule(full)) return m;
  if (pkg->packageDir.empty()) return nullptr;
  auto m = findModuleIn(full, {pkg->packageDir}, leaf);
  if (m && !pkg->get(leaf)) pkg->set(leaf, m);
  return m;
}

void Evaluator::execImport(TSNode n) {
  const Fields& F = fields();
  for (TSNode c : namedChildren(n)) {
    if (kindOf(c) == NodeKind::AliasedImport) {
      TSNode nameNode = field(c, F.name), alias = field(c, F.alias);
      auto m = requireModule(text(nameNode), nameNode);
      assignName(text(alias), alias, m ? Value(m) : unknown());
    } else if (kindOf(c) == NodeKind::DottedName) {
      std::string dotted(text(c));
      auto m = requireModule(dotted, c);
      TSNode first = firstNamedChild(c);
      std::string top = dotted.substr(0, dotted.find('.'));
      Value v = m ? Value(modulesByName[top]) : unknown();
      assignName(top, first, v);
    } else if (kindOf(c) == NodeKind::Error) {
      throw SyntaxSkip{};
    }
  }
}

void Evaluator::execImportFrom(TSNode n) {
  const Fields& F = fields();
  TSNode modNode = field(n, F.moduleName);
  std::shared_ptr<ModuleObj> mod;
  std::string modName;
  if (kindOf(modNode) == NodeKind::RelativeImport) {
    int level = 0;
    std::string dotted;
    for (TSNode c : namedChildren(modNode)) {
      if (kindOf(c) == NodeKind::ImportPrefix) level = static_cast<int>(text(c).size());
      else if (kindOf(c) == NodeKind::DottedName) dotted = std::string(text(c));
    }
    std::string dir = absoluteDir(dirOf(file().path()));
    for (int i = 1; i < level; ++i) dir = dirOf(dir);
    std::string base = fs::path(dir).filename().string();
    mod = findModuleIn(base, {dirOf(dir)}, base);
    if (mod && !dotted.empty()) {
      size_t start = 0;
      while (mod && start <= dotted.size()) {
        size_t dot = dotted.find('.', start);
        std::string part = dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        Value existing = mod->get(part);
        mod = is<ModuleObj>(existing) ? asShared<ModuleObj>(existing) : importSubmodule(mod, part);
        if (dot == std::string::npos) break;
        start = dot + 1;
      }
    }
    modName = std::string(text(modNode));
    if (!mod) {
      if (!abstract()) raise(types.importError, "attempted relative import with no known parent package");
      diagnose(Severity::Hint, modNode, "module '" + modName + "' is not available to tensorlens; its values are unknown",
               "unresolved-import");
    }
  } else {
    modName = std::string(text(modNode));
    if (modName == "__future__") return;
    mod = requireModule(modName, modNode);
  }
  for (TSNode c : namedChildren(n)) {
    if (sameNode(c, modNode)) continue;
    if (kindOf(c) == NodeKind::WildcardImport) {
      if (!mod) continue;
      Value all = mod->foreign ? findAttr(mod, "__all__") : mod->get("__all__");
      if (!all && mod->foreign) {  // a module of the user's Python without __all__: its public names
        if (auto* native = as<NativeObject>(mod->foreign))
          for (const std::string& k : native->attributeNames(api))
            if (!k.empty() && k[0] != '_') bindName(k, getAttr(mod, k));
        continue;
      }
      if (all) {
        for (const Value& nm : toList(all))
          if (const std::string* s = asString(nm)) bindName(*s, getAttr(mod, *s));
      } else {
        mod->globals->vars.forEach([&](const std::string& k, const Value& v) {
          if (!k.empty() && k[0] != '_') bindName(k, v);
        });
      }
      continue;
    }
    TSNode nameNode, bindNode;
    if (kindOf(c) == NodeKind::AliasedImport) {
      nameNode = field(c, F.name);
      bindNode = field(c, F.alias);
    } else if (kindOf(c) == NodeKind::DottedName) {
      nameNode = bindNode = c;
    } else {
      continue;
    }
    std::string name(text(nameNode));
    Value v;
    if (mod) {
      v = findAttr(mod, name);
      if (!v) v = importSubmodule(mod, name);
      if (!v) {
        if (!abstract())
          raise(types.importError, "cannot import name '" + name + "' from '" + mod->name + "'" +
                                       (mod->file.empty() ? " (unknown location)" : " (" + mod->file + ")"));
        v = unknown();
      }
    } else {
      v = unknown();
    }
    if (kindOf(bindNode) == NodeKind::DottedName) assignName(text(bindNode), firstNamedChild(bindNode), v);
    else assignName(text(bindNode), bindNode, v);
  }
}

}  // namespace tlens::interp
