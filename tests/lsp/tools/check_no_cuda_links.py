#!/usr/bin/env python3
"""No CUDA library is a load-time dependency of the given binaries (#20 item 2).

  python3 check_no_cuda_links.py BINARY...
  python3 check_no_cuda_links.py --self-test

Runs `ldd` on each BINARY (ctest passes `tlens` and `tlens_lsp_tests`) and fails when it lists
the CUDA driver or runtime, cuBLAS, cuDNN or another NVIDIA library: the CUDA backend links the
runtime statically and loads cuBLAS and cuDNN with dlopen on first use (engine/cuda/CudaRuntime.h,
engine/cuda/Cudnn.h), so that `tlens lsp`, `tlens check` and every CPU-only program start without
them, GPU or not. ldd lists transitive dependencies too, and a library that is not found
("=> not found") still counts. `--self-test` runs the matcher over canned ldd output, so that the
check can be seen to fail. Prints each offender and exits 1 if there is one.
Standard library only; ctest runs it (tests/CMakeLists.txt)."""

import re
import subprocess
import sys

# The driver (libcuda), the runtime (libcudart), cuBLAS (libcublas, libcublasLt), cuDNN (libcudnn
# and its sub-libraries), NVRTC, nvJitLink and the driver's own helpers (libnvidia-*).
LIBRARIES = re.compile(r"\blib(cuda|cudart|cublas|cublasLt|cudnn\w*|nvrtc\w*|nvJitLink|nvidia[\w-]*)\.so")


def offenders(ldd_output):
    return [line.strip() for line in ldd_output.splitlines() if LIBRARIES.search(line)]


def self_test():
    canned = """\
\tlinux-vdso.so.1 (0x00007ffd)
\tlibtree-sitter.so.0 => /lib/x86_64-linux-gnu/libtree-sitter.so.0 (0x00007f6f)
\tlibcudnn.so.9 => /usr/local/cuda/lib/libcudnn.so.9 (0x00007f6f)
\tlibcublas.so.13 => not found
\tlibcublasLt.so.13 => /usr/local/cuda/lib64/libcublasLt.so.13 (0x00007f6f)
\tlibcudart.so.13 => /usr/local/cuda/lib64/libcudart.so.13 (0x00007f6f)
\tlibcuda.so.1 => /lib/x86_64-linux-gnu/libcuda.so.1 (0x00007f6f)
\tlibcurl.so.4 => /lib/x86_64-linux-gnu/libcurl.so.4 (0x00007f6f)
\tlibdl.so.2 => /lib/x86_64-linux-gnu/libdl.so.2 (0x00007f6f)
"""
    found = [line.split()[0] for line in offenders(canned)]
    want = ["libcudnn.so.9", "libcublas.so.13", "libcublasLt.so.13", "libcudart.so.13", "libcuda.so.1"]
    if found != want:
        print("self-test: expected %s, got %s" % (want, found))
        return 1
    print("self-test: the check reports %s and nothing else" % ", ".join(found))
    return 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) < 2 or argv[1].startswith("-"):
        print(__doc__)
        return 2
    failures = 0
    for binary in argv[1:]:
        ldd = subprocess.run(["ldd", binary], capture_output=True, text=True, check=True).stdout
        bad = offenders(ldd)
        for line in bad:
            print("%s: links %s" % (binary, line))
        if bad:
            failures += 1
        else:
            print("%s: no CUDA library among its %d load-time dependencies" % (binary, len(ldd.splitlines())))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
