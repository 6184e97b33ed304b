# Device scopes: nodes created under tf.device carry the requested device; `tlens graph`, hovers
# and the debugger show where each node runs. Without a GPU, soft placement runs them on /cpu:0
# and says why; `tlens run --virtual-gpus 1` runs the MatMul on a simulated /gpu:0 and logs the
# copies between the devices (docs/devices.md).
import tensorflow as tf

with tf.device("/cpu:0"):
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]], name="a")
    b = tf.constant([[1.0, 1.0], [0.0, 1.0]], name="b")
with tf.device("/gpu:0"):
    c = tf.matmul(a, b, name="c")

with tf.Session(config=tf.ConfigProto(log_device_placement=True, allow_soft_placement=True)) as sess:
    print(sess.run(c))
