// Definition and references across workspace files. A symbol is identified by a Key: the file and
// byte span of the binding that introduces it, with imports followed to the module that defines
// the name (`from shapes import make` -> `def make` in shapes.py; `import shapes` -> the module;
// `shapes.make` -> `def make`; re-exports through `from .x import y` are followed a few levels).
// References of a module-level symbol search every workspace file that mentions its name, and
// resolve each occurrence the same way, so only real references count (not a homonym).
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "lsp/features/Bindings.h"
#include "lsp/features/Features.h"

namespace tlens::lsp {

namespace {

struct Key {
  std::string path;
  uint32_t start = 0, end = 0;
  bool module = false;  ///< the whole module (an `import m` binding)
  bool global = false;  ///< bound at module level (visible to other files)
  bool operator==(const Key& o) const { return path == o.path && start == o.start && end == o.end && module == o.module; }
};

struct Parsed {
  std::shared_ptr<const lang::SourceFile> file;
  Bindings b;
};

constexpr int kMaxDepth = 6;

class Resolver {
 public:
  Resolver(const Snapshot& s, const WorkspaceView& ws) : s_(s), ws_(ws) {}

  Parsed* parsed(const std::string& path) {
    auto it = cache_.find(path);
    if (it != cache_.end()) return it->second.get();
    std::unique_ptr<Parsed> p;
    if (path == s_.file->path()) {
      p = std::make_unique<Parsed>(Parsed{s_.file, computeBindings(*s_.file)});
    } else if (auto text = ws_.text(path)) {
      auto f = std::make_shared<const lang::SourceFile>(path, std::move(*text));
      p = std::make_unique<Parsed>(Parsed{f, computeBindings(*f)});
    }
    Parsed* raw = p.get();
    cache_.emplace(path, std::move(p));
    return raw;
  }

  std::optional<Key> moduleKey(const std::string& module, int level, const std::string& from) {
    auto target = ws_.resolveModule(module, level, from);
    if (!target) return std::nullopt;
    return Key{*target, 0, 0, true, true};
  }

  /// The symbol the occurrence `o` of file `p` names.
  std::optional<Key> keyOf(Parsed& p, const Occurrence& o, int depth = 0) {
    const Occurrence* c = nullptr;
    for (const Occurrence& x : p.b.occurrences)
      if (x.binding && x.name == o.name && x.scope == o.scope) {
        c = &x;
        break;
      }
    if (!c) return std::nullopt;  // a builtin or an undefined name
    Key local{p.file->path(), ts_node_start_byte(c->node), ts_node_end_byte(c->node), false, c->scope == 0};
    if (depth > kMaxDepth) return local;
    TSNode parent = ts_node_parent(c->node);
    TSNode grand = ts_node_is_null(parent) ? parent : ts_node_parent(parent);
    if (ts_node_is_null(grand)) return local;
    std::string_view pt = nodeType(parent), gt = nodeType(grand);
    const std::string& path = p.file->path();
    if (gt == "import_from_statement") {
      std::string imported(pt == "aliased_import" ? p.file->textOf(fieldOf(parent, "name")) : p.file->textOf(parent));
      auto [module, level] = moduleName(*p.file, fieldOf(grand, "module_name"));
      if (auto k = follow(module, level, path, imported, depth)) return k;
      return local;
    }
    if (gt == "import_statement" && pt == "dotted_name") {
      // `import a.b` binds `a`.
      if (auto k = moduleKey(c->name, 0, path)) return k;
      return local;
    }
    if (pt == "aliased_import" && gt == "import_statement") {
      if (auto k = moduleKey(std::string(p.file->textOf(fieldOf(parent, "name"))), 0, path)) return k;
      return local;
    }
    return local;
  }

  /// `name` as module `module` (relative `level`) imported from `from` defines it.
  std::optional<Key> follow(const std::string& module, int level, const std::string& from, const std::string& name,
                            int depth) {
    auto target = ws_.resolveModule(module, level, from);
    if (target)
      if (auto k = member(*target, name, depth + 1)) return k;
    // `from pkg import sub`: a submodule.
    std::string sub = module.empty() ? name : module + "." + name;
    if (auto k = moduleKey(sub, level, from)) return k;
    return std::nullopt;
  }

