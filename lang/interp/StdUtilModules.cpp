// Small pure-Python standard modules, embedded: contextlib, enum, dataclasses, heapq, bisect,
// operator, textwrap, pprint, unittest. They are ordinary Python over the interpreter, so both modes run
// them alike. Limits (no metaclasses, no generator throw()): enum classes take members through
// __init_subclass__ and iterate through `_tlens_class_iter_`; len(EnumClass) is not supported;
// an exception inside a @contextmanager block closes the generator (its finally blocks run) and
// propagates, instead of being thrown into it.
#include "lang/interp/ObjectProtocol.h"
#include "lang/interp/StdModules.h"
#include "lang/interp/StdModules.h"

namespace tlens::interp {
namespace {

const char* kContextlib = R"PY(
class AbstractContextManager:
    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        return None


class ContextDecorator:
    def __call__(self, func):
        def inner(*args, **kwds):
            with self:
                return func(*args, **kwds)
        return inner


class _GeneratorContextManager(ContextDecorator):
    def __init__(self, func, args, kwds):
        self.gen = func(*args, **kwds)
        self.func, self.args, self.kwds = func, args, kwds

    def __call__(self, func):
        def inner(*args, **kwds):
            with _GeneratorContextManager(self.func, self.args, self.kwds):
                return func(*args, **kwds)
        return inner

    def __enter__(self):
        try:
            return next(self.gen)
        except StopIteration:
            raise RuntimeError("generator didn't yield") from None

    def __exit__(self, typ, value, traceback):
        if typ is None:
            try:
                next(self.gen)
            except StopIteration:
                return False
            raise RuntimeError("generator didn't stop")
        self.gen.close()
        return False


def contextmanager(func):
    def helper(*args, **kwds):
        return _GeneratorContextManager(func, args, kwds)
    helper.__name__ = getattr(func, '__name__', 'helper')
    helper.__doc__ = getattr(func, '__doc__', None)
    return helper


class suppress(AbstractContextManager):
    def __init__(self, *exceptions):
        self._exceptions = exceptions

    def __exit__(self, exctype, excinst, exctb):
        return exctype is not None and issubclass(exctype, self._exceptions)


class closing(AbstractContextManager):
    def __init__(self, thing):
        self.thing = thing

    def __enter__(self):
        return self.thing

    def __exit__(self, *exc_info):
        self.thing.close()


class nullcontext(AbstractContextManager):
    def __init__(self, enter_result=None):
        self.enter_result = enter_result

    def __enter__(self):
        return self.enter_result

    def __exit__(self, *excinfo):
        pass


class ExitStack(AbstractContextManager):
    def __init__(self):
        self._exit_callbacks = []

    def pop_all(self):
        new = ExitStack()
        new._exit_callbacks = self._exit_callbacks
        self._exit_callbacks = []
        return new

    def push(self, exit):
        if hasattr(exit, '__exit__'):
            self._exit_callbacks.append(exit.__exit__)
        else:
            self._exit_callbacks.append(exit)
        return exit

    def enter_context(self, cm):
        result = cm.__enter__()
        self._exit_callbacks.append(cm.__exit__)
        return result

    def callback(self, callback, *args, **kwds):
        def _exit_wrapper(exc_type, exc, tb):
            callback(*args, **kwds)
        self._exit_callbacks.append(_exit_wrapper)
        return callback

    def close(self):
        self.__exit__(None, None, None)

    def __exit__(self, *exc_details):
        suppressed = False
        pending = exc_details
        while self._exit_callbacks:
            cb = self._exit_callbacks.pop()
            if cb(*pending):
                suppressed = True
                pending = (None, None, None)
        return suppressed and exc_details[0] is not None
)PY";

const char* kEnum = R"PY(
class auto:
    def __init__(self):
        self.value = None


def _value_base(cls):
    for b in cls.__mro__:
        if b is str or b is int or b is float:
            return b
    return None


class Enum:
    def __init_subclass__(cls, **kwds):
        members = {}
        names = []
        values = {}
        last = None
        for name, value in list(cls.__dict__.items()):
            if name.startswith('_') or callable(value) or isinstance(value, (property, classmethod, staticmethod)):
                continue
            if isinstance(value, auto):
                value = cls._generate_next_value_(name, 1, len(names), [members[n]._value_ for n in names])
            if value in values:
                member = values[value]
            else:
                # A mixed-in int, float or str (class Color(str, Enum)) makes members that are
                # values of that type, as CPython's EnumMeta does.
                base = _value_base(cls)
                if base is None:
                    member = object.__new__(cls)
                elif isinstance(value, tuple):
                    member = base.__new__(cls, *value)
                else:
                    member = base.__new__(cls, value)
                member._name_ = name
                member._value_ = value
                values[value] = member
                names.append(name)
            members[name] = member
            setattr(cls, name, member)
        cls._member_map_ = members
        cls._member_names_ = names
        cls._value2member_map_ = values
        cls.__members__ = dict(members)

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        for v in reversed(last_values):
            if isinstance(v, int):
                return v + 1
        return start

    def __new__(cls, value):
        m = cls.__dict__.get('_value2member_map_', {}).get(value)
        if m is None:
            if isinstance(value, cls):
                return value
            raise ValueError('%r is not a valid %s' % (value, cls.__qualname__))
        return m

    def __init__(self, *args, **kwds):
        pass

    def __class_getitem__(cls, name):
        return cls._member_map_[name]

    def _tlens_class_iter_(cls):
        return [cls._member_map_[n] for n in cls._member_names_]

    @property
    def name(self):
        return self._name_

    @property
    def value(self):
        return self._value_

    def __repr__(self):
        return '<%s.%s: %r>' % (type(self).__name__, self._name_, self._value_)

    def __str__(self):
        return '%s.%s' % (type(self).__name__, self._name_)

    def __format__(self, spec):
        return format(str(self), spec)

    def __hash__(self):
        return hash(self._name_)

    def __reduce_ex__(self, proto):
        return type(self), (self._value_,)


class IntEnum(int, Enum):
    def __str__(self):
        return str(self._value_)

    def __format__(self, spec):
        return format(self._value_, spec)


class StrEnum(str, Enum):
    def __str__(self):
        return self._value_

    def __format__(self, spec):
        return format(self._value_, spec)

    @staticmethod
    def _generate_next_value_(name, start, count, last_values):
        return name.lower()


def unique(cls):
    if len(cls._member_names_) != len(cls._member_map_):
        dups = [n for n in cls._member_map_ if n not in cls._member_names_]
        raise ValueError('duplicate values found in %r: %s' % (cls, ', '.join(dups)))
    return cls
)PY";

const char* kDataclasses = R"PY(
class _MissingType:
    def __repr__(self):
        return 'MISSING'


MISSING = _MissingType()


class FrozenInstanceError(AttributeError):
    pass


