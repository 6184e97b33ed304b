# tensorflow._input_pipeline: TF1's queue-based input pipelines, single-threaded and deterministic.
#
# - Queues (FIFOQueue, RandomShuffleQueue, PaddingFIFOQueue) hold their elements here, in Python.
#   An enqueue op is a no_op that depends on a placeholder the session feeds by running the
#   enqueued tensors and storing their values (`_tlens.auto_feed`); a dequeue gives placeholders
#   the session feeds with elements taken from the queue.
# - Queue runners (tf.train.QueueRunner, the input producers, tf.train.batch) have no threads: a
#   started runner runs its enqueue ops when a dequeue needs elements, in the session that started
#   it, so a program reads its data in the same order on every run. A runner whose inputs end
#   (OutOfRangeError) closes its queue; a dequeue from a closed queue without enough elements
#   raises OutOfRangeError as TensorFlow does. Where TensorFlow would block forever (a dequeue
#   that nothing will fill, typically start_queue_runners never called), the run fails and says so.
# - Readers (TextLineReader, WholeFileReader, TFRecordReader) take file names from a queue.
# - tf.train.Example and friends encode and decode protobuf's wire format; TFRecord files are
#   framed with masked CRC32Cs (`_tlens.tfrecord_frame` / `tfrecord_records`).
# The language server never runs any of it: dequeues and reads are typed placeholders there.
import _tlens
import numpy as _np
import random as _random
import struct as _struct
import tensorflow as _tf

_tuple = tuple
_list = list


def _session():
    s = _tlens.running_session()
    if s is None:
        s = _tlens.default_session()
    if s is None:
        raise RuntimeError("tensorlens: a queue op needs a session (run it with Session.run)")
    return s


def _building_graph():
    return _tlens.graph_key() is not None


def _as_list(x):
    return _list(x) if isinstance(x, (_list, _tuple)) else [x]


def _dims(shape):
    if shape is None:
        return None
    if isinstance(shape, _tf.TensorShape):
        return None if shape.ndims is None else [d for d in shape.as_list()]
    return [None if d is None else int(d) for d in _as_list(shape)]


def _value(v):
    # A fetched value as the queue stores it: bytes stay bytes, the rest numpy arrays.
    if isinstance(v, (bytes, str)):
        return v
    return _np.asarray(v)


def _stack(values):
    if values and isinstance(values[0], (bytes, str)):
        return _np.array(values, dtype=object)
    return _np.stack(values)


# --- queues ------------------------------------------------------------------------------------
_queue_counter = [0]


