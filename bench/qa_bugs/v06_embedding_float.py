import tensorflow as tf
ids = tf.placeholder(tf.float32, [None, 50])
emb = tf.Variable(tf.random_uniform([10000, 128], -1.0, 1.0))
vecs = tf.nn.embedding_lookup(emb, ids)  # BUG
