# tf.contrib.framework: arg_scope (default keyword arguments for the functions decorated with
# add_arg_scope, as TF-slim programs set them), and the variable helpers TF1 code imports from here.
import tensorflow as tf

_scopes = [{}]
_decorated = set()


def _key(op):
    key = getattr(op, "_key_op", None)
    if key is None:
        key = "%s.%s" % (getattr(op, "__module__", ""), getattr(op, "__name__", str(op)))
    return key


def add_arg_scope(func):
    """Makes `func` take the keyword arguments an enclosing arg_scope sets for it; arguments given
    in the call win."""
    key = _key(func)

    def func_with_args(*args, **kwargs):
        scoped = _scopes[-1].get(key)
        if scoped:
            merged = dict(scoped)
            merged.update(kwargs)
            kwargs = merged
        return func(*args, **kwargs)

    func_with_args._key_op = key
    func_with_args.__name__ = getattr(func, "__name__", "func")
    func_with_args.__doc__ = getattr(func, "__doc__", None)
    _decorated.add(key)
    return func_with_args


def has_arg_scope(func):
    return _key(func) in _decorated


class arg_scope(object):
    """with arg_scope([ops], **kwargs): sets default keyword arguments of those ops in its body;
    nested scopes add to (and override) the enclosing one's. `with arg_scope(sc):` re-enters a
    scope saved from `with arg_scope(...) as sc`."""

    def __init__(self, list_ops_or_scope, **kwargs):
        if isinstance(list_ops_or_scope, dict):
            if kwargs:
                raise ValueError("When attempting to re-use a scope by suppling a dictionary, kwargs must be empty.")
            self._scope = list_ops_or_scope
            return
        if not isinstance(list_ops_or_scope, (list, tuple)):
            raise TypeError("list_ops_or_scope must either be a list/tuple or reused scope (i.e. dict)")
        scope = {k: dict(v) for k, v in _scopes[-1].items()}
        for op in list_ops_or_scope:
            key = _key(op)
            if key not in _decorated:
                raise ValueError("%s is not decorated with @add_arg_scope" % (key,))
            merged = dict(scope.get(key, {}))
            merged.update(kwargs)
            scope[key] = merged
        self._scope = scope

    def __enter__(self):
        _scopes.append(self._scope)
        return self._scope

    def __exit__(self, exc_type, exc, tb):
        _scopes.pop()
        return False


def current_arg_scope():
    return _scopes[-1]


def arg_scoped_arguments(func):
    return list(_scopes[-1].get(_key(func), {}).keys())


def get_variables(scope=None, suffix=None, collection=tf.GraphKeys.GLOBAL_VARIABLES):
    vs = tf.get_collection(collection, scope)
    if suffix is not None:
        vs = [v for v in vs if v.op.name.endswith(suffix)]
    return vs


def get_model_variables(scope=None, suffix=None):
    return get_variables(scope, suffix, tf.GraphKeys.GLOBAL_VARIABLES)


def get_trainable_variables(scope=None, suffix=None):
    return get_variables(scope, suffix, tf.GraphKeys.TRAINABLE_VARIABLES)


def get_variables_to_restore(include=None, exclude=None):
    vs = tf.global_variables()
    if include is not None:
        vs = [v for v in vs if any(v.op.name.startswith(p) for p in include)]
    if exclude is not None:
        vs = [v for v in vs if not any(v.op.name.startswith(p) for p in exclude)]
    return vs


def get_or_create_global_step(graph=None):
    return tf.train.get_or_create_global_step(graph)


def get_global_step(graph=None):
    return tf.train.get_global_step(graph)
