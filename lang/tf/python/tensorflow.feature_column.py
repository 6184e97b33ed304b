# tf.feature_column (TF1): numeric_column and input_layer, what estimators' feature_columns take.
# Columns are read in the order of their names, as TensorFlow's input_layer sorts them.
import tensorflow as _tf


class _NumericColumn:
    def __init__(self, key, shape, default_value, dtype, normalizer_fn):
        self.key = key
        self.shape = shape
        self.default_value = default_value
        self.dtype = dtype
        self.normalizer_fn = normalizer_fn

    @property
    def name(self):
        return self.key

    def _dense(self, features):
        if self.key not in features:
            raise ValueError("The following feature is not in features dict: %s" % self.key)
        x = _tf.convert_to_tensor(features[self.key])
        if self.normalizer_fn is not None:
            x = self.normalizer_fn(x)
        size = 1
        for d in self.shape:
            size *= d
        return _tf.reshape(_tf.cast(x, _tf.float32), [-1, size])

    def __repr__(self):
        return "NumericColumn(key=%r, shape=%r, default_value=%r, dtype=%r, normalizer_fn=%r)" % (
            self.key, self.shape, self.default_value, self.dtype, self.normalizer_fn)


def numeric_column(key, shape=(1,), default_value=None, dtype=_tf.float32, normalizer_fn=None):
    if not isinstance(key, str):
        raise ValueError("key must be a string. Given: %s" % (key,))
    shape = (shape,) if isinstance(shape, int) else tuple(int(d) for d in shape)
    for d in shape:
        if d < 1:
            raise ValueError("shape dimensions must be greater than 0. shape: %s, key: %s" % (shape, key))
    if normalizer_fn is not None and not callable(normalizer_fn):
        raise TypeError("normalizer_fn must be a callable. Given: %s" % (normalizer_fn,))
    return _NumericColumn(key, shape, default_value, dtype, normalizer_fn)


def input_layer(features, feature_columns, weight_collections=None, trainable=True, cols_to_vars=None,
                cols_to_output_tensors=None):
    columns = list(feature_columns)
    if not columns:
        raise ValueError("feature_columns must not be empty.")
    for c in columns:
        if not isinstance(c, _NumericColumn):
            raise NotImplementedError("tensorlens: feature column %r is not modelled (numeric_column only)" % (c,))
    with _tf.variable_scope(None, default_name="input_layer"):
        parts = []
        for c in sorted(columns, key=lambda c: c.name):
            with _tf.variable_scope(None, default_name=c.name):
                parts.append(c._dense(features))
        return parts[0] if len(parts) == 1 else _tf.concat(parts, 1)