class QueueBase:
    _type_name = "QueueBase"
    _default_name = "queue"

    def __init__(self, dtypes, shapes, names, capacity, name, min_after_dequeue=0, seed=None):
        self._dtypes = [_tf.as_dtype(d) for d in _as_list(dtypes)]
        if shapes is None:
            self._shapes = [None] * len(self._dtypes)
        else:
            shapes = _list(shapes)
            if len(shapes) and not isinstance(shapes[0], (_list, _tuple, _tf.TensorShape)) and shapes[0] is not None:
                shapes = [shapes]  # one component's shape
            self._shapes = [_dims(s) for s in shapes]
            if len(self._shapes) != len(self._dtypes):
                raise ValueError("Queue shapes must have the same length as dtypes")
        self._names = None if names is None else _as_list(names)
        if self._names is not None and len(self._names) != len(self._dtypes):
            raise ValueError("Queue names must have the same length as dtypes")
        self._capacity = capacity
        self._min_after = min_after_dequeue
        self._items = []
        self._closed = False
        self._runners = []
        i = _queue_counter[0]
        _queue_counter[0] += 1
        self._name = "_%d_%s" % (i, name or self._default_name)
        self._rng = _random.Random(seed if seed is not None else 87654321)

    @property
    def name(self):
        return self._name

    @property
    def dtypes(self):
        return _list(self._dtypes)

    @property
    def shapes(self):
        return [_tf.TensorShape(s) for s in self._shapes]

    @property
    def names(self):
        return self._names

    @property
    def queue_ref(self):
        return self

    # enqueue side
    def _components(self, vals):
        if isinstance(vals, dict):
            if self._names is None:
                raise ValueError("Queue must have names to enqueue a dictionary")
            vals = [vals[n] for n in self._names]
        vals = _as_list(vals)
        if len(vals) != len(self._dtypes):
            raise ValueError("Expected %d components in enqueue, got %d" % (len(self._dtypes), len(vals)))
        return [_tf.convert_to_tensor(v, dtype=d) for v, d in zip(vals, self._dtypes)]

    def _op(self, action, name):
        if not _building_graph():  # eager: now
            action(None)
            return None
        flag = _tf.placeholder(_tf.bool, [], name=name + "_run")

        def produce(feed_dict):
            action(feed_dict)
            return [True]
        _tlens.auto_feed([flag], produce)
        with _tf.control_dependencies([flag]):
            return _tf.no_op(name=name)

    def _check_open(self):
        if self._closed:
            raise _tf.errors.CancelledError(None, None, "%s '%s' is closed." % (self._type_name, self._name))

    def _fetch(self, tensors, feed_dict):
        if not _building_graph() and all(not _tlens.is_symbolic(t) for t in tensors):
            return [_value(t.numpy()) for t in tensors]
        return [_value(v) for v in _session().run(tensors, feed_dict)]

    def enqueue(self, vals, name=None):
        tensors = self._components(vals)

        def action(feed_dict):
            self._check_open()
            self._items.append(self._fetch(tensors, feed_dict))
        return self._op(action, name or "enqueue")

    def enqueue_many(self, vals, name=None):
        tensors = self._components(vals)

        def action(feed_dict):
            self._check_open()
            values = self._fetch(tensors, feed_dict)
            n = len(values[0])
            for v in values:
                if len(v) != n:
                    raise _tf.errors.InvalidArgumentError(None, None, "Shape mismatch in tuple component 1. Expected [%d,...], got [%d,...]" % (n, len(v)))
            for i in range(n):
                self._items.append([v[i] for v in values])
        return self._op(action, name or "enqueue_many")

    def close(self, cancel_pending_enqueues=False, name=None):
        def action(feed_dict):
            self._closed = True
        return self._op(action, name or "close")

    def is_closed(self, name=None):
        return self._output([_tf.bool], [[]], lambda fd: [self._closed], name or "is_closed")[0]

    def size(self, name=None):
        return self._output([_tf.int32], [[]], lambda fd: [_np.int32(len(self._items))], name or "size")[0]

    # dequeue side
    def _output(self, dtypes, shapes, produce, name):
        if not _building_graph():
            return [_tf.convert_to_tensor(v, dtype=d) for v, d in zip(produce(None), dtypes)]
        outs = [_tf.placeholder(d, s, name=name) for d, s in zip(dtypes, shapes)]
        _tlens.auto_feed(outs, produce)
        return outs

    def _fill(self, n):
        # Started queue runners run their enqueue ops until the queue holds what is asked.
        want = n + (0 if self._closed else self._min_after)
        stalled = 0
        while len(self._items) < want and not self._closed:
            active = [r for r in self._runners if r._pending]
            if not active:
                break
            before = len(self._items)
            active[0]._step()
            stalled = stalled + 1 if len(self._items) == before else 0
            if stalled > 10000:
                raise RuntimeError("tensorlens: the queue runners of %s '%s' ran 10000 times without adding an element" % (self._type_name, self._name))

    def _take(self, n, up_to=False):
        self._fill(n)
        have = len(self._items)
        if have < n or (have < n + self._min_after and not self._closed):
            if self._closed and up_to and have > 0:
                n = have
            elif self._closed:
                raise _tf.errors.OutOfRangeError(None, None, "%s '%s' is closed and has insufficient elements (requested %d, current size %d)" % (self._type_name, self._name, n, have))
            else:
                hint = "" if self._runners else " (no queue runner feeds it: was tf.train.start_queue_runners called?)"
                raise _tf.errors.OutOfRangeError(None, None, "tensorlens: a dequeue from %s '%s' would wait forever: it holds %d elements, %d are needed, and nothing will add more%s" % (self._type_name, self._name, have, n + (0 if self._closed else self._min_after), hint))
        return [self._pop() for _ in range(n)]

    def _pop(self):
        return self._items.pop(0)

    def _component_shapes(self, prefix):
        return [None if s is None else prefix + s for s in self._shapes]

    def _pack(self, outs):
        if self._names is not None:
            return dict(zip(self._names, outs))
        return outs[0] if len(outs) == 1 else outs

    def dequeue(self, name=None):
        def produce(feed_dict):
            return self._take(1)[0]
        return self._pack(self._output(self._dtypes, self._component_shapes([]), produce, name or "dequeue"))

    def _batch(self, elements):
        return [_stack([e[k] for e in elements]) for k in range(len(self._dtypes))]

    def dequeue_many(self, n, name=None):
        def produce(feed_dict):
            return self._batch(self._take(n))
        return self._pack(self._output(self._dtypes, self._component_shapes([n]), produce, name or "dequeue_many"))

    def dequeue_up_to(self, n, name=None):
        def produce(feed_dict):
            return self._batch(self._take(n, up_to=True))
        return self._pack(self._output(self._dtypes, self._component_shapes([None]), produce, name or "dequeue_up_to"))