class Field:
    def __init__(self, default, default_factory, init, repr, hash, compare, metadata, kw_only):
        self.name = None
        self.type = None
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.hash = hash
        self.compare = compare
        self.metadata = metadata if metadata is not None else {}
        self.kw_only = kw_only

    def __repr__(self):
        return 'Field(name=%r,type=%r,default=%r,default_factory=%r,init=%r,repr=%r,hash=%r,compare=%r)' % (
            self.name, self.type, self.default, self.default_factory, self.init, self.repr, self.hash, self.compare)


def field(*, default=MISSING, default_factory=MISSING, init=True, repr=True, hash=None, compare=True,
          metadata=None, kw_only=False):
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError('cannot specify both default and default_factory')
    return Field(default, default_factory, init, repr, hash, compare, metadata, kw_only)


def _is_classvar(t):
    return t.startswith('ClassVar') or t.startswith('typing.ClassVar')


def _process(cls, init, repr_, eq, order, unsafe_hash, frozen):
    fields = {}
    for b in cls.__mro__[-1:0:-1]:
        bf = b.__dict__.get('__dataclass_fields__')
        if bf:
            for f in bf.values():
                fields[f.name] = f
    ann = cls.__dict__.get('__annotations__', {})
    for name, typ in ann.items():
        if _is_classvar(typ):
            continue
        default = cls.__dict__.get(name, MISSING)
        if isinstance(default, Field):
            f = default
            if f.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)
        else:
            if isinstance(default, (list, dict, set)):
                raise ValueError('mutable default %s for field %s is not allowed: use default_factory'
                                 % (type(default), name))
            f = Field(default, MISSING, True, True, None, True, None, False)
        f.name = name
        f.type = typ
        fields[name] = f
    cls.__dataclass_fields__ = fields
    flds = list(fields.values())
    if init:
        init_fields = [f for f in flds if f.init]
        seen_default = False
        for f in init_fields:
            if f.default is not MISSING or f.default_factory is not MISSING:
                seen_default = True
            elif seen_default and not f.kw_only:
                raise TypeError("non-default argument '%s' follows default argument" % f.name)

        def __init__(self, *args, **kwargs):
            if len(args) > len(init_fields):
                required = len([f for f in init_fields if f.default is MISSING and f.default_factory is MISSING])
                if required == len(init_fields):
                    takes = '%d' % (required + 1)
                else:
                    takes = 'from %d to %d' % (required + 1, len(init_fields) + 1)
                raise TypeError('%s.__init__() takes %s positional arguments but %d were given'
                                % (cls.__qualname__, takes, len(args) + 1))
            for i, f in enumerate(init_fields):
                if i < len(args):
                    if f.name in kwargs:
                        raise TypeError("%s.__init__() got multiple values for argument '%s'" % (cls.__qualname__, f.name))
                    v = args[i]
                elif f.name in kwargs:
                    v = kwargs.pop(f.name)
                elif f.default is not MISSING:
                    v = f.default
                elif f.default_factory is not MISSING:
                    v = f.default_factory()
                else:
                    raise TypeError("%s.__init__() missing 1 required positional argument: '%s'" % (cls.__qualname__, f.name))
                object.__setattr__(self, f.name, v)
            for f in flds:
                if not f.init:
                    if f.default is not MISSING:
                        object.__setattr__(self, f.name, f.default)
                    elif f.default_factory is not MISSING:
                        object.__setattr__(self, f.name, f.default_factory())
            if kwargs:
                raise TypeError("%s.__init__() got an unexpected keyword argument '%s'" % (cls.__qualname__, list(kwargs)[0]))
            if hasattr(self, '__post_init__'):
                self.__post_init__()
        cls.__init__ = __init__
    if repr_:
        def __repr__(self):
            return '%s(%s)' % (type(self).__qualname__, ', '.join(
                '%s=%r' % (f.name, getattr(self, f.name)) for f in flds if f.repr))
        cls.__repr__ = __repr__
    cmp_fields = [f.name for f in flds if f.compare]

    def _key(self):
        return tuple(getattr(self, n) for n in cmp_fields)
    if eq:
        def __eq__(self, other):
            if other.__class__ is self.__class__:
                return _key(self) == _key(other)
            return NotImplemented
        cls.__eq__ = __eq__
    if order:
        def __lt__(self, other):
            return _key(self) < _key(other)

        def __le__(self, other):
            return _key(self) <= _key(other)

        def __gt__(self, other):
            return _key(self) > _key(other)

        def __ge__(self, other):
            return _key(self) >= _key(other)
        cls.__lt__, cls.__le__, cls.__gt__, cls.__ge__ = __lt__, __le__, __gt__, __ge__
    if frozen:
        def __setattr__(self, name, value):
            raise FrozenInstanceError("cannot assign to field '%s'" % name)
        cls.__setattr__ = __setattr__
    if unsafe_hash or (eq and frozen):
        def __hash__(self):
            return hash(_key(self))
        cls.__hash__ = __hash__
    elif eq:
        cls.__hash__ = None
    return cls


def dataclass(cls=None, *, init=True, repr=True, eq=True, order=False, unsafe_hash=False, frozen=False,
              match_args=True, kw_only=False, slots=False):
    def wrap(c):
        return _process(c, init, repr, eq, order, unsafe_hash, frozen)
    if cls is None:
        return wrap
    return wrap(cls)


def is_dataclass(obj):
    return hasattr(obj, '__dataclass_fields__')


def fields(obj):
    if not is_dataclass(obj):
        raise TypeError('must be called with a dataclass type or instance')
    return tuple(obj.__dataclass_fields__.values())


def _copy(v, factory):
    if is_dataclass(v) and not isinstance(v, type):
        return factory((f.name, _copy(getattr(v, f.name), factory)) for f in fields(v))
    if isinstance(v, list):
        return [_copy(x, factory) for x in v]
    if isinstance(v, tuple):
        return tuple(_copy(x, factory) for x in v)
    if isinstance(v, dict):
        return {_copy(k, factory): _copy(x, factory) for k, x in v.items()}
    return v


def asdict(obj, *, dict_factory=dict):
    return _copy(obj, dict_factory)


def astuple(obj):
    return tuple(_copy(getattr(obj, f.name), lambda kv: tuple(v for k, v in kv)) for f in fields(obj))


def replace(obj, **changes):
    for f in fields(obj):
        if f.init and f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return obj.__class__(**changes)
)PY";

const char* kHeapq = R"PY(
def _siftdown(heap, startpos, pos):
    newitem = heap[pos]
    while pos > startpos:
        parentpos = (pos - 1) >> 1
        parent = heap[parentpos]
        if newitem < parent:
            heap[pos] = parent
            pos = parentpos
            continue
        break
    heap[pos] = newitem


