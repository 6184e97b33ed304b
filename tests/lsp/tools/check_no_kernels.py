#!/usr/bin/env python3
"""The language server's test binary links no kernels and no CUDA or oneDNN library (#20 item 2).

  python3 check_no_kernels.py BINARY

Two checks on BINARY (tlens_lsp_tests, linked like tlens_lsp): `ldd` lists no CUDA, cuDNN,
cuBLAS or oneDNN library, and `nm` finds none of the runtime's symbols (the kernel registry, the
executor, eager execution, the CUDA backend), which a static link of tlens_runtime would bring
whether or not any shared library is involved. Prints each offender and exits 1 if there is one.
Standard library only; ctest runs it (tests/CMakeLists.txt)."""

import re
import subprocess
import sys

# Shared libraries the kernels load or link: CUDA's runtime and driver, cuBLAS, cuDNN, oneDNN.
LIBRARIES = re.compile(r"lib(cuda|cudart|cublas|cublasLt|cudnn[\w]*|dnnl|nvrtc|nvidia[\w-]*)\.so")
# Symbols (demangled) that only tlens_runtime and tlens_cuda define.
SYMBOLS = re.compile(r"tlens::(KernelRegistry::|runOp\(|EagerContext::|Session::run\(|machineDevices\(|cuda::)")


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 2
    binary = argv[1]
    problems = []
    ldd = subprocess.run(["ldd", binary], capture_output=True, text=True, check=True).stdout
    for line in ldd.splitlines():
        if LIBRARIES.search(line):
            problems.append("ldd: " + line.strip())
    nm = subprocess.run(["nm", "-C", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    symbols = [line for line in nm.splitlines() if SYMBOLS.search(line)]
    problems += ["nm: " + line.strip() for line in symbols[:20]]
    if len(symbols) > 20:
        problems.append("nm: ... %d more runtime symbols" % (len(symbols) - 20))
    for p in problems:
        print("%s: %s" % (binary, p))
    if not problems:
        print("%s: no kernel, runtime or CUDA library (%d shared libraries checked)" % (binary, len(ldd.splitlines())))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