class FIFOQueue(QueueBase):
    _type_name = "FIFOQueue"
    _default_name = "fifo_queue"

    def __init__(self, capacity, dtypes, shapes=None, names=None, shared_name=None, name="fifo_queue"):
        QueueBase.__init__(self, dtypes, shapes, names, capacity, name)


class RandomShuffleQueue(QueueBase):
    _type_name = "RandomShuffleQueue"
    _default_name = "random_shuffle_queue"

    def __init__(self, capacity, min_after_dequeue, dtypes, shapes=None, names=None, seed=None, shared_name=None,
                 name="random_shuffle_queue"):
        QueueBase.__init__(self, dtypes, shapes, names, capacity, name, min_after_dequeue, seed)

    def _pop(self):
        return self._items.pop(self._rng.randrange(len(self._items)))


class PaddingFIFOQueue(QueueBase):
    _type_name = "PaddingFIFOQueue"
    _default_name = "padding_fifo_queue"

    def __init__(self, capacity, dtypes, shapes, names=None, shared_name=None, name="padding_fifo_queue"):
        if shapes is None:
            raise ValueError("PaddingFIFOQueue needs the shapes of its components")
        QueueBase.__init__(self, dtypes, shapes, names, capacity, name)

    def _batch(self, elements):
        out = []
        for k in range(len(self._dtypes)):
            vals = [e[k] for e in elements]
            if vals and not isinstance(vals[0], (bytes, str)) and _np.ndim(vals[0]) > 0:
                target = [max(v.shape[d] for v in vals) for d in range(_np.ndim(vals[0]))]
                vals = [_np.pad(v, [(0, t - s) for s, t in zip(v.shape, target)]) for v in vals]
            out.append(_stack(vals))
        return out


# --- queue runners and the coordinator ---------------------------------------------------------
class _RunnerThread:
    """What create_threads returns: the runner starts when the thread does; join returns at once."""

    def __init__(self, runner, daemon):
        self._runner = runner
        self.daemon = daemon

    def start(self):
        self._runner._start()

    def join(self, timeout=None):
        return None

    def is_alive(self):
        return False

    isAlive = is_alive


class QueueRunner:
    def __init__(self, queue=None, enqueue_ops=None, close_op=None, cancel_op=None, queue_closed_exception_types=None,
                 queue_runner_def=None, import_scope=None):
        if queue is None or enqueue_ops is None:
            raise ValueError("QueueRunner needs a queue and enqueue ops")
        self._queue = queue
        self._enqueue_ops = _list(enqueue_ops)
        self._pending = _list(range(len(self._enqueue_ops)))
        self._next = 0
        self._sess = None
        self._coord = None
        self._started = False
        self._close_op = close_op
        self._cancel_op = cancel_op
        self._exceptions = []

    @property
    def queue(self):
        return self._queue

    @property
    def enqueue_ops(self):
        return self._enqueue_ops

    @property
    def close_op(self):
        return self._close_op

    @property
    def cancel_op(self):
        return self._cancel_op

    @property
    def name(self):
        return self._queue.name

    @property
    def exceptions_raised(self):
        return self._exceptions

    def _start(self):
        if not self._started:
            self._started = True
            self._queue._runners.append(self)

    def create_threads(self, sess, coord=None, daemon=False, start=False):
        self._sess = sess
        self._coord = coord
        threads = [_RunnerThread(self, daemon) for _ in self._enqueue_ops]
        if start:
            for t in threads:
                t.start()
        if coord is not None:
            for t in threads:
                coord.register_thread(t)
        return threads

    def _run_op(self, op):
        sess = _tlens.running_session() or self._sess or _session()
        sess.run(op)

    def _step(self):
        i = self._pending[self._next % len(self._pending)]
        try:
            self._run_op(self._enqueue_ops[i])
            self._next += 1
        except (_tf.errors.OutOfRangeError, _tf.errors.CancelledError):
            self._pending.remove(i)
            if not self._pending:
                self._queue._closed = True