def _siftup(heap, pos):
    endpos = len(heap)
    startpos = pos
    newitem = heap[pos]
    childpos = 2 * pos + 1
    while childpos < endpos:
        rightpos = childpos + 1
        if rightpos < endpos and not heap[childpos] < heap[rightpos]:
            childpos = rightpos
        heap[pos] = heap[childpos]
        pos = childpos
        childpos = 2 * pos + 1
    heap[pos] = newitem
    _siftdown(heap, startpos, pos)


def heappush(heap, item):
    heap.append(item)
    _siftdown(heap, 0, len(heap) - 1)


def heappop(heap):
    lastelt = heap.pop()
    if heap:
        returnitem = heap[0]
        heap[0] = lastelt
        _siftup(heap, 0)
        return returnitem
    return lastelt


def heapreplace(heap, item):
    returnitem = heap[0]
    heap[0] = item
    _siftup(heap, 0)
    return returnitem


def heappushpop(heap, item):
    if heap and heap[0] < item:
        item, heap[0] = heap[0], item
        _siftup(heap, 0)
    return item


def heapify(x):
    n = len(x)
    for i in reversed(range(n // 2)):
        _siftup(x, i)


def nlargest(n, iterable, key=None):
    return sorted(iterable, key=key, reverse=True)[:n]


def nsmallest(n, iterable, key=None):
    return sorted(iterable, key=key)[:n]


def merge(*iterables, key=None, reverse=False):
    out = []
    for it in iterables:
        out.extend(it)
    return iter(sorted(out, key=key, reverse=reverse))
)PY";

const char* kBisect = R"PY(
def bisect_right(a, x, lo=0, hi=None, *, key=None):
    if lo < 0:
        raise ValueError('lo must be non-negative')
    if hi is None:
        hi = len(a)
    while lo < hi:
        mid = (lo + hi) // 2
        if x < (a[mid] if key is None else key(a[mid])):
            hi = mid
        else:
            lo = mid + 1
    return lo


def bisect_left(a, x, lo=0, hi=None, *, key=None):
    if lo < 0:
        raise ValueError('lo must be non-negative')
    if hi is None:
        hi = len(a)
    while lo < hi:
        mid = (lo + hi) // 2
        if (a[mid] if key is None else key(a[mid])) < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


def insort_right(a, x, lo=0, hi=None, *, key=None):
    a.insert(bisect_right(a, x if key is None else key(x), lo, hi, key=key), x)


def insort_left(a, x, lo=0, hi=None, *, key=None):
    a.insert(bisect_left(a, x if key is None else key(x), lo, hi, key=key), x)


bisect = bisect_right
insort = insort_right
)PY";

const char* kOperator = R"PY(
def lt(a, b): return a < b
def le(a, b): return a <= b
def eq(a, b): return a == b
def ne(a, b): return a != b
def ge(a, b): return a >= b
def gt(a, b): return a > b
def not_(a): return not a
def truth(a): return True if a else False
def is_(a, b): return a is b
def is_not(a, b): return a is not b
def abs(a): return __builtins__abs(a)
def add(a, b): return a + b
def and_(a, b): return a & b
def floordiv(a, b): return a // b
def index(a): return a.__index__()
def inv(a): return ~a
invert = inv
def lshift(a, b): return a << b
def mod(a, b): return a % b
def mul(a, b): return a * b
def matmul(a, b): return a @ b
def neg(a): return -a
def or_(a, b): return a | b
def pos(a): return +a
def pow(a, b): return a ** b
def rshift(a, b): return a >> b
def sub(a, b): return a - b
def truediv(a, b): return a / b
def xor(a, b): return a ^ b
def concat(a, b): return a + b
def contains(a, b): return b in a
def countOf(a, b): return sum(1 for x in a if x is b or x == b)
def getitem(a, b): return a[b]
def setitem(a, b, c): a[b] = c
def delitem(a, b): del a[b]
def indexOf(a, b):
    for i, j in enumerate(a):
        if j is b or j == b:
            return i
    raise ValueError('sequence.index(x): x not in sequence')
def iadd(a, b):
    a += b
    return a
def isub(a, b):
    a -= b
    return a
def imul(a, b):
    a *= b
    return a


class itemgetter:
    def __init__(self, item, *items):
        self._items = (item,) + items

    def __call__(self, obj):
        if len(self._items) == 1:
            return obj[self._items[0]]
        return tuple(obj[i] for i in self._items)


class attrgetter:
    def __init__(self, attr, *attrs):
        self._attrs = (attr,) + attrs

    def _get(self, obj, name):
        for part in name.split('.'):
            obj = getattr(obj, part)
        return obj

    def __call__(self, obj):
        if len(self._attrs) == 1:
            return self._get(obj, self._attrs[0])
        return tuple(self._get(obj, a) for a in self._attrs)


class methodcaller:
    def __init__(self, name, *args, **kwargs):
        self._name = name
        self._args = args
        self._kwargs = kwargs

    def __call__(self, obj):
        return getattr(obj, self._name)(*self._args, **self._kwargs)
)PY";

const char* kTextwrap = R"PY(
def dedent(text):
    lines = text.split('\n')
    margin = None
    for line in lines:
        stripped = line.lstrip(' \t')
        if not stripped:
            continue
        indent = line[:len(line) - len(stripped)]
        if margin is None:
            margin = indent
        elif indent.startswith(margin):
            pass
        elif margin.startswith(indent):
            margin = indent
        else:
            k = 0
            while k < len(margin) and k < len(indent) and margin[k] == indent[k]:
                k += 1
            margin = margin[:k]
    out = []
    for line in lines:
        if not line.strip(' \t'):
            out.append('')
        elif margin:
            out.append(line[len(margin):])
        else:
            out.append(line)
    return '\n'.join(out)


def indent(text, prefix, predicate=None):
    out = []
    for line in text.splitlines(True):
        if (predicate(line) if predicate is not None else line.strip()):
            out.append(prefix + line)
        else:
            out.append(line)
    return ''.join(out)


def wrap(text, width=70, initial_indent='', subsequent_indent='', break_long_words=True, **kwargs):
    words = text.split()
    lines = []
    cur = initial_indent
    empty = True
    for w in words:
        prefix = initial_indent if not lines else subsequent_indent
        if empty:
            candidate = prefix + w
        else:
            candidate = cur + ' ' + w
        if len(candidate) <= width or empty and not break_long_words:
            cur = candidate
            empty = False
            continue
        if not empty:
            lines.append(cur)
            prefix = subsequent_indent
        cur = prefix + w
        while break_long_words and len(cur) > width and width > len(prefix):
            lines.append(cur[:width])
            cur = prefix + cur[width:]
        empty = False
    if not empty:
        lines.append(cur)
    return lines


def fill(text, width=70, **kwargs):
    return '\n'.join(wrap(text, width, **kwargs))


def shorten(text, width, placeholder=' [...]', **kwargs):
    text = ' '.join(text.split())
    if len(text) <= width:
        return text
    words = text.split()
    out = ''
    for w in words:
        cand = (out + ' ' + w) if out else w
        if len(cand) + len(placeholder) > width:
            break
        out = cand
    return (out + placeholder) if out else placeholder.lstrip()


