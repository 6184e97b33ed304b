#!/usr/bin/env python3
"""Validation once: kernels run only after the op's shape function accepted the concrete shapes,
dtypes and attributes (runOp), so a kernel that checks them again holds a copy that can never
fire and drifts from the shape function. Every error a kernel raises (`fail(` in engine/kernels
and engine/cuda; also throwError, invalidArgument and throw EngineError) must be listed in tools/kernel_checks.tsv with the reason it belongs in the
kernel: a value (index or label ranges, sizes read from tensors), a variable (ref inputs reach
the shape function without their value), a backend limit, a dispatch default or an internal
invariant. A new check fails this script until it is listed, or moved to the shape function;
a listed check that no longer occurs fails it too (the list only shrinks with the code).

  python3 tools/check_kernel_checks.py [--root DIR] [--list FILE] [--print | --self-test]

--print writes every call site, for editing the list; --self-test runs the check over a small
tree with two unlisted checks (a c.fail and a throwError), a listed one and a stale row, and
fails unless exactly the unlisted ones and the stale row are reported. Standard library only; ctest runs it."""

import argparse
import os
import re
import sys

DIRS = ("engine/kernels", "engine/cuda")
EXTS = (".h", ".cpp", ".cu", ".cuh")
KINDS = {"value", "variable", "backend", "dispatch", "internal"}
# c.fail (the kernel API) and the engine's own error paths, so that no check goes around the list.
CALL = re.compile(r"\b(?:fail|throwError|invalidArgument)\(|\bthrow EngineError\(")


def calls(text):
    """(line, text of the call up to its closing parenthesis) for each error call in `text`."""
    out = []
    for m in CALL.finditer(text):
        # A declaration or definition of fail itself is not a call.
        head = text[text.rfind("\n", 0, m.start()) + 1 : m.start()]
        if re.search(r"\bvoid\s+$", head) or re.search(r"::\s*$", head):
            continue
        depth, i = 0, m.end() - 1
        while i < len(text):
            ch = text[i]
            if ch == '"':
                i += 1
                while i < len(text) and text[i] != '"':
                    i += 2 if text[i] == "\\" else 1
            elif ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        out.append((text.count("\n", 0, m.start()) + 1, " ".join(text[m.start() : i + 1].split())))
    return out


def sites(root):
    for d in DIRS:
        for dirpath, _, files in os.walk(os.path.join(root, d)):
            for f in sorted(files):
                if f.endswith(EXTS):
                    path = os.path.join(dirpath, f)
                    rel = os.path.relpath(path, root).replace(os.sep, "/")
                    with open(path, encoding="utf-8") as fh:
                        for line, call in calls(fh.read()):
                            yield rel, line, call


def read_list(path):
    """Rows: file, count, kind, a substring of the call, the reason (tab-separated; # comments)."""
    rows, errors = [], []
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.rstrip("\n").split("\t")
            if len(cols) != 5 or not cols[1].isdigit() or cols[2] not in KINDS or not cols[3] or not cols[4]:
                errors.append(f"{path}:{n}: want file<TAB>count<TAB>kind ({', '.join(sorted(KINDS))})<TAB>"
                              f"substring of the call<TAB>reason")
                continue
            rows.append({"file": cols[0], "count": int(cols[1]), "kind": cols[2], "key": cols[3],
                         "why": cols[4], "line": n, "seen": 0})
    return rows, errors


def check(root, list_path):
    rows, errors = read_list(list_path)
    for rel, line, call in sites(root):
        hits = [r for r in rows if r["file"] == rel and r["key"] in call]
        if len(hits) != 1:
            what = "is not listed" if not hits else f"matches {len(hits)} rows ({', '.join(str(h['line']) for h in hits)})"
            errors.append(f"{rel}:{line}: kernel check {what} in {os.path.relpath(list_path, root)}: {call}\n"
                          f"    a check of shapes, dtypes or attributes belongs in the op's shape function "
                          f"(engine/ops/defs); list only what depends on values")
            continue
        hits[0]["seen"] += 1
    for r in rows:
        if r["seen"] != r["count"]:
            errors.append(f"{os.path.relpath(list_path, root)}:{r['line']}: '{r['key']}' in {r['file']}: "
                          f"listed {r['count']} time(s), found {r['seen']}")
    return errors


def self_test():
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "engine/kernels/cpu"))
        with open(os.path.join(root, "engine/kernels/cpu/XKernels.cpp"), "w") as f:
            f.write('void k(KernelContext& c) {\n'
                    '  if (c.input(0).rank() != 2) c.fail("x must be a matrix (" + s + ")");\n'
                    '  if (v < 0) c.fail("Received a label value of " + std::to_string(v));\n'
                    '  if (y.rank() != 1) throwError(ErrorCode::InvalidArgument, "y must be a vector");\n}\n')
        lst = os.path.join(root, "list.tsv")
        with open(lst, "w") as f:
            f.write("engine/kernels/cpu/XKernels.cpp\t1\tvalue\tReceived a label value of\treads labels\n"
                    "engine/kernels/cpu/XKernels.cpp\t1\tvalue\tgone\tremoved\n")
        errors = check(root, lst)
    want = ["XKernels.cpp:2: kernel check is not listed", "XKernels.cpp:4: kernel check is not listed",
            "'gone' in engine/kernels/cpu/XKernels.cpp: listed 1"]
    ok = len(errors) == 3 and all(any(w in e for e in errors) for w in want)
    print("\n".join(errors))
    print("self-test " + ("passed" if ok else "FAILED"))
    return 0 if ok else 1


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.dirname(here))
    ap.add_argument("--list", default=None)
    ap.add_argument("--print", action="store_true")
    ap.add_argument("--self-test", action="store_true")
    a = ap.parse_args()
    if a.self_test:
        return self_test()
    if a.print:
        for rel, line, call in sites(a.root):
            print(f"{rel}:{line}: {call}")
        return 0
    errors = check(a.root, a.list or os.path.join(a.root, "tools", "kernel_checks.tsv"))
    for e in errors:
        print(e)
    if not errors:
        print("every kernel check is listed with its reason")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