  /// The module-level binding of `name` in the file `path`, imports followed.
  std::optional<Key> member(const std::string& path, const std::string& name, int depth) {
    Parsed* p = parsed(path);
    if (!p || depth > kMaxDepth) return std::nullopt;
    for (const Occurrence& c : p->b.occurrences)
      if (c.binding && c.scope == 0 && c.name == name) return keyOf(*p, c, depth);
    return std::nullopt;
  }

  /// The symbol at byte `offset` of `p`: a name, an attribute of a module, or an import's module.
  std::optional<Key> keyAt(Parsed& p, uint32_t offset) {
    if (const Occurrence* o = p.b.at(offset)) return keyOf(p, *o);
    TSNode n = ts_node_named_descendant_for_byte_range(p.file->root(), offset, offset);
    if (ts_node_is_null(n) || nodeType(n) != "identifier") return std::nullopt;
    return keyOfNode(p, n);
  }

  /// An identifier that is no Occurrence: `m.name` (attribute), or part of an import's module.
  std::optional<Key> keyOfNode(Parsed& p, TSNode n, int depth = 0) {
    TSNode parent = ts_node_parent(n);
    if (ts_node_is_null(parent) || depth > kMaxDepth) return std::nullopt;
    std::string_view pt = nodeType(parent);
    if (pt == "attribute" && ts_node_eq(fieldOf(parent, "attribute"), n)) {
      auto owner = keyOfExpr(p, fieldOf(parent, "object"), depth + 1);
      if (!owner || !owner->module) return std::nullopt;
      std::string name(p.file->textOf(n));
      if (auto k = member(owner->path, name, depth + 1)) return k;
      if (std::filesystem::path(owner->path).stem() == "__init__")
        return moduleKey(name, 1, owner->path);  // a submodule of the package
      return std::nullopt;
    }
    if (pt == "dotted_name") {
      TSNode g = ts_node_parent(parent);
      if (ts_node_is_null(g)) return std::nullopt;
      TSNode gg = ts_node_parent(g);
      if (nodeType(g) == "aliased_import" && !ts_node_is_null(gg) && nodeType(gg) == "import_from_statement") {
        // `x` in `from m import x as y`: what m defines as x.
        auto [module, level] = moduleName(*p.file, fieldOf(gg, "module_name"));
        return follow(module, level, p.file->path(), std::string(p.file->textOf(parent)), depth);
      }
      // A component of an imported module's name: the module up to this component.
      std::string prefix(p.file->textOf(parent).substr(0, ts_node_end_byte(n) - ts_node_start_byte(parent)));
      std::string_view gt = nodeType(g);
      if (gt == "relative_import") {
        auto [module, level] = moduleName(*p.file, g);
        return moduleKey(prefix, level, p.file->path());
      }
      if (gt == "import_from_statement" || gt == "import_statement" || gt == "aliased_import")
        return moduleKey(prefix, 0, p.file->path());
    }
    return std::nullopt;
  }

  std::optional<Key> keyOfExpr(Parsed& p, TSNode e, int depth) {
    if (ts_node_is_null(e)) return std::nullopt;
    if (nodeType(e) == "identifier") {
      if (const Occurrence* o = p.b.at(ts_node_start_byte(e)); o && ts_node_eq(o->node, e)) return keyOf(p, *o);
      return std::nullopt;
    }
    if (nodeType(e) == "attribute") return keyOfNode(p, fieldOf(e, "attribute"), depth);
    return std::nullopt;
  }

  static std::pair<std::string, int> moduleName(const lang::SourceFile& f, TSNode m) {
    if (ts_node_is_null(m)) return {"", 0};
    if (nodeType(m) != "relative_import") return {std::string(f.textOf(m)), 0};
    int level = 0;
    std::string dotted;
    for (uint32_t i = 0; i < ts_node_child_count(m); ++i) {
      TSNode c = ts_node_child(m, i);
      if (nodeType(c) == "import_prefix") {
        for (char ch : f.textOf(c)) level += ch == '.';
      } else if (nodeType(c) == "dotted_name") {
        dotted = std::string(f.textOf(c));
      }
    }
    return {dotted, level};
  }

  XRef toXRef(const Key& k) {
    Parsed* p = parsed(k.path);
    if (!p) return {k.path, nullptr, {}};
    return {k.path, p->file, {p->file->positionOf(k.start), p->file->positionOf(k.end)}};
  }

