# Writes the numpy pickles tests/tf/PickleTests.cpp reads, with Debian's CPython and numpy:
#   cd tests/tf/data/pickles && /usr/bin/python3 make_fixtures.py
# py2_cifar.pkl imitates CIFAR-10's data_batch files (pickled by Python 2: byte-string keys,
# a uint8 array whose data is a Python 2 str), written opcode by opcode.
import pickle

import numpy as np

arrays = {'f32': np.arange(6, dtype=np.float32).reshape(2, 3), 'u8': np.array([[1, 2], [255, 0]], dtype=np.uint8),
          'i64': np.array([-1, 5], dtype=np.int64), 'f64s': np.float64(0.25),
          'fort': np.asfortranarray(np.arange(6, dtype=np.int32).reshape(2, 3)), 'b': np.array([True, False])}
for p in (2, 4, 5):
    with open('np%d.pkl' % p, 'wb') as f:
        f.write(pickle.dumps(arrays, protocol=p))

raw = bytes([1, 2, 3, 250, 128, 0])
arr = (b'cnumpy.core.multiarray\n_reconstruct\nq\x06cnumpy\nndarray\nq\x07K\x00\x85U\x01b\x87Rq\x08(K\x01K\x02K\x03\x86'
       b'cnumpy\ndtype\nq\x09U\x02u1K\x00K\x01\x87Rq\n(K\x03U\x01|NNNJ\xff\xff\xff\xffJ\xff\xff\xff\xffK\x00tb\x89U\x06'
       + raw + b'tb')
data = (b'\x80\x02}q\x00(U\x04dataq\x01' + arr + b'U\x06labelsq\x02]q\x03(K\x06K\tK\x06eU\x0bbatch_labelq\x04'
        b'U\x15training batch 1 of 5q\x05U\tfilenamesq\x0b]q\x0c(U\x05a.pngU\x05b.pngeu.')
assert pickle.loads(data, encoding='bytes')[b'data'].tolist() == [[1, 2, 3], [250, 128, 0]]
with open('py2_cifar.pkl', 'wb') as f:
    f.write(data)
