import numpy as np
a = np.zeros((100, 3))
b = np.zeros((99, 1))
c = np.hstack([a, b])  # BUG
