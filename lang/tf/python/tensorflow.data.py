# tf.data: input pipelines. A Dataset is a chain of Python stages over numpy arrays (the
# elements), run eagerly outside the user's graph as TensorFlow runs them outside it:
# - eager code iterates a dataset (`for x, y in ds`, `iter`, `next`) and gets eager tensors;
# - graph code takes an iterator's get_next() tensors, placeholders that Session.run feeds with
#   the next element whenever a run needs them (`_tlens.auto_feed`), raising OutOfRangeError at
#   the end, as TensorFlow does; an initializable iterator restarts when its initializer runs
#   (with that run's feed_dict for datasets made from placeholders).
# Every dataset knows its element_spec (dtypes and static shapes) without reading data: map and
# filter functions are traced once on placeholders in a scratch graph. Abstract mode (the
# language server) never runs a pipeline: iteration yields one element of the spec's types.
import _tlens
import numpy as _np
import tensorflow as _tf

AUTOTUNE = -1
_tuple = tuple


class experimental:
    AUTOTUNE = -1


# --- structures ----------------------------------------------------------------------------------


# Tuples and dicts are structures; a list is one tensor, as tf.data treats it.
def _flatten(x):
    if isinstance(x, _tuple):
        out = []
        for v in x:
            out.extend(_flatten(v))
        return out
    if isinstance(x, dict):
        out = []
        for k in sorted(x.keys()):
            out.extend(_flatten(x[k]))
        return out
    return [x]


def _pack(template, leaves, pos=None):
    if pos is None:
        pos = [0]
    if isinstance(template, _tuple):
        return _tuple([_pack(t, leaves, pos) for t in template])
    if isinstance(template, dict):
        return {k: _pack(template[k], leaves, pos) for k in sorted(template.keys())}
    v = leaves[pos[0]]
    pos[0] += 1
    return v


TensorSpec = _tf.TensorSpec


def _dims(a):
    # The dims of an array or tensor (None for unknown ones), or None for an unknown rank.
    if _tlens.is_symbolic(a):
        return a.shape.as_list() if a.shape.ndims is not None else None
    return [int(d) for d in a.shape]


def _spec_dims(s):
    return s.shape.as_list() if s.shape.ndims is not None else None


def _specs(ds):
    return _flatten(ds.element_spec)


def _as_array(v):
    # A dataset component as a numpy array (numpy keeps float64, Python floats become float32 as
    # tf.convert_to_tensor makes them).
    if _tlens.is_ndarray(v):
        return v
    if _tf.is_tensor(v):
        if _tlens.is_symbolic(v):
            return v  # a graph tensor: evaluated when an iterator starts (_evaluate)
        return v.numpy()
    with _tlens.eager_scope():
        return _tf.convert_to_tensor(v).numpy()


def _evaluate(leaves, feed_dict):
    # Graph tensors among the components: their values in a run with the initializer's feeds.
    symbolic = [v for v in leaves if _tlens.is_symbolic(v)]
    if not symbolic:
        return leaves
    sess = _tf.Session()
    values = sess.run(symbolic, feed_dict=feed_dict)
    out, k = [], 0
    for v in leaves:
        if _tlens.is_symbolic(v):
            out.append(values[k])
            k += 1
        else:
            out.append(v)
    return out


def _to_eager(element):
    with _tlens.eager_scope():
        # A window (Dataset.window's elements are datasets) stays a dataset, as in TensorFlow.
        return _pack(element, [v if isinstance(v, Dataset) else _tf.convert_to_tensor(v) for v in _flatten(element)])


def _abstract_element(ds):
    return _pack(ds.element_spec, [_tlens.abstract_tensor(s.dtype, _spec_dims(s)) for s in _specs(ds)])


def _trace(fn, spec, args_of):
    # The structure fn returns, traced on placeholders of `spec` in a scratch graph.
    g = _tf.Graph()
    with g.as_default():
        leaves = [_tf.placeholder(s.dtype, _spec_dims(s)) for s in _flatten(spec)]
        out = fn(*args_of(_pack(spec, leaves)))
    return _pack(out, [TensorSpec(t.shape.as_list() if t.shape.ndims is not None else None, t.dtype)
                       if _tf.is_tensor(t) else TensorSpec([], _tf.convert_to_tensor(t).dtype)
                       for t in _flatten(out)])