class TextWrapper:
    def __init__(self, width=70, initial_indent='', subsequent_indent='', **kwargs):
        self.width = width
        self.initial_indent = initial_indent
        self.subsequent_indent = subsequent_indent

    def wrap(self, text):
        return wrap(text, self.width, self.initial_indent, self.subsequent_indent)

    def fill(self, text):
        return '\n'.join(self.wrap(text))
)PY";

const char* kPprint = R"PY(
import sys as _sys


def _safe_key(k):
    return (str(type(k)), k)


def _sorted_items(obj, sort_dicts):
    items = list(obj.items())
    if sort_dicts:
        try:
            items = sorted(items)
        except TypeError:
            items = sorted(items, key=lambda kv: _safe_key(kv[0]))
    return items


def _repr(obj, sort_dicts):
    if isinstance(obj, dict):
        return '{' + ', '.join(repr(k) + ': ' + _repr(v, sort_dicts) for k, v in _sorted_items(obj, sort_dicts)) + '}'
    if isinstance(obj, list):
        return '[' + ', '.join(_repr(v, sort_dicts) for v in obj) + ']'
    if isinstance(obj, tuple):
        if len(obj) == 1:
            return '(' + _repr(obj[0], sort_dicts) + ',)'
        return '(' + ', '.join(_repr(v, sort_dicts) for v in obj) + ')'
    return repr(obj)


def _format(obj, indent, width, sort_dicts, level):
    r = _repr(obj, sort_dicts)
    if len(r) + indent <= width:
        return r
    pad = ' ' * (indent + 1)
    if isinstance(obj, dict) and obj:
        items = _sorted_items(obj, sort_dicts)
        parts = []
        for k, v in items:
            kr = repr(k)
            parts.append(kr + ': ' + _format(v, indent + 1 + len(kr) + 2, width, sort_dicts, level + 1))
        return '{' + (',\n' + pad).join(parts) + '}'
    if isinstance(obj, (list, tuple)) and obj:
        open_, close = ('[', ']') if isinstance(obj, list) else ('(', ')')
        parts = [_format(v, indent + 1, width, sort_dicts, level + 1) for v in obj]
        if isinstance(obj, tuple) and len(obj) == 1:
            close = ',)'
        return open_ + (',\n' + pad).join(parts) + close
    return r


def pformat(object, indent=1, width=80, depth=None, *, compact=False, sort_dicts=True, underscore_numbers=False):
    return _format(object, 0, width, sort_dicts, 0)


def pprint(object, stream=None, indent=1, width=80, depth=None, *, compact=False, sort_dicts=True,
           underscore_numbers=False):
    s = pformat(object, indent, width, depth, sort_dicts=sort_dicts)
    if stream is None:
        print(s)
    else:
        stream.write(s + '\n')


def pp(object, *args, sort_dicts=False, **kwargs):
    pprint(object, *args, sort_dicts=sort_dicts, **kwargs)


class PrettyPrinter:
    def __init__(self, indent=1, width=80, depth=None, stream=None, *, compact=False, sort_dicts=True):
        self._width = width
        self._stream = stream
        self._sort = sort_dicts

    def pformat(self, obj):
        return pformat(obj, width=self._width, sort_dicts=self._sort)

    def pprint(self, obj):
        pprint(obj, self._stream, width=self._width, sort_dicts=self._sort)
)PY";

}  // namespace

// timeit: Timer, timeit, repeat, default_timer over a callable or a statement string (compiled
// once, run with exec() in one namespace shared with the setup: `globals`' copy, else empty). The
// analysis (abstract mode) runs a callable once, whatever `number` says, and no string (exec
// runs nothing there); its times are unknown there.
const char* kTimeit = R"PY(
import sys as _sys
import time as _time

default_timer = _time.perf_counter
default_number = 1000000
default_repeat = 5


def _callable(stmt, what, ns):
    if callable(stmt):
        return stmt
    if isinstance(stmt, str):
        if stmt.strip() in ("", "pass"):
            return lambda: None
        code = compile(stmt, "<string>", "exec")
        return lambda: exec(code, ns)
    raise ValueError("%s is neither a string nor callable" % what)


class Timer:
    def __init__(self, stmt="pass", setup="pass", timer=default_timer, globals=None):
        self.timer = timer
        ns = dict(globals) if globals is not None else {}
        self._setup = _callable(setup, "setup", ns)
        self._stmt = _callable(stmt, "stmt", ns)

    def timeit(self, number=default_number):
        self._setup()
        if _sys._tlens_abstract:
            number = 1
        fn = self._stmt
        t0 = self.timer()
        for _ in range(number):
            fn()
        return self.timer() - t0

    def repeat(self, repeat=default_repeat, number=default_number):
        if _sys._tlens_abstract:
            repeat = 1
        return [self.timeit(number) for _ in range(repeat)]

    def autorange(self, callback=None):
        i = 1
        while True:
            for j in 1, 2, 5:
                number = i * j
                time_taken = self.timeit(number)
                if callback:
                    callback(number, time_taken)
                if _sys._tlens_abstract or time_taken >= 0.2:
                    return (number, time_taken)
            i *= 10


def timeit(stmt="pass", setup="pass", timer=default_timer, number=default_number, globals=None):
    return Timer(stmt, setup, timer, globals).timeit(number)


def repeat(stmt="pass", setup="pass", timer=default_timer, repeat=default_repeat, number=default_number, globals=None):
    return Timer(stmt, setup, timer, globals).repeat(repeat, number)
)PY";

namespace {

const char* kTempfile = R"PY(
# tempfile: temporary files and directories under $TMPDIR or /tmp. Names come from a counter and
# the clock, never from the random module (a program's seeded random stream stays as it is).
import os as _os
import shutil as _shutil
import time as _time

tempdir = None
template = "tmp"
_counter = [0]


def gettempdir():
    return tempdir or _os.environ.get("TMPDIR") or "/tmp"


def gettempprefix():
    return template


def _candidate(prefix, suffix, dir):
    _counter[0] += 1
    name = "%s%x%s%d%s" % (prefix, int(_time.time() * 1000000) & 0xffffff, "_", _counter[0], suffix)
    return _os.path.join(dir if dir is not None else gettempdir(), name)


def mkdtemp(suffix=None, prefix=None, dir=None):
    for _ in range(10000):
        path = _candidate(template if prefix is None else prefix, suffix or "", dir)
        try:
            _os.mkdir(path, 0o700)
        except FileExistsError:
            continue
        return _os.path.abspath(path)
    raise FileExistsError("No usable temporary directory name found")


def _create(suffix, prefix, dir):
    for _ in range(10000):
        path = _candidate(template if prefix is None else prefix, suffix or "", dir)
        try:
            f = open(path, "x")
        except FileExistsError:
            continue
        f.close()
        return _os.path.abspath(path)
    raise FileExistsError("No usable temporary file name found")


def mktemp(suffix="", prefix=template, dir=None):
    return _candidate(prefix, suffix, dir)


class TemporaryDirectory(object):
    def __init__(self, suffix=None, prefix=None, dir=None, ignore_cleanup_errors=False):
        self.name = mkdtemp(suffix, prefix, dir)

