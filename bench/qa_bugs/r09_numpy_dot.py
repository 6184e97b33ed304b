import numpy as np
X = np.random.randn(100, 3)
w = np.random.randn(100, 1)
pred = np.dot(X, w)  # BUG