def _call_args(element):
    return list(element) if isinstance(element, _tuple) else [element]


# --- datasets ------------------------------------------------------------------------------------


class Dataset:
    """The base of every dataset: subclasses set element_spec and define _elements(feed_dict),
    a generator of elements (structures of numpy arrays)."""

    element_spec = None

    # Sources.
    @staticmethod
    def from_tensor_slices(tensors):
        return _Slices(tensors)

    @staticmethod
    def from_tensors(tensors):
        return _Tensors(tensors)

    @staticmethod
    def range(*args, **kwargs):
        return _Range(*args, **kwargs)

    @staticmethod
    def zip(datasets):
        return _Zip(datasets)

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None, output_signature=None):
        return _Generator(generator, output_types, output_shapes, args, output_signature)

    # Transformations.
    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None, deterministic=None):
        return _Batch(self, batch_size, drop_remainder)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True):
        return _Shuffle(self, buffer_size, seed)

    def repeat(self, count=None):
        return _Repeat(self, count)

    def map(self, map_func, num_parallel_calls=None, deterministic=None):
        return _Map(self, map_func)

    def filter(self, predicate):
        return _Filter(self, predicate)

    def take(self, count):
        return _Take(self, count)

    def skip(self, count):
        return _Skip(self, count)

    def prefetch(self, buffer_size):
        return self

    def cache(self, filename=""):
        return self

    def enumerate(self, start=0):
        return _Zip((_Range(start, 2 ** 62), self))

    def concatenate(self, dataset):
        return _Concat(self, dataset)

    def unbatch(self):
        return _Unbatch(self)

    def window(self, size, shift=None, stride=1, drop_remainder=False):
        return _Window(self, size, shift, stride, drop_remainder)

    def flat_map(self, map_func):
        return _FlatMap(self, map_func)

    def with_options(self, options):
        return self

    # Reading.
    @property
    def output_shapes(self):
        return _pack(self.element_spec, [s.shape for s in _specs(self)])

    @property
    def output_types(self):
        return _pack(self.element_spec, [s.dtype for s in _specs(self)])

    def __iter__(self):
        if _tlens.graph_key() is not None:
            raise RuntimeError("__iter__() is only supported inside of tf.function or when eager execution is enabled.")
        return _EagerIterator(self)

    def as_numpy_iterator(self):
        return _NumpyIterator(self)

    def make_one_shot_iterator(self):
        return make_one_shot_iterator(self)

    def make_initializable_iterator(self, shared_name=None):
        return make_initializable_iterator(self)

    def cardinality(self):
        return _tf.constant(-2, _tf.int64)

    def __repr__(self):
        return "<%s element_spec=%s>" % (type(self).__name__, self.element_spec)


DatasetV1 = Dataset
DatasetV2 = Dataset


class _Slices(Dataset):
    def __init__(self, tensors):
        self._template = tensors
        self._leaves = [_as_array(v) for v in _flatten(tensors)]
        if not self._leaves:
            raise ValueError("from_tensor_slices needs at least one tensor")
        dims = [_dims(a) for a in self._leaves]
        for d in dims:
            if d is not None and len(d) == 0:
                raise ValueError("Unbatching a tensor is only supported for rank >= 1")
        first = dims[0][0] if dims[0] is not None else None
        for d in dims[1:]:
            n = d[0] if d is not None else None
            if first is not None and n is not None and n != first:
                raise ValueError("Dimensions %d and %d are not compatible" % (first, n))
        self._count = first
        self.element_spec = _pack(tensors, [TensorSpec(d[1:] if d is not None else None, a.dtype)
                                            for a, d in zip(self._leaves, dims)])

    def _elements(self, feed_dict):
        leaves = _evaluate(self._leaves, feed_dict)
        n = leaves[0].shape[0]
        for i in range(n):
            yield _pack(self._template, [a[i] for a in leaves])

    def _rows(self, feed_dict):
        return _evaluate(self._leaves, feed_dict)


