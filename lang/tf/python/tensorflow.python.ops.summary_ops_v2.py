# tensorflow.python.ops.summary_ops_v2: TensorFlow's tf.summary under its internal name (each name is the public one).
import tensorflow as _tf

FileWriter = _tf.summary.FileWriter
audio = _tf.summary.audio
create_file_writer = _tf.summary.create_file_writer
experimental = _tf.summary.experimental
histogram = _tf.summary.histogram
image = _tf.summary.image
merge = _tf.summary.merge
merge_all = _tf.summary.merge_all
scalar = _tf.summary.scalar
text = _tf.summary.text
