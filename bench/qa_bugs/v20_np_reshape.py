import numpy as np
images = np.random.rand(100, 28, 28)
flat = images.reshape(100, 28 * 27)  # BUG
