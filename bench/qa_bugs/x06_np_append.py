import numpy as np
data = np.zeros((10, 5))
row = np.ones(4)
data = np.append(data, [row], axis=0)  # BUG
