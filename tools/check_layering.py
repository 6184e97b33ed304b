#!/usr/bin/env python3
"""Checks the layering rules of docs/layering.md: every #include of the C++ sources and every
target_link_libraries of the CMake files. Prints each violation as file:line: message and exits
1 when there is one (or when an allowed exception no longer occurs: the list only shrinks).

  python3 tools/check_layering.py [--root DIR] [--rules FILE]

Standard library only; ctest runs it (tests/CMakeLists.txt)."""

import argparse
import os
import re
import sys

SOURCE_EXTS = (".h", ".hpp", ".cpp", ".cc", ".cu", ".cuh")
# Sources are checked in every top-level folder but those of the '## Not checked' table, build
# trees and hidden folders. CMake files are read everywhere except in these folders
# (tests/layering holds the checker's own fixture).
CMAKE_SKIP = ("node_modules", "_deps", ".git", "extensions", "tests/layering")


class Rules:
    def __init__(self):
        self.includes = {}      # folder -> set of folders it may include
        self.private = {}       # header -> set of folders that may include it
        self.external = {}      # header prefix -> set of folders that may include it
        self.links = {}         # library -> (set it may link, set it must never reach)
        self.allowed = {}       # (from, to) -> line in the rules file
        self.unchecked = set()  # top-level folders whose sources may use any layer


def code_spans(cell):
    return re.findall(r"`([^`]+)`", cell)


def parse_rules(path, shown):
    """The tables under the '## ' headings of the rules page, by heading; `shown` names it in messages."""
    rules = Rules()
    section = None
    errors = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if line.startswith("## "):
                section = line[3:].strip().lower()
                continue
            if not line.startswith("|") or re.match(r"^\|[-| ]+\|\s*$", line):
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            first = code_spans(cells[0])
            if not first:
                continue  # the header row
            key = first[0]
            if section == "includes":
                rules.includes[key] = set(code_spans(cells[1]))
            elif section == "private headers":
                rules.private[key] = set(code_spans(cells[1]))
            elif section == "external headers":
                rules.external[key] = set(code_spans(cells[1]))
            elif section == "links":
                rules.links[key] = (set(code_spans(cells[1])), set(code_spans(cells[2])))
            elif section == "not checked":
                rules.unchecked.update(first)
            elif section == "allowed exceptions":
                to = code_spans(cells[1])
                issue = cells[2] if len(cells) > 2 else ""
                if not to or not re.search(r"#\d+", issue):
                    errors.append("%s:%d: an allowed exception needs a `to` and an issue number (#N)" % (shown, lineno))
                    continue
                rules.allowed[(key, to[0])] = lineno
    if not rules.includes or not rules.links:
        errors.append("%s: no '## Includes' or '## Links' table found" % shown)
    return rules, errors


def folder_rule(rules, folder):
    """The longest folder in the includes table that contains `folder`, or None."""
    best = None
    for f in rules.includes:
        if (folder == f or folder.startswith(f + "/")) and (best is None or len(f) > len(best)):
            best = f
    return best


def within(path, folders):
    return any(path == f or path.startswith(f + "/") for f in folders)


def check_includes(root, rules, used_allowed):
    violations = []
    tops = sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d))
                  and d not in rules.unchecked and not d.startswith((".", "build")))
    for top in tops:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames[:] = sorted(d for d in dirnames if d not in ("node_modules", "_deps"))
            for name in sorted(filenames):
                if not name.endswith(SOURCE_EXTS):
                    continue
                full = os.path.join(dirpath, name)
                rel = os.path.relpath(full, root).replace(os.sep, "/")
                folder = os.path.dirname(rel)
                own = folder_rule(rules, folder)
                if own is None:
                    violations.append("%s:1: folder %s has no row in the includes table" % (rel, folder))
                    continue
                with open(full, encoding="utf-8", errors="replace") as f:
                    for lineno, line in enumerate(f, 1):
                        m = re.match(r'\s*#\s*include\s*([<"])([^">]+)[">]', line)
                        if not m:
                            continue
                        quoted, inc = m.group(1) == '"', m.group(2)
                        violation = None
                        if quoted:
                            # Project headers are named from the root; a bare name is a sibling.
                            target = inc
                            if "/" not in inc or os.path.exists(os.path.join(dirpath, inc)):
                                target = os.path.normpath(os.path.join(folder, inc)).replace(os.sep, "/")
                            tfolder = os.path.dirname(target)
                            if target in rules.private and not within(folder, rules.private[target]):
                                violation = "%s is private to %s" % (target, " ".join(sorted(rules.private[target])))
                            elif not os.path.exists(os.path.join(root, target)):
                                continue  # generated (EmbeddedPython.h) or a third-party header
                            elif within(tfolder, [own]):
                                continue
                            elif not within(tfolder, rules.includes[own]):
                                where = folder if folder == own else "%s (rule %s)" % (folder, own)
                                violation = "%s may not include %s" % (where, target)
                        else:
                            for prefix, allowed in rules.external.items():
                                if inc.startswith(prefix) and not within(folder, allowed):
                                    violation = "<%s> is allowed only in %s" % (inc, " ".join(sorted(allowed)))
                                    target = inc
                        if violation is None:
                            continue
                        key = (rel, target)
                        if key in rules.allowed:
                            used_allowed.add(key)
                            continue
                        violations.append("%s:%d: %s" % (rel, lineno, violation))
    return violations