    def __enter__(self):
        return self.name

    def __exit__(self, exc_type, exc, tb):
        self.cleanup()
        return False

    def cleanup(self):
        _shutil.rmtree(self.name, ignore_errors=True)

    def __repr__(self):
        return "<TemporaryDirectory %r>" % (self.name,)


class _TemporaryFileWrapper(object):
    def __init__(self, file, name, delete):
        self.file = file
        self.name = name
        self.delete = delete

    def __getattr__(self, attr):
        return getattr(self.__dict__["file"], attr)

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        self.close()
        return False

    def __iter__(self):
        return iter(self.file)

    def close(self):
        self.file.close()
        if self.delete and _os.path.exists(self.name):
            _os.remove(self.name)


def NamedTemporaryFile(mode="w+b", buffering=-1, encoding=None, newline=None, suffix=None, prefix=None, dir=None,
                       delete=True, errors=None):
    path = _create(suffix, prefix, dir)
    f = open(path, mode.replace("x", "w"), encoding=encoding) if "b" not in mode else open(path, mode)
    return _TemporaryFileWrapper(f, path, delete)


TemporaryFile = NamedTemporaryFile
SpooledTemporaryFile = NamedTemporaryFile
)PY";

const char* kCodecs = R"PY(
# codecs: open() with an encoding (text files, as io.open reads them), encode/decode, the BOMs.
_builtin_open = open

BOM_UTF8 = b"\xef\xbb\xbf"
BOM_UTF16_LE = b"\xff\xfe"
BOM_UTF16_BE = b"\xfe\xff"
BOM_LE = BOM_UTF16_LE
BOM_BE = BOM_UTF16_BE


def open(filename, mode="r", encoding=None, errors="strict", buffering=-1):
    if encoding is None:
        return _builtin_open(filename, mode)
    # codecs.open gives str with an encoding, whatever the mode says about bytes.
    return _builtin_open(filename, mode.replace("b", ""), encoding=encoding, errors=errors)


def encode(obj, encoding="utf-8", errors="strict"):
    return obj.encode(encoding, errors)


def decode(obj, encoding="utf-8", errors="strict"):
    if isinstance(obj, str):
        return obj
    return obj.decode(encoding, errors)
)PY";

// unittest: TestCase with its assert methods, suites, the loader (test* methods, sorted), the text
// runner's report (CPython's dots, separators and summary, on stderr) and main(), which exits
// as CPython's. No traceback objects: a failure is reported by its exception's last line.
const char* kUnittest = R"PY(import sys
import time as _time


class SkipTest(Exception):
    pass


class _ShouldStop(Exception):
    pass


def skip(reason):
    def decorator(obj):
        obj.__unittest_skip__ = True
        obj.__unittest_skip_why__ = reason
        return obj
    if callable(reason) and not isinstance(reason, str):
        f, reason = reason, ""
        return decorator(f)
    return decorator


def skipIf(condition, reason):
    if condition:
        return skip(reason)
    return lambda obj: obj


def skipUnless(condition, reason):
    if not condition:
        return skip(reason)
    return lambda obj: obj


def expectedFailure(test_item):
    test_item.__unittest_expecting_failure__ = True
    return test_item


def _strclass(cls):
    return "%s.%s" % (cls.__module__, cls.__name__)


def _safe_repr(obj):
    return repr(obj)


class _AssertRaisesContext:
    def __init__(self, expected, test_case, expected_regex=None, msg=None):
        self.expected = expected
        self.test_case = test_case
        self.expected_regex = expected_regex
        self.msg = msg
        self.exception = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, tb):
        if exc_type is None:
            name = getattr(self.expected, "__name__", None) or str(self.expected)
            raise self.test_case.failureException(
                self.test_case._formatMessage(self.msg, "%s not raised" % name))
        if not issubclass(exc_type, self.expected):
            return False
        self.exception = exc_value
        if self.expected_regex is not None:
            import re
            pattern = self.expected_regex
            if not re.search(pattern if isinstance(pattern, str) else pattern.pattern, str(exc_value)):
                raise self.test_case.failureException(self.test_case._formatMessage(
                    self.msg, '"%s" does not match "%s"' % (pattern if isinstance(pattern, str) else pattern.pattern,
                                                             str(exc_value))))
        return True


class _AssertWarnsContext:
    def __init__(self, expected, test_case, expected_regex=None, msg=None):
        self.warning = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, tb):
        return False


