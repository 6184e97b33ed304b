import numpy as np
X = np.zeros((50, 3))
X[:, 0:2] = np.random.rand(50, 3)  # BUG