def parse_cmake(root):
    """Libraries (add_library) and direct links (target_link_libraries) of the project's CMake files."""
    libraries = {}   # name -> (file, line)
    links = {}       # name -> list of (dep, file, line)
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root).replace(os.sep, "/")
        dirnames[:] = sorted(d for d in dirnames if d not in CMAKE_SKIP and not d.startswith("build")
                             and os.path.normpath(os.path.join(rel_dir, d)).replace(os.sep, "/") not in CMAKE_SKIP)
        for name in sorted(filenames):
            if name != "CMakeLists.txt" and not name.endswith(".cmake"):
                continue
            full = os.path.join(dirpath, name)
            rel = os.path.normpath(os.path.join(rel_dir, name)).replace(os.sep, "/")
            with open(full, encoding="utf-8", errors="replace") as f:
                text = f.read()
            text_nc = re.sub(r"#[^\n]*", lambda m: " " * len(m.group(0)), text)
            for m in re.finditer(r"\b(add_library|add_executable|target_link_libraries)\s*\(([^)]*)\)", text_nc):
                line = text_nc.count("\n", 0, m.start()) + 1
                args = m.group(2).split()
                if not args or args[0].startswith("${"):
                    continue
                if m.group(1) == "add_library":
                    libraries.setdefault(args[0], (rel, line))
                elif m.group(1) == "target_link_libraries":
                    for dep in args[1:]:
                        if dep.startswith("tlens_"):
                            links.setdefault(args[0], []).append((dep, rel, line))
    return libraries, links


def check_links(root, rules, used_allowed):
    violations = []
    libraries, links = parse_cmake(root)
    for lib, (rel, line) in sorted(libraries.items()):
        if lib.startswith("tlens_") and lib not in rules.links:
            violations.append("%s:%d: library %s has no row in the links table" % (rel, line, lib))

    def reach(name, seen):
        for dep, _, _ in links.get(name, []):
            if dep not in seen:
                seen.add(dep)
                reach(dep, seen)
        return seen

    for lib, (may, never) in sorted(rules.links.items()):
        for dep, rel, line in links.get(lib, []):
            problems = []
            if dep not in may:
                problems.append("%s may not link %s" % (lib, dep))
            if dep in never:
                problems.append("%s must never reach %s" % (lib, dep))
            bad = sorted(reach(dep, set()) & never)
            if bad:
                problems.append("%s reaches %s through %s" % (lib, " ".join(bad), dep))
            if not problems:
                continue
            if (lib, dep) in rules.allowed:
                used_allowed.add((lib, dep))
                continue
            violations.append("%s:%d: %s" % (rel, line, "; ".join(problems)))
    return violations


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.dirname(here))
    ap.add_argument("--rules", default=None, help="default: ROOT/docs/layering.md")
    args = ap.parse_args()
    rules_path = args.rules or os.path.join(args.root, "docs", "layering.md")
    rel_rules = os.path.relpath(rules_path, args.root)
    rules, errors = parse_rules(rules_path, rel_rules)
    used = set()
    violations = errors + check_includes(args.root, rules, used) + check_links(args.root, rules, used)
    for key, lineno in sorted(rules.allowed.items(), key=lambda kv: kv[1]):
        if key not in used:
            violations.append("%s:%d: the allowed exception %s -> %s no longer occurs: delete its row"
                              % (rel_rules, lineno, key[0], key[1]))
    for v in violations:
        print(v)
    checked = "%d include rules, %d link rules, %d allowed exceptions" % (
        len(rules.includes), len(rules.links), len(rules.allowed))
    if violations:
        print("layering: %d violation(s) of %s (%s)" % (len(violations), rel_rules, checked))
        return 1
    print("layering: OK (%s)" % checked)
    return 0


if __name__ == "__main__":
    sys.exit(main())