class TestCase:
    failureException = AssertionError
    longMessage = True
    maxDiff = 640

    def __init__(self, methodName="runTest"):
        self._testMethodName = methodName
        self._cleanups = []
        if methodName != "runTest" and not hasattr(self, methodName):
            raise ValueError("no such test method in %s: %s" % (self.__class__, methodName))

    @classmethod
    def setUpClass(cls):
        pass

    @classmethod
    def tearDownClass(cls):
        pass

    def setUp(self):
        pass

    def tearDown(self):
        pass

    def addCleanup(self, function, *args, **kwargs):
        self._cleanups.append((function, args, kwargs))

    def doCleanups(self):
        while self._cleanups:
            function, args, kwargs = self._cleanups.pop()
            function(*args, **kwargs)

    def countTestCases(self):
        return 1

    def id(self):
        return "%s.%s" % (_strclass(self.__class__), self._testMethodName)

    def shortDescription(self):
        return None

    def __str__(self):
        return "%s (%s.%s)" % (self._testMethodName, _strclass(self.__class__), self._testMethodName)

    def __repr__(self):
        return "<%s testMethod=%s>" % (_strclass(self.__class__), self._testMethodName)

    def __call__(self, result=None):
        return self.run(result)

    def skipTest(self, reason):
        raise SkipTest(reason)

    def run(self, result=None):
        if result is None:
            result = TestResult()
        method = getattr(self, self._testMethodName)
        result.startTest(self)
        try:
            if getattr(self.__class__, "__unittest_skip__", False) or getattr(method, "__unittest_skip__", False):
                why = (getattr(self.__class__, "__unittest_skip_why__", "")
                       or getattr(method, "__unittest_skip_why__", ""))
                result.addSkip(self, why)
                return result
            expecting_failure = getattr(method, "__unittest_expecting_failure__", False)
            outcome = self._run_part(result, self.setUp)
            if outcome == "ok":
                outcome = self._run_part(result, method, expecting_failure)
                teardown = self._run_part(result, self.tearDown)
                if outcome == "ok" and teardown != "ok":
                    outcome = teardown
            try:
                self.doCleanups()
            except Exception as e:
                if outcome == "ok":
                    result.addError(self, e)
                    outcome = "error"
            if outcome == "ok":
                if expecting_failure:
                    result.addUnexpectedSuccess(self)
                else:
                    result.addSuccess(self)
        finally:
            result.stopTest(self)
        return result

    def _run_part(self, result, fn, expecting_failure=False):
        try:
            fn()
            return "ok"
        except SkipTest as e:
            result.addSkip(self, str(e))
            return "skip"
        except KeyboardInterrupt:
            raise
        except self.failureException as e:
            if expecting_failure:
                result.addExpectedFailure(self, e)
            else:
                result.addFailure(self, e)
            return "fail"
        except Exception as e:
            if expecting_failure:
                result.addExpectedFailure(self, e)
            else:
                result.addError(self, e)
            return "error"

    def debug(self):
        self.setUp()
        getattr(self, self._testMethodName)()
        self.tearDown()
        self.doCleanups()

    def _formatMessage(self, msg, standardMsg):
        if msg is None:
            return standardMsg
        if not self.longMessage:
            return msg
        return "%s : %s" % (standardMsg, msg)

    def fail(self, msg=None):
        raise self.failureException(msg)

    def assertTrue(self, expr, msg=None):
        if not expr:
            raise self.failureException(self._formatMessage(msg, "%s is not true" % _safe_repr(expr)))

    def assertFalse(self, expr, msg=None):
        if expr:
            raise self.failureException(self._formatMessage(msg, "%s is not false" % _safe_repr(expr)))

    def assertEqual(self, first, second, msg=None):
        if not first == second:
            raise self.failureException(self._formatMessage(msg, "%s != %s" % (_safe_repr(first), _safe_repr(second))))

    def assertNotEqual(self, first, second, msg=None):
        if not first != second:
            raise self.failureException(self._formatMessage(msg, "%s == %s" % (_safe_repr(first), _safe_repr(second))))

    assertListEqual = assertEqual
    assertTupleEqual = assertEqual
    assertDictEqual = assertEqual
    assertSetEqual = assertEqual
    assertMultiLineEqual = assertEqual

    def assertSequenceEqual(self, seq1, seq2, msg=None, seq_type=None):
        if list(seq1) != list(seq2):
            raise self.failureException(self._formatMessage(msg, "Sequences differ: %s != %s" % (_safe_repr(seq1), _safe_repr(seq2))))

    def assertAlmostEqual(self, first, second, places=None, msg=None, delta=None):
        if first == second:
            return
        if delta is not None and places is not None:
            raise TypeError("specify delta or places not both")
        diff = abs(first - second)
        if delta is not None:
            if diff <= delta:
                return
            standardMsg = "%s != %s within %s delta (%s difference)" % (
                _safe_repr(first), _safe_repr(second), _safe_repr(delta), _safe_repr(diff))
        else:
            if places is None:
                places = 7
            if round(diff, places) == 0:
                return
            standardMsg = "%s != %s within %r places (%s difference)" % (
                _safe_repr(first), _safe_repr(second), places, _safe_repr(diff))
        raise self.failureException(self._formatMessage(msg, standardMsg))

    def assertNotAlmostEqual(self, first, second, places=None, msg=None, delta=None):
        diff = abs(first - second)
        if delta is not None:
            if not (first == second) and diff > delta:
                return
            standardMsg = "%s == %s within %s delta (%s difference)" % (
                _safe_repr(first), _safe_repr(second), _safe_repr(delta), _safe_repr(diff))
        else:
            if places is None:
                places = 7
            if not (first == second) and round(diff, places) != 0:
                return
            standardMsg = "%s == %s within %r places" % (_safe_repr(first), _safe_repr(second), places)
        raise self.failureException(self._formatMessage(msg, standardMsg))

    def assertIs(self, expr1, expr2, msg=None):
        if expr1 is not expr2:
            raise self.failureException(self._formatMessage(msg, "%s is not %s" % (_safe_repr(expr1), _safe_repr(expr2))))

    def assertIsNot(self, expr1, expr2, msg=None):
        if expr1 is expr2:
            raise self.failureException(self._formatMessage(msg, "unexpectedly identical: %s" % _safe_repr(expr1)))

    def assertIsNone(self, obj, msg=None):
        if obj is not None:
            raise self.failureException(self._formatMessage(msg, "%s is not None" % _safe_repr(obj)))

    def assertIsNotNone(self, obj, msg=None):
        if obj is None:
            raise self.failureException(self._formatMessage(msg, "unexpectedly None"))

    def assertIn(self, member, container, msg=None):
        if member not in container:
            raise self.failureException(self._formatMessage(msg, "%s not found in %s" % (_safe_repr(member), _safe_repr(container))))

    def assertNotIn(self, member, container, msg=None):
        if member in container:
            raise self.failureException(self._formatMessage(msg, "%s unexpectedly found in %s" % (_safe_repr(member), _safe_repr(container))))

    def assertIsInstance(self, obj, cls, msg=None):
        if not isinstance(obj, cls):
            raise self.failureException(self._formatMessage(msg, "%s is not an instance of %r" % (_safe_repr(obj), cls)))

    def assertNotIsInstance(self, obj, cls, msg=None):
        if isinstance(obj, cls):
            raise self.failureException(self._formatMessage(msg, "%s is an instance of %r" % (_safe_repr(obj), cls)))

    def assertGreater(self, a, b, msg=None):
        if not a > b:
            raise self.failureException(self._formatMessage(msg, "%s not greater than %s" % (_safe_repr(a), _safe_repr(b))))

    def assertGreaterEqual(self, a, b, msg=None):
        if not a >= b:
            raise self.failureException(self._formatMessage(msg, "%s not greater than or equal to %s" % (_safe_repr(a), _safe_repr(b))))

    def assertLess(self, a, b, msg=None):
        if not a < b:
            raise self.failureException(self._formatMessage(msg, "%s not less than %s" % (_safe_repr(a), _safe_repr(b))))

    def assertLessEqual(self, a, b, msg=None):
        if not a <= b:
            raise self.failureException(self._formatMessage(msg, "%s not less than or equal to %s" % (_safe_repr(a), _safe_repr(b))))

    def assertCountEqual(self, first, second, msg=None):
        a, b = list(first), list(second)
        missing = list(b)
        unexpected = []
        for x in a:
            if x in missing:
                missing.remove(x)
            else:
                unexpected.append(x)
        if missing or unexpected:
            raise self.failureException(self._formatMessage(msg, "Element counts were not equal: first has %s, second has %s" % (_safe_repr(unexpected), _safe_repr(missing))))

    def assertRegex(self, text, expected_regex, msg=None):
        import re
        pattern = expected_regex if isinstance(expected_regex, str) else expected_regex.pattern
        if not re.search(pattern, text):
            raise self.failureException(self._formatMessage(msg, "Regex didn't match: %r not found in %r" % (pattern, text)))

    def assertNotRegex(self, text, unexpected_regex, msg=None):
        import re
        pattern = unexpected_regex if isinstance(unexpected_regex, str) else unexpected_regex.pattern
        m = re.search(pattern, text)
        if m:
            raise self.failureException(self._formatMessage(msg, "Regex matched: %r matches %r in %r" % (m.group(0), pattern, text)))

    def assertRaises(self, expected_exception, *args, **kwargs):
        return self.assertRaisesRegex(expected_exception, None, *args, **kwargs)

    def assertRaisesRegex(self, expected_exception, expected_regex, *args, **kwargs):
        context = _AssertRaisesContext(expected_exception, self, expected_regex, kwargs.pop("msg", None))
        if not args:
            return context
        callable_obj, args = args[0], args[1:]
        with context:
            callable_obj(*args, **kwargs)
        return None

    def assertWarns(self, expected_warning, *args, **kwargs):
        context = _AssertWarnsContext(expected_warning, self)
        if not args:
            return context
        args[0](*args[1:], **kwargs)
        return None

    assertWarnsRegex = assertWarns
    assertEquals = assertEqual
    failUnlessEqual = assertEqual
    assertNotEquals = assertNotEqual
    failIfEqual = assertNotEqual
    assertAlmostEquals = assertAlmostEqual
    assertNotAlmostEquals = assertNotAlmostEqual
    assert_ = assertTrue
    failUnless = assertTrue
    failIf = assertFalse
    assertRaisesRegexp = assertRaisesRegex
    assertRegexpMatches = assertRegex


