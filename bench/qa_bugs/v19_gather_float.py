import numpy as np
labels = np.array([0, 2, 1, 3], dtype=np.float32)
onehot = np.eye(4)[labels]  # BUG
