import numpy as np
W = np.random.randn(64, 784)
x = np.random.randn(100, 784)
h = W @ x  # BUG