class _ProducerRunner(QueueRunner):
    """The runner of an input producer: each step enqueues one epoch of the input, shuffled when
    asked, and the queue closes after num_epochs epochs."""

    def __init__(self, queue, input_tensor, num_epochs, shuffle, seed):
        QueueRunner.__init__(self, queue, [input_tensor])
        self._input = input_tensor
        self._epochs_left = num_epochs
        self._shuffle = shuffle
        self._rng = _random.Random(seed if seed is not None else 12345)

    def _step(self):
        if self._epochs_left is not None and self._epochs_left <= 0:
            self._pending = []
            self._queue._closed = True
            return
        sess = _tlens.running_session() or self._sess or _session()
        values = _value(sess.run(self._input))
        n = len(values)
        if n == 0:
            raise _tf.errors.InvalidArgumentError(None, None, "tensorlens: an input producer's input is empty")
        order = _list(range(n))
        if self._shuffle:
            self._rng.shuffle(order)
        for i in order:
            self._queue._items.append([values[i]])
        if self._epochs_left is not None:
            self._epochs_left -= 1


def add_queue_runner(qr, collection=None):
    _tf.add_to_collection(collection or _tf.GraphKeys.QUEUE_RUNNERS, qr)


def start_queue_runners(sess=None, coord=None, daemon=True, start=True, collection=None):
    if sess is None and _tlens.is_abstract():
        return []
    if sess is None:
        sess = _tlens.default_session()
        if sess is None:
            raise ValueError("Cannot start queue runners: No default session is registered. Use `with sess.as_default()` or pass an explicit session to tf.start_queue_runners(sess=sess)")
    threads = []
    for qr in _tf.get_collection(collection or _tf.GraphKeys.QUEUE_RUNNERS):
        threads.extend(qr.create_threads(sess, coord=coord, daemon=daemon, start=start))
    return threads


class _StopOnException:
    def __init__(self, coord):
        self._coord = coord

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        if exc is not None:
            self._coord.request_stop(exc)
            return True
        return False


class Coordinator:
    def __init__(self, clean_stop_exception_types=None):
        self._clean = _tuple(clean_stop_exception_types) if clean_stop_exception_types is not None else (_tf.errors.OutOfRangeError,)
        self._stop = False
        self._exc = None
        self._joined = False
        self._threads = []

    def request_stop(self, ex=None):
        if isinstance(ex, _tuple) and len(ex) == 3:
            ex = ex[1]
        if ex is not None and not isinstance(ex, self._clean) and self._exc is None:
            self._exc = ex
        self._stop = True

    def should_stop(self):
        return self._stop

    def clear_stop(self):
        self._stop = False
        self._exc = None
        self._joined = False

    def stop_on_exception(self):
        return _StopOnException(self)

    def wait_for_stop(self, timeout=None):
        return self._stop

    def register_thread(self, thread):
        self._threads.append(thread)

    def join(self, threads=None, stop_grace_period_secs=120, ignore_live_threads=False):
        self._joined = True
        self.raise_requested_exception()

    def raise_requested_exception(self):
        if self._exc is not None:
            ex = self._exc
            self._exc = None
            raise ex

    @property
    def joined(self):
        return self._joined


# --- input producers and batching ----------------------------------------------------------------
def input_producer(input_tensor, element_shape=None, num_epochs=None, shuffle=True, seed=None, capacity=32,
                   shared_name=None, summary_name=None, name=None, cancel_op=None):
    if not _building_graph():
        raise RuntimeError("Input pipelines based on Queues are not supported when eager execution is enabled. "
                           "Please use tf.data to ingest data into your model instead.")
    input_tensor = _tf.convert_to_tensor(input_tensor)
    shape = input_tensor.shape
    if element_shape is None:
        element_shape = None if shape.ndims is None else shape.as_list()[1:]
    q = FIFOQueue(capacity, [input_tensor.dtype], [element_shape], name=name or "input_producer")
    add_queue_runner(_ProducerRunner(q, input_tensor, num_epochs, shuffle, seed))
    return q


def match_filenames_once(pattern, name=None):
    """tf.train.match_filenames_once: the sorted files matching a glob pattern (or a list of
    them). TensorFlow holds them in a local string variable matched when local variables are
    initialized; tensorlens has no string variables: the pattern is matched when the graph is
    built, into a constant (so reading it before local_variables_initializer works too)."""
    import glob as _glob
    patterns = [pattern] if isinstance(pattern, (str, bytes)) else list(pattern)
    files = []
    for p in patterns:
        p = p.decode() if isinstance(p, bytes) else p
        files.extend(sorted(_glob.glob(p)))
    with _tf.name_scope(name, "matching_filenames"):
        return _tf.constant(files, dtype=_tf.string, name="matching_filenames")


