# Writes the .npz fixtures of tests/tf/NumpyNpzTests.cpp with real numpy (Debian's python3-numpy):
#   /usr/bin/python3 tests/tf/data/npz/make_fixtures.py
import os

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
np.savez(os.path.join(here, 'arrays.npz'), x=np.arange(6).reshape(2, 3), y=np.array([1.5, 2.5], dtype=np.float32),
         f=np.asfortranarray(np.arange(6.0).reshape(2, 3)), b=np.array([True, False]), s=np.array(7, dtype=np.uint8))
np.savez_compressed(os.path.join(here, 'compressed.npz'), np.arange(4), labels=np.array([3, 1], dtype=np.int32))
