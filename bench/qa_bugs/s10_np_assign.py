import numpy as np
data = np.zeros((10, 28, 28))
imgs = np.random.rand(10, 784)
for i in range(10):
    data[i] = imgs[i]  # BUG