def string_input_producer(string_tensor, num_epochs=None, shuffle=True, seed=None, capacity=32, shared_name=None,
                          name=None, cancel_op=None):
    if isinstance(string_tensor, (_list, _tuple)) and len(string_tensor) == 0:
        raise ValueError("string_input_producer requires a non-null input tensor")
    t = _tf.convert_to_tensor(string_tensor, dtype=_tf.string)
    return input_producer(t, [], num_epochs, shuffle, seed, capacity, shared_name, name=name or "input_producer")


def range_input_producer(limit, num_epochs=None, shuffle=True, seed=None, capacity=32, shared_name=None, name=None):
    return input_producer(_tf.range(limit), [], num_epochs, shuffle, seed, capacity, shared_name,
                          name=name or "input_producer")


def slice_input_producer(tensor_list, num_epochs=None, shuffle=True, seed=None, capacity=32, shared_name=None,
                         name=None):
    tensors = [_tf.convert_to_tensor(t) for t in tensor_list]
    if not tensors:
        raise ValueError("Expected at least one tensor in slice_input_producer().")
    n = tensors[0].shape[0]
    if n is None:
        n = _tf.shape(tensors[0])[0]
    index = range_input_producer(n, num_epochs, shuffle, seed, capacity, shared_name, name).dequeue()
    return [_tf.gather(t, index) for t in tensors]


def _flatten_tensors(tensors):
    if isinstance(tensors, dict):
        keys = sorted(tensors.keys())
        return keys, [tensors[k] for k in keys]
    return None, _as_list(tensors)


def _batch_queue(queue_cls, tensors, batch_size, num_threads, enqueue_many, shapes, allow_smaller_final_batch, name,
                 **queue_args):
    keys, flat = _flatten_tensors(tensors)
    flat = [_tf.convert_to_tensor(t) for t in flat]
    if shapes is None:
        shapes = []
        for t in flat:
            s = t.shape.as_list() if t.shape.ndims is not None else None
            if enqueue_many and s is not None:
                s = s[1:]
            if s is None or any(d is None for d in s):
                if queue_cls is not PaddingFIFOQueue:
                    raise ValueError("All shapes must be fully defined: %s" % ([t.shape for t in flat],))
            shapes.append(s)
    q = queue_cls(dtypes=[t.dtype for t in flat], shapes=shapes, name=name, **queue_args)
    op = q.enqueue_many(flat) if enqueue_many else q.enqueue(flat)
    add_queue_runner(QueueRunner(q, [op] * num_threads))
    # As TensorFlow: a dict for a dict, else the dequeue's value (one tensor for one component).
    out = q.dequeue_up_to(batch_size) if allow_smaller_final_batch else q.dequeue_many(batch_size)
    if keys is not None:
        return dict(zip(keys, _as_list(out)))
    return out


def batch(tensors, batch_size, num_threads=1, capacity=32, enqueue_many=False, shapes=None, dynamic_pad=False,
          allow_smaller_final_batch=False, shared_name=None, name=None):
    cls = PaddingFIFOQueue if dynamic_pad else FIFOQueue
    return _batch_queue(cls, tensors, batch_size, num_threads, enqueue_many, shapes, allow_smaller_final_batch,
                        name or "batch", capacity=capacity)


def shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, num_threads=1, seed=None, enqueue_many=False,
                  shapes=None, allow_smaller_final_batch=False, shared_name=None, name=None):
    return _batch_queue(RandomShuffleQueue, tensors, batch_size, num_threads, enqueue_many, shapes,
                        allow_smaller_final_batch, name or "shuffle_batch", capacity=capacity,
                        min_after_dequeue=min_after_dequeue, seed=seed)


