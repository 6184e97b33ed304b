# tf.python_io: TFRecord files (tensorflow._input_pipeline writes and reads their framing).
from tensorflow._input_pipeline import TFRecordWriter, TFRecordOptions, TFRecordCompressionType, tf_record_iterator
