# Prints the FNV-1a hashes that tests/tf/Dragon4Tests.cpp expects: numpy 1.24's text for every
# finite float16 and for 50000 pseudo-random float32 and float64 bit patterns, in five formats
# (scalar repr; format_float_positional / format_float_scientific with precision, unique=False,
# trim and min_digits), one value per line. Run with Debian's /usr/bin/python3 (python3-numpy).
#   /usr/bin/python3 tests/tf/tools/gen_dragon4_hashes.py
import numpy as np

assert np.__version__.startswith('1.24.'), np.__version__
MASK = (1 << 64) - 1


def fnv(text, h=0xcbf29ce484222325):
    for b in text.encode():
        h = ((h ^ b) * 0x100000001b3) & MASK
    return h


def lines(x):
    return '\n'.join([
        repr(x),
        np.format_float_positional(x, precision=4),
        np.format_float_scientific(x, precision=3, unique=False),
        np.format_float_positional(x, precision=6, unique=False, trim='-'),
        np.format_float_scientific(x, min_digits=5, trim='0'),
    ]) + '\n'


def lcg(n):
    s = 12345
    for _ in range(n):
        s = (s * 6364136223846793005 + 1442695040888963407) & MASK
        yield s


def hashed(values):
    h, count = 0xcbf29ce484222325, 0
    for x in values:
        if np.isfinite(x):
            h = fnv(lines(x), h)
            count += 1
    return h, count


h16 = hashed(np.arange(65536, dtype=np.uint16).view(np.float16))
h32 = hashed(np.array([s >> 32 for s in lcg(50000)], dtype=np.uint32).view(np.float32))
h64 = hashed(np.array(list(lcg(50000)), dtype=np.uint64).view(np.float64))
for name, (h, n) in (('float16', h16), ('float32', h32), ('float64', h64)):
    print('%s: 0x%016xull over %d values' % (name, h, n))
