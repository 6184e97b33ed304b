# six (1.16's Python 3 half), embedded so that TF1-era programs (`from six.moves import xrange`,
# `from six.moves import urllib`, six.iteritems) run on the interpreter's own builtins and
# modules, in both modes, instead of CPython's through the bridge. There are no metaclasses:
# with_metaclass and add_metaclass leave the class as it is.
import functools
import io
import itertools
import operator
import sys

PY2 = False
PY3 = True
PY34 = True
string_types = (str,)
integer_types = (int,)
class_types = (type,)
text_type = str
binary_type = bytes
MAXSIZE = sys.maxsize
__version__ = "1.16.0"

from six import moves

StringIO = io.StringIO
BytesIO = io.BytesIO
unichr = chr
next = next
advance_iterator = next
callable = callable
wraps = functools.wraps
get_function_code = operator.attrgetter("__code__")
get_function_defaults = operator.attrgetter("__defaults__")
get_function_globals = operator.attrgetter("__globals__")
get_method_function = operator.attrgetter("__func__")
get_method_self = operator.attrgetter("__self__")
create_bound_method = None
Iterator = object


def b(s):
    return s.encode("latin-1")


def u(s):
    return s


def int2byte(i):
    return bytes((i,))


def byte2int(bs):
    return bs[0]


def indexbytes(buf, i):
    return buf[i]


def iterbytes(buf):
    return iter(buf)


def get_unbound_function(unbound):
    return unbound


def iterkeys(d, **kw):
    return iter(d.keys(**kw))


def itervalues(d, **kw):
    return iter(d.values(**kw))


def iteritems(d, **kw):
    return iter(d.items(**kw))


def iterlists(d, **kw):
    return iter(d.lists(**kw))


def viewkeys(d):
    return d.keys()


def viewvalues(d):
    return d.values()


def viewitems(d):
    return d.items()


def print_(*args, **kwargs):
    print(*args, **kwargs)


def reraise(tp, value, tb=None):
    if value is None:
        value = tp()
    raise value


def raise_from(value, from_value):
    raise value from from_value


def exec_(code, globs=None, locs=None):
    exec(code, globs, locs)


def with_metaclass(meta, *bases):
    return bases[0] if bases else object


def add_metaclass(metaclass):
    def wrapper(cls):
        return cls
    return wrapper


def python_2_unicode_compatible(klass):
    return klass


def ensure_binary(s, encoding="utf-8", errors="strict"):
    if isinstance(s, bytes):
        return s
    if isinstance(s, str):
        return s.encode(encoding, errors)
    raise TypeError("not expecting type '%s'" % type(s))


def ensure_str(s, encoding="utf-8", errors="strict"):
    if isinstance(s, str):
        return s
    if isinstance(s, bytes):
        return s.decode(encoding, errors)
    raise TypeError("not expecting type '%s'" % type(s))


ensure_text = ensure_str


def assertCountEqual(self, *args, **kwargs):
    return self.assertCountEqual(*args, **kwargs)


def assertRaisesRegex(self, *args, **kwargs):
    return self.assertRaisesRegex(*args, **kwargs)


def assertRegex(self, *args, **kwargs):
    return self.assertRegex(*args, **kwargs)
