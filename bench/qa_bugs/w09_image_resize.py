import tensorflow as tf
img = tf.placeholder(tf.float32, [None, None, None, 3])
small = tf.image.resize_images(img, [64, 64])
w = tf.Variable(tf.zeros([3, 3, 1, 8]))
h = tf.nn.conv2d(small, w, [1, 1, 1, 1], 'SAME')  # BUG
