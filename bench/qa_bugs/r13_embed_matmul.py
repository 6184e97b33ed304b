import tensorflow as tf
ids = tf.placeholder(tf.int32, [None, 20])
emb = tf.Variable(tf.random_uniform([5000, 128], -1.0, 1.0))
e = tf.nn.embedding_lookup(emb, ids)
W = tf.Variable(tf.random_normal([128, 2]))
logits = tf.matmul(e, W)  # NOT A BUG: tf.matmul of rank 3 by rank 2 is BatchMatMulV2 with broadcasting (TF >= 1.14); it runs