# --- readers -----------------------------------------------------------------------------------
class ReaderBase:
    def __init__(self):
        if not _building_graph():
            raise RuntimeError("Readers are not supported when eager execution is enabled. Instead, please use tf.data "
                               "to get data into your model.")
        self._records = None
        self._produced = 0
        self._completed = 0

    def _file_records(self, path):
        raise NotImplementedError

    def _next_file(self, queue):
        name = queue._take(1)[0][0]
        path = name.decode("utf-8") if isinstance(name, bytes) else str(name)
        self._records = iter(self._file_records(path))

    def _next_record(self):
        while True:
            if self._records is None:
                self._next_file(self._queue)
            try:
                key, value = next(self._records)
                self._produced += 1
                return [key, value]
            except StopIteration:
                self._records = None
                self._completed += 1

    def read(self, queue, name=None):
        self._queue = queue
        key = _tf.placeholder(_tf.string, [], name="ReaderRead")
        value = _tf.placeholder(_tf.string, [], name="ReaderRead")
        _tlens.auto_feed([key, value], lambda feed_dict: self._next_record())
        return key, value

    def read_up_to(self, queue, num_records, name=None):
        self._queue = queue

        def produce(feed_dict):
            keys, values = [], []
            first = self._next_record()
            keys.append(first[0])
            values.append(first[1])
            while len(keys) < num_records and self._records is not None:
                try:
                    k, v = next(self._records)
                except StopIteration:
                    self._records = None
                    self._completed += 1
                    break
                self._produced += 1
                keys.append(k)
                values.append(v)
            return [_np.array(keys, dtype=object), _np.array(values, dtype=object)]
        key = _tf.placeholder(_tf.string, [None], name="ReaderReadUpTo")
        value = _tf.placeholder(_tf.string, [None], name="ReaderReadUpTo")
        _tlens.auto_feed([key, value], produce)
        return key, value

    def num_records_produced(self, name=None):
        return _tf.constant(self._produced, _tf.int64)

    def num_work_units_completed(self, name=None):
        return _tf.constant(self._completed, _tf.int64)

    def reset(self, name=None):
        self._records = None
        self._produced = 0
        self._completed = 0
        return _tf.no_op()

    @property
    def supports_serialize(self):
        return False


def _read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


class TextLineReader(ReaderBase):
    def __init__(self, skip_header_lines=None, name=None):
        ReaderBase.__init__(self)
        self._skip = skip_header_lines or 0

    def _file_records(self, path):
        data = _read_bytes(path)
        lines = data.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()
        prefix = path.encode("utf-8") + b":"
        for i, line in enumerate(lines):
            if i < self._skip:
                continue
            if line.endswith(b"\r"):
                line = line[:-1]
            yield prefix + str(i + 1).encode("ascii"), line


class WholeFileReader(ReaderBase):
    def __init__(self, name=None):
        ReaderBase.__init__(self)

    def _file_records(self, path):
        yield path.encode("utf-8"), _read_bytes(path)


class TFRecordReader(ReaderBase):
    def __init__(self, name=None, options=None):
        ReaderBase.__init__(self)
        if options is not None and getattr(options, "compression_type", None):
            raise NotImplementedError("tensorlens: compressed TFRecord files are not read yet")

    def _file_records(self, path):
        prefix = path.encode("utf-8") + b":"
        for offset, record in _tfrecords(path):
            yield prefix + str(offset).encode("ascii"), record


# --- TFRecord files ----------------------------------------------------------------------------
class TFRecordCompressionType:
    NONE = 0
    ZLIB = 1
    GZIP = 2


class TFRecordOptions:
    def __init__(self, compression_type=None, **kwargs):
        self.compression_type = compression_type


class TFRecordWriter:
    def __init__(self, path, options=None):
        if options is not None and getattr(options, "compression_type", None) not in (None, 0, "", "NONE"):
            raise NotImplementedError("tensorlens: compressed TFRecord files are not written yet")
        self._f = None if _tlens.is_abstract() else open(path, "wb")  # the language server writes nothing

    def write(self, record):
        if self._f is None:
            return
        if isinstance(record, str):
            record = record.encode("utf-8")
        self._f.write(_tlens.tfrecord_frame(record))

    def flush(self):
        self._f.flush()

    def close(self):
        if self._f is not None:
            self._f.close()
            self._f = None

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.close()
        return False


def _tfrecords(path):
    records, error = _tlens.tfrecord_records(_read_bytes(path))
    for r in records:
        yield r
    if error is not None:
        raise _tf.errors.DataLossError(None, None, "%s in %s" % (error, path))


def tf_record_iterator(path, options=None):
    for offset, record in _tfrecords(path):
        yield record


# --- tf.train.Example: protobuf's wire format ----------------------------------------------------
_INT64_MIN = -9223372036854775807 - 1


def _varint(n):
    out = bytearray()
    if n < 0:  # ten bytes of two's complement
        for _ in range(9):
            out.append((n & 0x7F) | 0x80)
            n >>= 7
        out.append(1)
        return bytes(out)
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _field(number, wire_type):
    return _varint((number << 3) | wire_type)


def _len_delimited(number, data):
    return _field(number, 2) + _varint(len(data)) + data


def _read_varint(data, pos):
    shift = 0
    result = 0
    while True:
        if pos >= len(data):
            raise _tf.errors.DataLossError(None, None, "tensorlens: truncated protobuf varint")
        b = data[pos]
        pos += 1
        if shift == 63:  # bit 63: the sign of an int64
            if b & 1:
                result |= _INT64_MIN
        elif shift < 63:
            result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7