class FunctionTestCase(TestCase):
    def __init__(self, testFunc, setUp=None, tearDown=None, description=None):
        TestCase.__init__(self)
        self._testFunc = testFunc
        self._setUpFunc = setUp
        self._tearDownFunc = tearDown

    def setUp(self):
        if self._setUpFunc is not None:
            self._setUpFunc()

    def tearDown(self):
        if self._tearDownFunc is not None:
            self._tearDownFunc()

    def runTest(self):
        self._testFunc()

    def id(self):
        return self._testFunc.__name__

    def __str__(self):
        return "%s (%s)" % (_strclass(self.__class__), self._testFunc.__name__)


class TestSuite:
    def __init__(self, tests=()):
        self._tests = []
        self.addTests(tests)

    def __iter__(self):
        return iter(self._tests)

    def countTestCases(self):
        return sum(t.countTestCases() for t in self._tests)

    def addTest(self, test):
        self._tests.append(test)

    def addTests(self, tests):
        for t in tests:
            self.addTest(t)

    def __call__(self, result):
        return self.run(result)

    def _flat(self):
        out = []
        for t in self._tests:
            if isinstance(t, TestSuite):
                out.extend(t._flat())
            else:
                out.append(t)
        return out

    def run(self, result):
        # setUpClass/tearDownClass once around each class's consecutive tests, as unittest does.
        current = None
        class_ok = True
        for test in self._flat():
            if result.shouldStop:
                break
            cls = test.__class__
            if cls is not current:
                if current is not None and class_ok:
                    self._class_fixture(result, current, "tearDownClass")
                current = cls
                class_ok = getattr(cls, "__unittest_skip__", False) or self._class_fixture(result, cls, "setUpClass")
            if class_ok:
                test(result)
        if current is not None and class_ok:
            self._class_fixture(result, current, "tearDownClass")
        return result

    def _class_fixture(self, result, cls, name):
        if getattr(cls, "__unittest_skip__", False):
            return True
        try:
            getattr(cls, name)()
            return True
        except Exception as e:
            result.addError(_ErrorHolder("%s (%s)" % (name, _strclass(cls))), e)
            return False


class _ErrorHolder:
    def __init__(self, description):
        self.description = description

    def __str__(self):
        return self.description

    def countTestCases(self):
        return 0


class TestLoader:
    testMethodPrefix = "test"
    suiteClass = TestSuite

    def getTestCaseNames(self, testCaseClass):
        names = [n for n in dir(testCaseClass)
                 if n.startswith(self.testMethodPrefix) and callable(getattr(testCaseClass, n))]
        return sorted(names)

    def loadTestsFromTestCase(self, testCaseClass):
        names = self.getTestCaseNames(testCaseClass)
        if not names and hasattr(testCaseClass, "runTest"):
            names = ["runTest"]
        return self.suiteClass([testCaseClass(n) for n in names])

    def loadTestsFromModule(self, module, pattern=None):
        tests = []
        for name in dir(module):
            obj = getattr(module, name)
            if isinstance(obj, type) and issubclass(obj, TestCase):
                tests.append(self.loadTestsFromTestCase(obj))
        return self.suiteClass(tests)

    def loadTestsFromName(self, name, module=None):
        parts = name.split(".")
        obj = module
        for p in parts:
            obj = getattr(obj, p)
        if isinstance(obj, type) and issubclass(obj, TestCase):
            return self.loadTestsFromTestCase(obj)
        if isinstance(obj, TestSuite):
            return obj
        # A method of a TestCase: Class.test_name
        if len(parts) >= 2:
            parent = module
            for p in parts[:-1]:
                parent = getattr(parent, p)
            if isinstance(parent, type) and issubclass(parent, TestCase):
                return self.suiteClass([parent(parts[-1])])
        raise TypeError("don't know how to make test from: %s" % name)

    def loadTestsFromNames(self, names, module=None):
        return self.suiteClass([self.loadTestsFromName(n, module) for n in names])


defaultTestLoader = TestLoader()


def makeSuite(testCaseClass, prefix="test", sortUsing=None, suiteClass=TestSuite):
    return TestLoader().loadTestsFromTestCase(testCaseClass)


def _exc_text(err):
    # The exception as the last line of CPython's traceback (tensorlens keeps no traceback object).
    name = type(err).__name__
    if type(err).__module__ not in ("builtins", "__main__", None):
        name = type(err).__module__ + "." + name
    text = str(err)
    return "%s: %s" % (name, text) if text else name


class TestResult:
    def __init__(self, stream=None, descriptions=None, verbosity=None):
        self.failures = []
        self.errors = []
        self.testsRun = 0
        self.skipped = []
        self.expectedFailures = []
        self.unexpectedSuccesses = []
        self.shouldStop = False
        self.failfast = False

    def startTest(self, test):
        self.testsRun += 1

    def stopTest(self, test):
        pass

    def startTestRun(self):
        pass

    def stopTestRun(self):
        pass

    def addSuccess(self, test):
        pass

    def addError(self, test, err):
        self.errors.append((test, _exc_text(err)))
        if self.failfast:
            self.stop()

    def addFailure(self, test, err):
        self.failures.append((test, _exc_text(err)))
        if self.failfast:
            self.stop()

    def addSkip(self, test, reason):
        self.skipped.append((test, reason))

    def addExpectedFailure(self, test, err):
        self.expectedFailures.append((test, _exc_text(err)))

    def addUnexpectedSuccess(self, test):
        self.unexpectedSuccesses.append(test)

    def wasSuccessful(self):
        return len(self.failures) == len(self.errors) == 0 and not self.unexpectedSuccesses

    def stop(self):
        self.shouldStop = True