class _Records(Dataset):
    """TFRecordDataset and TextLineDataset: one scalar string per record or line of each file, in
    order (files read when iterated; the analysis reads none)."""

    def __init__(self, filenames, kind, compression_type=None):
        if compression_type not in (None, ""):
            raise NotImplementedError("tensorlens: compressed %s files are not supported" % kind)
        if isinstance(filenames, (str, bytes)):
            filenames = [filenames]
        self._files = filenames
        self._kind = kind
        self.element_spec = TensorSpec([], _tf.string)

    def _paths(self, feed_dict):
        files = self._files
        if _tf.is_tensor(files):
            files = _evaluate([files], feed_dict)[0]
        out = []
        for f in _np.asarray(files).reshape(-1).tolist() if not isinstance(files, list) else files:
            out.append(f.decode() if isinstance(f, bytes) else str(f))
        return out

    def _elements(self, feed_dict):
        for path in self._paths(feed_dict):
            if self._kind == "TFRecord":
                import tensorflow._input_pipeline as _pipeline
                for record in _pipeline.tf_record_iterator(path):
                    yield _np.array(record)
            else:
                with open(path, "rb") as f:
                    lines = f.read().split(b"\n")
                if lines and lines[-1] == b"":
                    lines = lines[:-1]  # a final newline ends the last line; it starts none
                for line in lines:
                    yield _np.array(line.rstrip(b"\r"))


def TFRecordDataset(filenames, compression_type=None, buffer_size=None, num_parallel_reads=None, name=None):
    return _Records(filenames, "TFRecord", compression_type)


def TextLineDataset(filenames, compression_type=None, buffer_size=None, num_parallel_reads=None, name=None):
    return _Records(filenames, "text line", compression_type)


class _Tensors(Dataset):
    def __init__(self, tensors):
        self._template = tensors
        self._leaves = [_as_array(v) for v in _flatten(tensors)]
        self.element_spec = _pack(tensors, [TensorSpec(_dims(a), a.dtype) for a in self._leaves])

    def _elements(self, feed_dict):
        yield _pack(self._template, _evaluate(self._leaves, feed_dict))


class _Range(Dataset):
    def __init__(self, *args, **kwargs):
        dtype = kwargs.get("output_type", _tf.int64)
        if len(args) == 1:
            self._r = (0, args[0], 1)
        elif len(args) == 2:
            self._r = (args[0], args[1], 1)
        else:
            self._r = (args[0], args[1], args[2])
        self._dtype = dtype
        self.element_spec = TensorSpec([], dtype)

    def _elements(self, feed_dict):
        start, stop, step = self._r
        i = start
        while (step > 0 and i < stop) or (step < 0 and i > stop):
            yield _np.array(i, dtype=_tf.as_dtype(self._dtype).as_numpy_dtype)
            i += step


class _Zip(Dataset):
    def __init__(self, datasets):
        self._datasets = datasets
        self.element_spec = _pack(datasets, [d.element_spec for d in _flatten(datasets)])

    def _elements(self, feed_dict):
        its = [d._elements(feed_dict) for d in _flatten(self._datasets)]
        while True:
            items = []
            for it in its:
                try:
                    items.append(next(it))
                except StopIteration:
                    return
            yield _pack(self._datasets, items)


class _Generator(Dataset):
    def __init__(self, generator, output_types, output_shapes, args, output_signature):
        self._gen = generator
        self._args = list(args) if args is not None else []
        if output_signature is not None:
            self.element_spec = output_signature
        else:
            if output_types is None:
                raise TypeError("from_generator needs output_types or output_signature")
            shapes = output_shapes
            if shapes is None:
                shapes = _pack(output_types, [None for _ in _flatten(output_types)])
            flat_shapes = _flatten(shapes) if isinstance(output_types, (list, _tuple, dict)) else [shapes]
            self.element_spec = _pack(output_types, [TensorSpec(s, t) for s, t in zip(flat_shapes, _flatten(output_types))])

    def _elements(self, feed_dict):
        specs = _specs(self)
        for item in self._gen(*self._args):
            leaves = _flatten(item) if len(specs) > 1 else [item]
            yield _pack(self.element_spec, [_np.asarray(v, dtype=s.dtype.as_numpy_dtype) for v, s in zip(leaves, specs)])