 private:
  const Snapshot& s_;
  const WorkspaceView& ws_;
  std::map<std::string, std::unique_ptr<Parsed>> cache_;
};

void collectIn(Resolver& r, Parsed& p, const Key& key, const std::string& name, std::vector<XRef>& out) {
  auto add = [&](TSNode n) {
    out.push_back({p.file->path(), p.file, {p.file->positionOf(ts_node_start_byte(n)), p.file->positionOf(ts_node_end_byte(n))}});
  };
  // Names that may refer to the symbol here: its own, and aliases (`from m import name as alias`).
  std::set<std::string> names{name};
  for (const Occurrence& o : p.b.occurrences) {
    TSNode parent = ts_node_parent(o.node);
    if (o.binding && !ts_node_is_null(parent) && nodeType(parent) == "aliased_import") {
      std::string_view imported = p.file->textOf(fieldOf(parent, "name"));
      size_t dot = imported.rfind('.');
      if ((dot == std::string_view::npos ? imported : imported.substr(dot + 1)) == name) names.insert(o.name);
    }
  }
  for (const Occurrence& o : p.b.occurrences) {
    if (!key.module && !names.count(o.name)) continue;
    if (auto k = r.keyOf(p, o); k && *k == key) add(o.node);
  }
  // Attributes and import module names: `shapes.make`, `from shapes import ...`.
  std::vector<TSNode> stack{p.file->root()};
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    std::string_view t = nodeType(n);
    if (t == "identifier") {
      TSNode parent = ts_node_parent(n);
      if (ts_node_is_null(parent)) continue;
      std::string_view pt = nodeType(parent);
      bool candidate = (pt == "attribute" && ts_node_eq(fieldOf(parent, "attribute"), n) && p.file->textOf(n) == name) ||
                       (pt == "dotted_name" && (key.module || p.file->textOf(n) == name));
      if (!candidate) continue;
      if (pt == "dotted_name" && p.b.at(ts_node_start_byte(n)) && ts_node_eq(p.b.at(ts_node_start_byte(n))->node, n))
        continue;  // an Occurrence, done above
      if (auto k = r.keyOfNode(p, n); k && *k == key) add(n);
      continue;
    }
    pushChildren(stack, n);
  }
}

}  // namespace

std::vector<XRef> definition(const Snapshot& s, lang::TextPos pos, const WorkspaceView& ws) {
  Resolver r(s, ws);
  Parsed* p = r.parsed(s.file->path());
  auto key = r.keyAt(*p, s.file->offsetOf(pos));
  if (!key) return {};
  return {r.toXRef(*key)};
}

std::vector<XRef> references(const Snapshot& s, lang::TextPos pos, bool includeDeclaration, const WorkspaceView& ws) {
  Resolver r(s, ws);
  Parsed* p = r.parsed(s.file->path());
  uint32_t offset = s.file->offsetOf(pos);
  auto key = r.keyAt(*p, offset);
  if (!key) return {};
  // The name to look for: the symbol's own name, or the module's stem.
  std::string name;
  if (key->module) {
    std::filesystem::path kp(key->path);
    name = kp.stem() == "__init__" ? kp.parent_path().filename().string() : kp.stem().string();
  } else if (Parsed* kp = r.parsed(key->path)) {
    name = std::string(kp->file->text().substr(key->start, key->end - key->start));
  }
  std::vector<std::string> files{s.file->path()};
  if (key->global) {
    if (!key->module && key->path != s.file->path()) files.push_back(key->path);
    for (const std::string& f : ws.files)
      if (std::find(files.begin(), files.end(), f) == files.end()) files.push_back(f);
  } else if (key->path != s.file->path()) {
    files = {key->path};
  }
  std::vector<XRef> out;
  for (const std::string& f : files) {
    if (f != s.file->path() && f != key->path) {
      auto text = ws.text(f);
      if (!text || text->find(name) == std::string::npos) continue;  // cheap filter before parsing
    }
    if (Parsed* fp = r.parsed(f)) collectIn(r, *fp, *key, name, out);
  }
  std::vector<XRef> kept;
  for (XRef& x : out) {
    bool isDecl = !key->module && x.path == key->path && x.file &&
                  x.file->offsetOf(x.range.start) == key->start && x.file->offsetOf(x.range.end) == key->end;
    if (isDecl && !includeDeclaration) continue;
    bool dup = std::any_of(kept.begin(), kept.end(), [&](const XRef& k) {
      return k.path == x.path && k.range.start == x.range.start && k.range.end == x.range.end;
    });
    if (!dup) kept.push_back(std::move(x));
  }
  return kept;
}

}  // namespace tlens::lsp
