# NOT A BUG: column-wise normalisation broadcasts (100, 5) with (5,)
import numpy as np
X = np.random.rand(100, 5)
X = (X - X.mean(axis=0)) / X.std(axis=0)
W = np.random.randn(5, 2)
print((X @ W).shape)