class _Batch(Dataset):
    def __init__(self, source, batch_size, drop_remainder):
        if batch_size <= 0:
            raise ValueError("batch_size must be greater than zero.")
        self._source = source
        self._n = batch_size
        self._drop = drop_remainder
        first = batch_size if drop_remainder else None
        self.element_spec = _pack(source.element_spec,
                                  [TensorSpec([first] + _spec_dims(s) if s.shape.ndims is not None else None, s.dtype)
                                   for s in _specs(source)])

    def _elements(self, feed_dict):
        # Whole batches of rows at once over slices, in order or in a shuffle's permutation.
        slices, order = None, None
        if isinstance(self._source, _Slices):
            slices = self._source
        elif isinstance(self._source, _Shuffle) and self._source._whole():
            slices = self._source._source
        if slices is not None:
            rows = slices._rows(feed_dict)
            n = rows[0].shape[0]
            if slices is not self._source:
                order = self._source._permutation(n)
            for start in range(0, n, self._n):
                end = min(start + self._n, n)
                if end - start < self._n and self._drop:
                    return
                idx = order[start:end] if order is not None else None
                yield _pack(slices._template, [a[start:end] if idx is None else a[idx] for a in rows])
            return
        items = []
        for e in self._source._elements(feed_dict):
            items.append(_flatten(e))
            if len(items) == self._n:
                yield self._stack(items)
                items = []
        if items and not self._drop:
            yield self._stack(items)

    def _stack(self, items):
        return _pack(self._source.element_spec, [_np.stack([it[k] for it in items]) for k in range(len(items[0]))])


class _Shuffle(Dataset):
    def __init__(self, source, buffer_size, seed):
        self._source = source
        self._buffer = buffer_size
        self._rs = _np.random.RandomState(seed) if seed is not None else _np.random.RandomState()
        self.element_spec = source.element_spec

    def _whole(self):
        # The buffer holds the whole source: the order is a uniform permutation.
        return isinstance(self._source, _Slices) and self._source._count is not None and \
            self._buffer >= self._source._count

    def _permutation(self, n):
        return self._rs.permutation(n)

    def _elements(self, feed_dict):
        if self._whole():
            rows = self._source._rows(feed_dict)
            for i in self._permutation(rows[0].shape[0]).tolist():
                yield _pack(self._source._template, [a[i] for a in rows])
            return
        buf = []
        for e in self._source._elements(feed_dict):
            if len(buf) < self._buffer:
                buf.append(e)
                continue
            k = int(self._rs.randint(0, len(buf)))
            yield buf[k]
            buf[k] = e
        while buf:
            k = int(self._rs.randint(0, len(buf)))
            yield buf.pop(k)


class _Repeat(Dataset):
    def __init__(self, source, count):
        self._source = source
        self._count = -1 if count is None else count
        self.element_spec = source.element_spec

    def _elements(self, feed_dict):
        i = 0
        while self._count < 0 or i < self._count:
            empty = True
            for e in self._source._elements(feed_dict):
                empty = False
                yield e
            if empty:
                return
            i += 1


class _Map(Dataset):
    def __init__(self, source, fn):
        self._source = source
        self._fn = fn
        self.element_spec = _trace(fn, source.element_spec, _call_args)

    def _elements(self, feed_dict):
        for e in self._source._elements(feed_dict):
            with _tlens.eager_scope():
                out = self._fn(*_call_args(_to_eager(e)))
                yield _pack(out, [_tf.convert_to_tensor(v).numpy() for v in _flatten(out)])


class _Filter(Dataset):
    def __init__(self, source, predicate):
        self._source = source
        self._pred = predicate
        self.element_spec = source.element_spec

    def _elements(self, feed_dict):
        for e in self._source._elements(feed_dict):
            with _tlens.eager_scope():
                keep = bool(self._pred(*_call_args(_to_eager(e))))
            if keep:
                yield e


