# tensorflow.python.framework.dtypes: tf.dtypes under its internal name (each name is the public one).
import tensorflow as _tf

as_dtype = _tf.dtypes.as_dtype
bool = _tf.dtypes.bool
float16 = _tf.dtypes.float16
float32 = _tf.dtypes.float32
float64 = _tf.dtypes.float64
int32 = _tf.dtypes.int32
int64 = _tf.dtypes.int64
string = _tf.dtypes.string
uint8 = _tf.dtypes.uint8
