# tf.estimator.inputs (TF1): numpy_input_fn, an input_fn over numpy arrays (a dict of features or
# one array, and labels) through tf.data: shuffled with a queue_capacity buffer, num_epochs
# times (None: forever), batches of batch_size with the last partial one.
import tensorflow as _tf


def numpy_input_fn(x, y=None, batch_size=128, num_epochs=1, shuffle=None, queue_capacity=1000, num_threads=1):
    if not isinstance(shuffle, bool):
        raise ValueError("shuffle must be provided explicitly as boolean, it is recommended to set it as True "
                         "for training; got {}".format(shuffle))

    def input_fn():
        features = dict(x) if isinstance(x, dict) else x
        if isinstance(features, dict):
            lengths = set(len(v) for v in features.values())
            if y is not None:
                lengths.add(len(y))
            if len(lengths) > 1:
                raise ValueError("Length of tensors in x and y is mismatched.")
        data = (features, y) if y is not None else features
        ds = _tf.data.Dataset.from_tensor_slices(data)
        if shuffle:
            ds = ds.shuffle(queue_capacity)
        ds = ds.repeat(num_epochs).batch(batch_size)
        return ds.make_one_shot_iterator().get_next()
    return input_fn


def pandas_input_fn(x, y=None, batch_size=128, num_epochs=1, shuffle=None, queue_capacity=1000, num_threads=1,
                    target_column="target"):
    arrays = {k: x[k].values for k in x.columns}
    return numpy_input_fn(arrays, None if y is None else y.values, batch_size, num_epochs, shuffle, queue_capacity,
                          num_threads)