class _Take(Dataset):
    def __init__(self, source, count):
        self._source = source
        self._count = count
        self.element_spec = source.element_spec

    def _elements(self, feed_dict):
        if self._count == 0:
            return
        i = 0
        for e in self._source._elements(feed_dict):
            yield e
            i += 1
            if self._count >= 0 and i >= self._count:
                return


class _Skip(Dataset):
    def __init__(self, source, count):
        self._source = source
        self._count = count
        self.element_spec = source.element_spec

    def _elements(self, feed_dict):
        i = 0
        for e in self._source._elements(feed_dict):
            if i >= self._count:
                yield e
            i += 1


class _Concat(Dataset):
    def __init__(self, a, b):
        self._a = a
        self._b = b
        self.element_spec = a.element_spec

    def _elements(self, feed_dict):
        for e in self._a._elements(feed_dict):
            yield e
        for e in self._b._elements(feed_dict):
            yield e


class _Unbatch(Dataset):
    def __init__(self, source):
        self._source = source
        self.element_spec = _pack(source.element_spec, [TensorSpec(_spec_dims(s)[1:] if s.shape.ndims else None, s.dtype)
                                                        for s in _specs(source)])

    def _elements(self, feed_dict):
        for e in self._source._elements(feed_dict):
            leaves = _flatten(e)
            for i in range(leaves[0].shape[0]):
                yield _pack(self._source.element_spec, [a[i] for a in leaves])


class DatasetSpec:
    """The spec of an element that is itself a dataset (a window)."""

    def __init__(self, element_spec):
        self.element_spec = element_spec

    def __repr__(self):
        return "DatasetSpec(%s, TensorShape([]))" % (self.element_spec,)


class _List(Dataset):
    """A window: a dataset over elements already read."""

    def __init__(self, spec, items):
        self.element_spec = spec
        self._items = items

    def _elements(self, feed_dict):
        for e in self._items:
            yield e


class _Window(Dataset):
    """Dataset.window: datasets of `size` elements (every `stride`-th), a new one every `shift`
    elements; the last, shorter ones unless drop_remainder."""

    def __init__(self, source, size, shift, stride, drop_remainder):
        size = int(size)
        shift = size if shift is None else int(shift)
        stride = int(stride)
        for name, v in (("size", size), ("shift", shift), ("stride", stride)):
            if v <= 0:
                raise _tf.errors.InvalidArgumentError(None, None, "Window %s must be greater than zero, but got %d." % (name, v))
        self._source = source
        self._size, self._shift, self._stride, self._drop = size, shift, stride, bool(drop_remainder)
        self.element_spec = _pack(source.element_spec, [DatasetSpec(sp) for sp in _specs(source)])

    def _window(self, items):
        picked = items[::self._stride][:self._size]
        specs = _specs(self._source)
        return _pack(self._source.element_spec, [_List(specs[k], [it[k] for it in picked]) for k in range(len(specs))])

    def _elements(self, feed_dict):
        span = (self._size - 1) * self._stride + 1
        buf, skip = [], 0
        for e in self._source._elements(feed_dict):
            if skip > 0:
                skip -= 1
                continue
            buf.append(_flatten(e))
            if len(buf) == span:
                yield self._window(buf)
                if self._shift >= span:
                    buf, skip = [], self._shift - span
                else:
                    buf = buf[self._shift:]
        if not self._drop:
            while buf:
                yield self._window(buf)
                buf = buf[self._shift:]


def _probe(spec):
    # flat_map's function applied to stand-ins of an element: windows as empty datasets, tensors as
    # placeholders of a scratch graph.
    return _pack(spec, [_List(sp.element_spec, []) if isinstance(sp, DatasetSpec) else _tf.placeholder(sp.dtype, _spec_dims(sp))
                        for sp in _flatten(spec)])


class _FlatMap(Dataset):
    def __init__(self, source, fn):
        self._source = source
        self._fn = fn
        g = _tf.Graph()
        with g.as_default():
            out = fn(*_call_args(_probe(source.element_spec)))
        if not isinstance(out, Dataset):
            raise TypeError("The `map_func` argument must return a `Dataset` object. Got %s." % type(out))
        self.element_spec = out.element_spec

    def _elements(self, feed_dict):
        for e in self._source._elements(feed_dict):
            with _tlens.eager_scope():
                args = _pack(e, [v if isinstance(v, Dataset) else _tf.convert_to_tensor(v) for v in _flatten(e)])
                ds = self._fn(*_call_args(args))
            for x in ds._elements(feed_dict):
                yield x