def _fields(data):
    # (field number, wire type, value) of a serialized message; value is bytes for wire type 2.
    if _tlens.is_abstract():
        return []
    pos = 0
    out = []
    while pos < len(data):
        key, pos = _read_varint(data, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            v, pos = _read_varint(data, pos)
        elif wire == 2:
            n, pos = _read_varint(data, pos)
            v = data[pos:pos + n]
            pos += n
        elif wire == 5:
            v = data[pos:pos + 4]
            pos += 4
        elif wire == 1:
            v = data[pos:pos + 8]
            pos += 8
        else:
            raise _tf.errors.DataLossError(None, None, "tensorlens: unsupported protobuf wire type %d" % wire)
        out.append((number, wire, v))
    return out


class _Message:
    # The language server never encodes or decodes (its byte values are mostly unknown, and the
    # loops over them would only spend its budget): messages serialize to b"" there.
    def SerializeToString(self, deterministic=None):
        if _tlens.is_abstract():
            return b""
        return self._encode()

    def ParseFromString(self, data):
        self.__init__()
        self._decode(bytes(data))
        return len(data)

    @classmethod
    def FromString(cls, data):
        m = cls()
        m._decode(bytes(data))
        return m

    def ByteSize(self):
        return len(self._encode())

    def __eq__(self, other):
        return type(self) is type(other) and self._encode() == other._encode()

    def __repr__(self):
        return self.__str__()


class BytesList(_Message):
    def __init__(self, value=None):
        self.value = [v.encode("utf-8") if isinstance(v, str) else bytes(v) for v in (value or [])]

    def _encode(self):
        return b"".join(_len_delimited(1, v) for v in self.value)

    def _decode(self, data):
        self.value = [v for n, w, v in _fields(data) if n == 1]

    def __str__(self):
        return "".join("value: %r\n" % v for v in self.value)


class Int64List(_Message):
    def __init__(self, value=None):
        self.value = [int(v) for v in (value or [])]

    def _encode(self):
        if not self.value:
            return b""
        return _len_delimited(1, b"".join(_varint(v) for v in self.value))

    def _decode(self, data):
        vals = []
        for n, w, v in _fields(data):
            if n != 1:
                continue
            if w == 0:
                vals.append(v)
            else:
                pos = 0
                while pos < len(v):
                    x, pos = _read_varint(v, pos)
                    vals.append(x)
        self.value = vals

    def __str__(self):
        return "".join("value: %d\n" % v for v in self.value)


class FloatList(_Message):
    def __init__(self, value=None):
        self.value = [float(v) for v in (value or [])]

    def _encode(self):
        if not self.value:
            return b""
        return _len_delimited(1, _struct.pack("<%df" % len(self.value), *self.value))

    def _decode(self, data):
        vals = []
        for n, w, v in _fields(data):
            if n != 1:
                continue
            vals.extend(_struct.unpack("<%df" % (len(v) // 4), v))
        self.value = vals

    def __str__(self):
        return "".join("value: %g\n" % v for v in self.value)


class Feature(_Message):
    def __init__(self, bytes_list=None, float_list=None, int64_list=None):
        self.bytes_list = bytes_list
        self.float_list = float_list
        self.int64_list = int64_list

    def _kind(self):
        if self.bytes_list is not None:
            return "bytes_list"
        if self.float_list is not None:
            return "float_list"
        if self.int64_list is not None:
            return "int64_list"
        return None

    def WhichOneof(self, name):
        return self._kind()

    def HasField(self, name):
        return getattr(self, name, None) is not None

    def _encode(self):
        if self.bytes_list is not None:
            return _len_delimited(1, self.bytes_list._encode())
        if self.float_list is not None:
            return _len_delimited(2, self.float_list._encode())
        if self.int64_list is not None:
            return _len_delimited(3, self.int64_list._encode())
        return b""

    def _decode(self, data):
        for n, w, v in _fields(data):
            if n == 1:
                self.bytes_list = BytesList.FromString(v)
            elif n == 2:
                self.float_list = FloatList.FromString(v)
            elif n == 3:
                self.int64_list = Int64List.FromString(v)

    def __str__(self):
        k = self._kind()
        if k is None:
            return ""
        inner = str(getattr(self, k))
        return "%s {\n%s}\n" % (k, "".join("  " + line + "\n" for line in inner.splitlines()))


class Features(_Message):
    def __init__(self, feature=None):
        self.feature = dict(feature or {})

    def _encode(self):
        out = b""
        for k in self.feature:
            entry = _len_delimited(1, k.encode("utf-8")) + _len_delimited(2, self.feature[k]._encode())
            out += _len_delimited(1, entry)
        return out

    def _decode(self, data):
        self.feature = {}
        for n, w, v in _fields(data):
            if n != 1:
                continue
            key, value = b"", b""
            for n2, w2, v2 in _fields(v):
                if n2 == 1:
                    key = v2
                elif n2 == 2:
                    value = v2
            self.feature[key.decode("utf-8")] = Feature.FromString(value)

    def __str__(self):
        out = ""
        for k in self.feature:
            inner = str(self.feature[k])
            out += "feature {\n  key: %r\n  value {\n%s  }\n}\n" % (k, "".join("    " + l + "\n" for l in inner.splitlines()))
        return out


class Example(_Message):
    def __init__(self, features=None):
        self.features = features if features is not None else Features()

    def _encode(self):
        return _len_delimited(1, self.features._encode())

    def _decode(self, data):
        self.features = Features()
        for n, w, v in _fields(data):
            if n == 1:
                self.features = Features.FromString(v)

    def __str__(self):
        inner = str(self.features)
        return "features {\n%s}\n" % "".join("  " + l + "\n" for l in inner.splitlines())


# --- parsing Examples in a graph -----------------------------------------------------------------
class FixedLenFeature:
    def __init__(self, shape, dtype, default_value=None):
        self.shape = _dims(shape) or []
        self.dtype = _tf.as_dtype(dtype)
        self.default_value = default_value


class VarLenFeature:
    def __init__(self, dtype):
        self.dtype = _tf.as_dtype(dtype)


def _feature_value(key, spec, feature, name):
    count = 1
    for d in spec.shape:
        count *= d
    kind = {"string": "bytes_list", "int64": "int64_list", "float32": "float_list"}.get(spec.dtype.name)
    if kind is None:
        raise ValueError("Unsupported dtype %s for feature %s: use tf.string, tf.int64 or tf.float32" % (spec.dtype.name, key))
    if feature is None or feature._kind() is None:
        if spec.default_value is None:
            raise _tf.errors.InvalidArgumentError(None, None, "Name: %s, Feature: %s (data type: %s) is required but could not be found." % (name, key, spec.dtype.name))
        values = _as_list(spec.default_value)
        if len(values) == 1 and count != 1:
            values = values * count
    else:
        if feature._kind() != kind:
            raise _tf.errors.InvalidArgumentError(None, None, "Name: %s, Feature: %s.  Data types don't match. Data type: %s but expected type: %s" % (name, key, {"bytes_list": "string", "int64_list": "int64", "float_list": "float"}[feature._kind()], spec.dtype.name))
        values = getattr(feature, kind).value
    if len(values) != count:
        raise _tf.errors.InvalidArgumentError(None, None, "Name: %s, Key: %s, Index: 0.  Number of %s values != expected.  values size: %d but output shape: %s" % (name, key, {"string": "bytes", "int64": "int64", "float32": "float"}[spec.dtype.name], len(values), _tf.TensorShape(spec.shape)))
    if spec.dtype.name == "string":
        return values[0] if not spec.shape else _np.array(values, dtype=object).reshape(spec.shape)
    return _np.array(values, dtype=spec.dtype.name).reshape(spec.shape)


def parse_single_example(serialized, features, name=None, example_names=None):
    keys = sorted(features.keys())
    for k in keys:
        if not isinstance(features[k], FixedLenFeature):
            raise NotImplementedError("tensorlens: parse_single_example reads FixedLenFeature only (feature %r)" % k)
    serialized = _tf.convert_to_tensor(serialized, dtype=_tf.string)
    if _tlens.is_abstract():
        # The analysis reads no record: each feature has its declared dtype and shape.
        return {k: _tlens.typed(features[k].dtype, list(features[k].shape), False) for k in keys}

    def produce(feed_dict):
        if _building_graph() or _tlens.is_symbolic(serialized):
            data = _session().run(serialized, feed_dict)
        else:
            data = serialized.numpy()
        ex = Example.FromString(data)
        return [_feature_value(k, features[k], ex.features.feature.get(k), "<unknown>") for k in keys]
    if not _building_graph() and not _tlens.is_symbolic(serialized):
        vals = produce(None)
        return {k: _tf.convert_to_tensor(v, dtype=features[k].dtype) for k, v in zip(keys, vals)}
    outs = [_tf.placeholder(features[k].dtype, features[k].shape, name="ParseSingleExample") for k in keys]
    _tlens.auto_feed(outs, produce)
    return dict(zip(keys, outs))