class _WritelnDecorator:
    def __init__(self, stream):
        self.stream = stream

    def write(self, s):
        self.stream.write(s)

    def writeln(self, arg=None):
        if arg:
            self.write(arg)
        self.write("\n")

    def flush(self):
        if hasattr(self.stream, "flush"):
            self.stream.flush()


class TextTestResult(TestResult):
    separator1 = "=" * 70
    separator2 = "-" * 70

    def __init__(self, stream, descriptions, verbosity):
        TestResult.__init__(self)
        self.stream = stream
        self.showAll = verbosity > 1
        self.dots = verbosity == 1
        self.descriptions = descriptions

    def getDescription(self, test):
        return str(test)

    def startTest(self, test):
        TestResult.startTest(self, test)
        if self.showAll:
            self.stream.write(self.getDescription(test))
            self.stream.write(" ... ")
            self.stream.flush()

    def _report(self, long, short):
        if self.showAll:
            self.stream.writeln(long)
        elif self.dots:
            self.stream.write(short)
            self.stream.flush()

    def addSuccess(self, test):
        TestResult.addSuccess(self, test)
        self._report("ok", ".")

    def addError(self, test, err):
        TestResult.addError(self, test, err)
        self._report("ERROR", "E")

    def addFailure(self, test, err):
        TestResult.addFailure(self, test, err)
        self._report("FAIL", "F")

    def addSkip(self, test, reason):
        TestResult.addSkip(self, test, reason)
        self._report("skipped %r" % (reason,), "s")

    def addExpectedFailure(self, test, err):
        TestResult.addExpectedFailure(self, test, err)
        self._report("expected failure", "x")

    def addUnexpectedSuccess(self, test):
        TestResult.addUnexpectedSuccess(self, test)
        self._report("unexpected success", "u")

    def printErrors(self):
        if self.dots or self.showAll:
            self.stream.writeln()
            self.stream.flush()
        self.printErrorList("ERROR", self.errors)
        self.printErrorList("FAIL", self.failures)
        if self.unexpectedSuccesses:
            self.stream.writeln(self.separator1)
            for test in self.unexpectedSuccesses:
                self.stream.writeln("UNEXPECTED SUCCESS: %s" % self.getDescription(test))
        self.stream.flush()

    def printErrorList(self, flavour, errors):
        for test, err in errors:
            self.stream.writeln(self.separator1)
            self.stream.writeln("%s: %s" % (flavour, self.getDescription(test)))
            self.stream.writeln(self.separator2)
            self.stream.writeln("%s" % err)
            self.stream.writeln()


class TextTestRunner:
    resultclass = TextTestResult

    def __init__(self, stream=None, descriptions=True, verbosity=1, failfast=False, buffer=False,
                 resultclass=None, warnings=None, tb_locals=False):
        if stream is None:
            stream = sys.stderr
        self.stream = _WritelnDecorator(stream)
        self.descriptions = descriptions
        self.verbosity = verbosity
        self.failfast = failfast
        if resultclass is not None:
            self.resultclass = resultclass

    def _makeResult(self):
        return self.resultclass(self.stream, self.descriptions, self.verbosity)

    def run(self, test):
        result = self._makeResult()
        result.failfast = self.failfast
        start = _time.perf_counter()
        result.startTestRun()
        try:
            test(result)
        finally:
            result.stopTestRun()
        taken = _time.perf_counter() - start
        result.printErrors()
        self.stream.writeln(result.separator2)
        run = result.testsRun
        self.stream.writeln("Ran %d test%s in %.3fs" % (run, "s" if run != 1 else "", taken))
        self.stream.writeln()
        infos = []
        if not result.wasSuccessful():
            self.stream.write("FAILED")
            if result.failures:
                infos.append("failures=%d" % len(result.failures))
            if result.errors:
                infos.append("errors=%d" % len(result.errors))
        else:
            self.stream.write("OK")
        if result.skipped:
            infos.append("skipped=%d" % len(result.skipped))
        if result.expectedFailures:
            infos.append("expected failures=%d" % len(result.expectedFailures))
        if result.unexpectedSuccesses:
            infos.append("unexpected successes=%d" % len(result.unexpectedSuccesses))
        if infos:
            self.stream.writeln(" (%s)" % (", ".join(infos),))
        else:
            self.stream.write("\n")
        self.stream.flush()
        return result


class TestProgram:
    def __init__(self, module="__main__", defaultTest=None, argv=None, testRunner=None, testLoader=None,
                 exit=True, verbosity=1, failfast=None, catchbreak=None, buffer=None, warnings=None):
        if isinstance(module, str):
            self.module = sys.modules[module]
        else:
            self.module = module
        if argv is None:
            argv = sys.argv
        self.exit = exit
        self.verbosity = verbosity
        self.failfast = bool(failfast)
        self.testRunner = testRunner
        self.testLoader = testLoader if testLoader is not None else defaultTestLoader
        names = []
        for a in list(argv)[1:]:
            if a in ("-v", "--verbose"):
                self.verbosity = 2
            elif a in ("-q", "--quiet"):
                self.verbosity = 0
            elif a in ("-f", "--failfast"):
                self.failfast = True
            elif not a.startswith("-"):
                names.append(a)
        if not names and defaultTest is not None:
            names = [defaultTest] if isinstance(defaultTest, str) else list(defaultTest)
        if names:
            self.test = self.testLoader.loadTestsFromNames(names, self.module)
        else:
            self.test = self.testLoader.loadTestsFromModule(self.module)
        self.runTests()

    def runTests(self):
        runner = self.testRunner
        if runner is None:
            runner = TextTestRunner(verbosity=self.verbosity, failfast=self.failfast)
        elif isinstance(runner, type):
            runner = runner(verbosity=self.verbosity, failfast=self.failfast)
        self.result = runner.run(self.test)
        if self.exit:
            sys.exit(not self.result.wasSuccessful())


main = TestProgram
)PY";

}  // namespace


void registerUtilModules(ModuleRegistry& r) {
  r.addSource("timeit", kTimeit);
  r.addSource("tempfile", kTempfile);
  r.addSource("codecs", kCodecs);
  r.addSource("contextlib", kContextlib);
  r.addSource("enum", kEnum);
  r.addSource("dataclasses", kDataclasses);
  r.addSource("heapq", kHeapq);
  r.addSource("bisect", kBisect);
  r.addSource("operator", std::string("__builtins__abs = abs\n") + kOperator);
  r.addSource("textwrap", kTextwrap);
  r.addSource("pprint", kPprint);
  r.addSource("unittest", kUnittest);
}

}  // namespace tlens::interp