# --- iterators -----------------------------------------------------------------------------------


class _EagerIterator:
    def __init__(self, ds):
        self._ds = ds
        self._abstract = _tlens.is_abstract()
        if self._abstract:
            # The analysis does not know how many elements there are: next() always gives one of
            # the spec's types (never a StopIteration that a real run would not raise), and a
            # for loop takes the first as standing for all of them.
            self._tlens_representative = 1
        self._it = None if self._abstract else ds._elements(None)

    def __iter__(self):
        return self

    def __next__(self):
        if self._abstract:
            return _abstract_element(self._ds)
        return _to_eager(next(self._it))

    def next(self):
        return self.__next__()

    def get_next(self):
        try:
            return self.__next__()
        except StopIteration:
            raise _tf.errors.OutOfRangeError(None, None, "End of sequence")

    @property
    def element_spec(self):
        return self._ds.element_spec


class _NumpyIterator(_EagerIterator):
    def __next__(self):
        if self._abstract:
            return _EagerIterator.__next__(self)
        e = next(self._it)
        return _pack(e, [v for v in _flatten(e)])


class Iterator:
    """A graph iterator (tf.compat.v1.data.Iterator): get_next() gives placeholders that
    Session.run feeds with the next element."""

    def __init__(self, ds, initializable):
        self._ds = ds
        self._it = None
        self._started = not initializable
        self._initializer = None
        self.element_spec = ds.element_spec
        self.output_shapes = ds.output_shapes
        self.output_types = ds.output_types
        if initializable and _tlens.graph_key() is not None:
            flag = _tf.placeholder(_tf.bool, [], name="MakeIterator")
            _tlens.auto_feed([flag], self._restart)
            with _tf.control_dependencies([flag]):
                self._initializer = _tf.no_op(name="iterator_initializer")

    def _restart(self, feed_dict):
        self._it = self._ds._elements(feed_dict)
        self._started = True
        return [True]

    def _next(self, feed_dict):
        if not self._started:
            raise _tf.errors.FailedPreconditionError(None, None, "GetNext() failed because the iterator has not been "
                                                                 "initialized. Ensure that you have run the initializer "
                                                                 "operation for this iterator before getting the next "
                                                                 "element.")
        if self._it is None:
            self._it = self._ds._elements(feed_dict)
        try:
            e = next(self._it)
        except StopIteration:
            raise _tf.errors.OutOfRangeError(None, None, "End of sequence")
        return _flatten(e)

    @property
    def initializer(self):
        if self._initializer is None:
            raise ValueError("Iterator does not have an initializer.")
        return self._initializer

    def make_initializer(self, dataset, name=None):
        self._ds = dataset
        return self.initializer

    def get_next(self, name=None):
        if _tlens.graph_key() is None:
            return _EagerIterator(self._ds).get_next()
        specs = _specs(self._ds)
        leaves = [_tf.placeholder(s.dtype, _spec_dims(s), name="IteratorGetNext" if name is None else name) for s in specs]
        _tlens.auto_feed(leaves, self._next)
        return _pack(self._ds.element_spec, leaves)

    @staticmethod
    def from_structure(output_types, output_shapes=None, shared_name=None, output_classes=None):
        raise NotImplementedError("tensorlens: tf.data.Iterator.from_structure (reinitializable iterators) is not "
                                  "modelled yet; use make_initializable_iterator")


def make_one_shot_iterator(dataset):
    return Iterator(dataset, False)


def make_initializable_iterator(dataset, shared_name=None):
    return Iterator(dataset, True)


def get_output_shapes(dataset_or_iterator):
    return dataset_or_iterator.output_shapes


def get_output_types(dataset_or_iterator):
    return dataset_or_iterator.output_types


class Options:
    def __init__(self):
        self.experimental_deterministic = True
