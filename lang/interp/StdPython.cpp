// The standard-library subset: native modules (math, sys, os, time, random, itertools, typing)
// and modules written in Python and embedded here (argparse, collections, functools, copy, abc,
// warnings, logging, string). Embedded modules run as trusted code: their loops run exactly even
// in abstract mode, so `parser.parse_args()` still yields the defaults.
#include "lang/interp/Imports.h"
#include "lang/interp/StdModules.h"
#include "lang/interp/StdModules.h"

namespace tlens::interp {

std::shared_ptr<ModuleObj> makeMathModule(Interpreter& in);
std::shared_ptr<ModuleObj> makeSysModule(Interpreter& in);
std::shared_ptr<ModuleObj> makeOsModule(Interpreter& in);
std::shared_ptr<ModuleObj> makeOsPathModule(Interpreter& in);
std::shared_ptr<ModuleObj> makeTimeModule(Interpreter& in);
std::shared_ptr<ModuleObj> makeRandomModule(Interpreter& in);
std::shared_ptr<ModuleObj> makeItertoolsModule(Interpreter& in);
std::shared_ptr<ModuleObj> makeCollectionsNative(Interpreter& in);
std::shared_ptr<ModuleObj> makeTypingModule(Interpreter& in);

namespace {

const char* kArgparse = R"PY(
import sys as _sys

SUPPRESS = '==SUPPRESS=='
OPTIONAL = '?'
ZERO_OR_MORE = '*'
ONE_OR_MORE = '+'


class Namespace(object):
    def __init__(self, **kwargs):
        for k in kwargs:
            setattr(self, k, kwargs[k])

    def __repr__(self):
        return 'Namespace(%s)' % ', '.join('%s=%r' % (k, v) for k, v in vars(self).items())

    def __contains__(self, key):
        return key in vars(self)

    def __eq__(self, other):
        return isinstance(other, Namespace) and vars(self) == vars(other)


class ArgumentError(Exception):
    pass


class ArgumentTypeError(Exception):
    pass


class HelpFormatter(object):
    pass


class RawTextHelpFormatter(HelpFormatter):
    pass


class RawDescriptionHelpFormatter(HelpFormatter):
    pass


class ArgumentDefaultsHelpFormatter(HelpFormatter):
    pass


class FileType(object):
    def __init__(self, mode='r', *args, **kwargs):
        self.mode = mode

    def __call__(self, name):
        return open(name, self.mode)


class _Action(object):
    def __init__(self, option_strings, dest, action, nargs, const, default, type, choices, required, help, metavar):
        self.option_strings = option_strings
        self.dest = dest
        self.action = action
        self.nargs = nargs
        self.const = const
        self.default = default
        self.type = type
        self.choices = choices
        self.required = required
        self.help = help
        self.metavar = metavar

    def name(self):
        if self.option_strings:
            return '/'.join(self.option_strings)
        return self.metavar or self.dest


class ArgumentParser(object):
    def __init__(self, prog=None, usage=None, description=None, epilog=None, parents=None,
                 formatter_class=None, prefix_chars='-', fromfile_prefix_chars=None,
                 argument_default=None, conflict_handler='error', add_help=True, allow_abbrev=True,
                 exit_on_error=True):
        if prog is None:
            prog = _sys.argv[0].split('/')[-1] if _sys.argv and _sys.argv[0] else 'prog'
        self.prog = prog
        self.usage = usage
        self.description = description
        self.epilog = epilog
        self._actions = []
        self._defaults = {}
        self._add_help = add_help
        if parents:
            for p in parents:
                self._actions.extend(p._actions)
                self._defaults.update(p._defaults)

    def add_argument(self, *names, **kwargs):
        action = kwargs.get('action', 'store')
        if names and names[0][:1] == '-':
            opts = list(names)
            longs = [n for n in names if n.startswith('--')]
            dest = kwargs.get('dest') or (longs[0] if longs else names[0]).lstrip('-').replace('-', '_')
        else:
            opts = []
            dest = kwargs.get('dest') or names[0]
        default = kwargs.get('default', None)
        if action == 'store_true' and 'default' not in kwargs:
            default = False
        if action == 'store_false' and 'default' not in kwargs:
            default = True
        const = kwargs.get('const', None)
        if action == 'store_true':
            const = True
        if action == 'store_false':
            const = False
        required = kwargs.get('required', not opts and kwargs.get('nargs') not in ('?', '*'))
        a = _Action(opts, dest, action, kwargs.get('nargs'), const, default, kwargs.get('type'),
                    kwargs.get('choices'), required, kwargs.get('help'), kwargs.get('metavar'))
        self._actions.append(a)
        return a

    def add_argument_group(self, *args, **kwargs):
        return self

    def add_mutually_exclusive_group(self, **kwargs):
        return self

    def add_subparsers(self, **kwargs):
        raise NotImplementedError('argparse subparsers are not supported by tensorlens')

    def set_defaults(self, **kwargs):
        self._defaults.update(kwargs)

    def get_default(self, dest):
        for a in self._actions:
            if a.dest == dest:
                return a.default
        return self._defaults.get(dest)

    def _find(self, opt):
        for a in self._actions:
            if opt in a.option_strings:
                return a
        matches = [a for a in self._actions for o in a.option_strings if o.startswith('--') and o.startswith(opt) and opt.startswith('--')]
        if len(matches) == 1:
            return matches[0]
        return None

    def _convert(self, action, value):
        if action.type is not None and isinstance(value, str):
            try:
                value = action.type(value)
            except (TypeError, ValueError):
                tname = getattr(action.type, '__name__', repr(action.type))
                self.error('argument %s: invalid %s value: %r' % (action.name(), tname, value))
        if action.choices is not None and value not in action.choices:
            self.error('argument %s: invalid choice: %r (choose from %s)' % (
                action.name(), value, ', '.join(repr(c) for c in action.choices)))
        return value

    def _store(self, ns, action, values, single):
        if action.action == 'append':
            cur = getattr(ns, action.dest, None)
            cur = list(cur) if cur else []
            cur.append(values[0] if single else values)
            setattr(ns, action.dest, cur)
        else:
            setattr(ns, action.dest, values[0] if single else values)

    def parse_args(self, args=None, namespace=None):
        ns, rest = self.parse_known_args(args, namespace)
        if rest:
            self.error('unrecognized arguments: %s' % ' '.join(rest))
        return ns

    def parse_known_args(self, args=None, namespace=None):
        if args is None:
            # Abstract analysis without a command line (sys.argv is unknown): the program as run
            # without arguments, every option at its default; missing required ones are unknown.
            args = [] if _sys._tlens_argv_unknown else _sys.argv[1:]
        args = list(args)
        ns = namespace if namespace is not None else Namespace()
        for a in self._actions:
            if a.default is SUPPRESS or hasattr(ns, a.dest):
                continue
            d = a.default
            if isinstance(d, str) and a.type is not None:
                d = self._convert(a, d)
            setattr(ns, a.dest, d)
        for k in self._defaults:
            if not hasattr(ns, k):
                setattr(ns, k, self._defaults[k])
        positionals = [a for a in self._actions if not a.option_strings]
        seen = []
        rest = []
        i = 0
        while i < len(args):
            arg = args[i]
            if arg == '--':
                rest.extend(args[i + 1:])
                break
            if arg[:1] == '-' and len(arg) > 1 and not arg[1:2].isdigit():
                value = None
                if '=' in arg:
                    arg, value = arg.split('=', 1)
                if self._add_help and arg in ('-h', '--help'):
                    self.print_help()
                    _sys.exit(0)
                action = self._find(arg)
                if action is None:
                    rest.append(args[i])
                    i += 1
                    continue
                seen.append(action)
                i += 1
                kind = action.action
                if kind in ('store_true', 'store_false', 'store_const'):
                    setattr(ns, action.dest, action.const)
                elif kind == 'append_const':
                    cur = getattr(ns, action.dest, None) or []
                    setattr(ns, action.dest, list(cur) + [action.const])
                elif kind == 'count':
                    setattr(ns, action.dest, (getattr(ns, action.dest, None) or 0) + 1)
                elif kind == 'version':
                    print(getattr(action, 'version', ''))
                    _sys.exit(0)
                else:
                    nargs = action.nargs
                    if value is not None:
                        vals = [value]
                    elif nargs in ('*', '+') or (isinstance(nargs, int) and not isinstance(nargs, bool)):
                        vals = []
                        while i < len(args) and not (args[i][:1] == '-' and len(args[i]) > 1 and not args[i][1:2].isdigit()):
                            if isinstance(nargs, int) and len(vals) == nargs:
                                break
                            vals.append(args[i])
                            i += 1
                        if nargs == '+' and not vals:
                            self.error('argument %s: expected at least one argument' % action.name())
                        if isinstance(nargs, int) and len(vals) != nargs:
                            self.error('argument %s: expected %d arguments' % (action.name(), nargs))
                    elif nargs == '?':
                        if i < len(args) and not (args[i][:1] == '-' and len(args[i]) > 1):
                            vals = [args[i]]
                            i += 1
                        else:
                            setattr(ns, action.dest, action.const)
                            continue
                    else:
                        if i >= len(args):
                            self.error('argument %s: expected one argument' % action.name())
                        vals = [args[i]]
                        i += 1
                    vals = [self._convert(action, v) for v in vals]
                    self._store(ns, action, vals, nargs is None or nargs == '?')
                continue
            if positionals:
                action = positionals.pop(0)
                seen.append(action)
                nargs = action.nargs
                if nargs in ('*', '+'):
                    vals = []
                    while i < len(args) and args[i][:1] != '-':
                        vals.append(self._convert(action, args[i]))
                        i += 1
                    setattr(ns, action.dest, vals)
                else:
                    setattr(ns, action.dest, self._convert(action, arg))
                    i += 1
            else:
                rest.append(arg)
                i += 1
        missing = [a for a in self._actions if a.required and a not in seen]
        if missing and _sys._tlens_argv_unknown:
            for a in missing:
                setattr(ns, a.dest, _sys._tlens_unknown)
            missing = []
        missing = [a.name() for a in missing]
        if missing:
            self.error('the following arguments are required: %s' % ', '.join(missing))
        return ns, rest

    def format_usage(self):
        if self.usage:
            return 'usage: %s\n' % self.usage
        parts = ['usage: %s' % self.prog]
        if self._add_help:
            parts.append('[-h]')
        for a in self._actions:
            if a.option_strings:
                if a.action in ('store_true', 'store_false', 'store_const', 'count'):
                    parts.append('[%s]' % a.option_strings[0])
                else:
                    parts.append('[%s %s]' % (a.option_strings[0], (a.metavar or a.dest.upper())))
            else:
                parts.append(a.metavar or a.dest)
        return ' '.join(parts) + '\n'

    def format_help(self):
        text = self.format_usage()
        if self.description:
            text += '\n' + self.description + '\n'
        pos = [a for a in self._actions if not a.option_strings]
        opt = [a for a in self._actions if a.option_strings]
        if pos:
            text += '\npositional arguments:\n'
            for a in pos:
                text += '  %-20s %s\n' % (a.metavar or a.dest, a.help or '')
        text += '\noptions:\n'
        if self._add_help:
            text += '  %-20s %s\n' % ('-h, --help', 'show this help message and exit')
        for a in opt:
            text += '  %-20s %s\n' % (', '.join(a.option_strings), a.help or '')
        if self.epilog:
            text += '\n' + self.epilog + '\n'
        return text

    def print_usage(self, file=None):
        (file or _sys.stdout).write(self.format_usage())

    def print_help(self, file=None):
        (file or _sys.stdout).write(self.format_help())

    def error(self, message):
        self.print_usage(_sys.stderr)
        _sys.stderr.write('%s: error: %s\n' % (self.prog, message))
        _sys.exit(2)

    def exit(self, status=0, message=None):
        if message:
            _sys.stderr.write(message)
        _sys.exit(status)
)PY";

const char* kCollections = R"PY(
from _collections import OrderedDict, defaultdict


def namedtuple(typename, field_names, *, rename=False, defaults=None, module=None):
    if isinstance(field_names, str):
        field_names = field_names.replace(',', ' ').split()
    fields = tuple(field_names)
    dflts = tuple(defaults) if defaults is not None else ()
    field_defaults = dict(zip(fields[len(fields) - len(dflts):], dflts))

    class _NT(object):
        _fields = fields
        _field_defaults = field_defaults

        def __init__(self, *args, **kwargs):
            values = list(args)
            if len(values) > len(fields):
                raise TypeError('%s() takes %d positional arguments but %d were given' % (typename, len(fields) + 1, len(values) + 1))
            for name in fields[len(values):]:
                if name in kwargs:
                    values.append(kwargs.pop(name))
                elif name in field_defaults:
                    values.append(field_defaults[name])
                else:
                    raise TypeError("%s() missing 1 required positional argument: '%s'" % (typename, name))
            if kwargs:
                raise TypeError("%s() got an unexpected keyword argument '%s'" % (typename, list(kwargs)[0]))
            object.__setattr__(self, '_values', tuple(values))
            for name, v in zip(fields, values):
                object.__setattr__(self, name, v)

        def __setattr__(self, name, value):
            raise AttributeError("can't set attribute")

        def __iter__(self):
            return iter(self._values)

        def __len__(self):
            return len(self._values)

        def __getitem__(self, i):
            return self._values[i]

        def __eq__(self, other):
            if isinstance(other, _NT):
                return self._values == other._values
            if isinstance(other, tuple):
                return self._values == other
            return False

        def __hash__(self):
            return hash(self._values)

        def __repr__(self):
            return '%s(%s)' % (typename, ', '.join('%s=%r' % (n, v) for n, v in zip(fields, self._values)))

        def _asdict(self):
            return dict(zip(fields, self._values))

        def _replace(self, **kwargs):
            d = self._asdict()
            d.update(kwargs)
            return _NT(**d)

        @classmethod
        def _make(cls, iterable):
            return cls(*iterable)

    _NT.__name__ = typename
    _NT.__qualname__ = typename
    return _NT


class Counter(object):
    def __init__(self, iterable=None, **kwds):
        self._d = {}
        self.update(iterable, **kwds)

    def update(self, iterable=None, **kwds):
        if iterable is not None:
            if isinstance(iterable, (dict, Counter)):
                for k in iterable.keys():
                    self._d[k] = self._d.get(k, 0) + iterable[k]
            else:
                for k in iterable:
                    self._d[k] = self._d.get(k, 0) + 1
        for k in kwds:
            self._d[k] = self._d.get(k, 0) + kwds[k]

    def subtract(self, iterable=None, **kwds):
        if iterable is not None:
            if isinstance(iterable, (dict, Counter)):
                for k in iterable.keys():
                    self._d[k] = self._d.get(k, 0) - iterable[k]
            else:
                for k in iterable:
                    self._d[k] = self._d.get(k, 0) - 1

    def __getitem__(self, k):
        return self._d.get(k, 0)

    def __setitem__(self, k, v):
        self._d[k] = v

    def __delitem__(self, k):
        if k in self._d:
            del self._d[k]

    def __contains__(self, k):
        return k in self._d

    def __len__(self):
        return len(self._d)

    def __iter__(self):
        return iter(self._d)

    def __eq__(self, other):
        return isinstance(other, Counter) and self._d == other._d

    def keys(self):
        return self._d.keys()

    def values(self):
        return self._d.values()

    def items(self):
        return self._d.items()

    def get(self, k, default=None):
        return self._d.get(k, default)

    def total(self):
        return sum(self._d.values())

    def most_common(self, n=None):
        items = sorted(self._d.items(), key=lambda kv: kv[1], reverse=True)
        return items if n is None else items[:n]

    def elements(self):
        out = []
        for k, v in self._d.items():
            out.extend([k] * v)
        return iter(out)

    def __add__(self, other):
        c = Counter()
        for k, v in self._d.items():
            c._d[k] = v + other[k]
        for k, v in other.items():
            if k not in self._d:
                c._d[k] = v
        c._d = {k: v for k, v in c._d.items() if v > 0}
        return c

    def __repr__(self):
        if not self._d:
            return 'Counter()'
        return 'Counter({%s})' % ', '.join('%r: %r' % kv for kv in self.most_common())


class deque(object):
    def __init__(self, iterable=(), maxlen=None):
        self.maxlen = maxlen
        self._items = []
        for x in iterable:
            self.append(x)

    def append(self, x):
        self._items.append(x)
        if self.maxlen is not None and len(self._items) > self.maxlen:
            self._items.pop(0)

    def appendleft(self, x):
        self._items.insert(0, x)
        if self.maxlen is not None and len(self._items) > self.maxlen:
            self._items.pop()

    def extend(self, iterable):
        for x in iterable:
            self.append(x)

    def extendleft(self, iterable):
        for x in iterable:
            self.appendleft(x)

    def pop(self):
        if not self._items:
            raise IndexError('pop from an empty deque')
        return self._items.pop()

    def popleft(self):
        if not self._items:
            raise IndexError('pop from an empty deque')
        return self._items.pop(0)

    def clear(self):
        self._items = []

    def rotate(self, n=1):
        if self._items:
            n = n % len(self._items)
            self._items = self._items[-n:] + self._items[:-n]

    def __len__(self):
        return len(self._items)

    def __iter__(self):
        return iter(list(self._items))

    def __getitem__(self, i):
        return self._items[i]

    def __setitem__(self, i, v):
        self._items[i] = v

    def __contains__(self, x):
        return x in self._items

    def __eq__(self, other):
        return isinstance(other, deque) and self._items == other._items

    def __repr__(self):
        if self.maxlen is None:
            return 'deque(%r)' % (self._items,)
        return 'deque(%r, maxlen=%d)' % (self._items, self.maxlen)
)PY";

const char* kFunctools = R"PY(
def reduce(function, iterable, *initial):
    it = iter(iterable)
    if initial:
        value = initial[0]
    else:
        try:
            value = next(it)
        except StopIteration:
            raise TypeError('reduce() of empty iterable with no initial value')
    for x in it:
        value = function(value, x)
    return value


class partial(object):
    def __init__(self, func, *args, **keywords):
        self.func = func
        self.args = args
        self.keywords = keywords

    def __call__(self, *args, **kw):
        k = dict(self.keywords)
        k.update(kw)
        return self.func(*self.args, *args, **k)

    def __repr__(self):
        parts = [repr(self.func)] + [repr(a) for a in self.args] + ['%s=%r' % (k, v) for k, v in self.keywords.items()]
        return 'functools.partial(%s)' % ', '.join(parts)


WRAPPER_ASSIGNMENTS = ('__module__', '__name__', '__qualname__', '__doc__')


def update_wrapper(wrapper, wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=()):
    for attr in assigned:
        try:
            setattr(wrapper, attr, getattr(wrapped, attr))
        except AttributeError:
            pass
    try:
        wrapper.__wrapped__ = wrapped
    except AttributeError:
        pass
    return wrapper


def wraps(wrapped, assigned=WRAPPER_ASSIGNMENTS, updated=()):
    def decorator(wrapper):
        return update_wrapper(wrapper, wrapped, assigned, updated)
    return decorator


def lru_cache(maxsize=128, typed=False):
    if callable(maxsize) and not isinstance(maxsize, int):
        return maxsize
    def decorator(f):
        return f
    return decorator


def cache(f):
    return f


def total_ordering(cls):
    return cls


def cmp_to_key(mycmp):
    class K(object):
        def __init__(self, obj):
            self.obj = obj

        def __lt__(self, other):
            return mycmp(self.obj, other.obj) < 0

        def __gt__(self, other):
            return mycmp(self.obj, other.obj) > 0

        def __eq__(self, other):
            return mycmp(self.obj, other.obj) == 0

        def __le__(self, other):
            return mycmp(self.obj, other.obj) <= 0

        def __ge__(self, other):
            return mycmp(self.obj, other.obj) >= 0
    return K
)PY";

const char* kCopy = R"PY(
class Error(Exception):
    pass


def copy(x):
    if isinstance(x, (int, float, str, bool, tuple, frozenset, type(None))):
        return x
    if isinstance(x, list):
        return list(x)
    if isinstance(x, dict):
        return x.copy()
    if isinstance(x, set):
        return set(x)
    if hasattr(x, '__copy__'):
        return x.__copy__()
    if type(x).__module__ == 'builtins':
        return x
    y = object.__new__(type(x))
    for k, v in vars(x).items():
        object.__setattr__(y, k, v)
    return y


def deepcopy(x, memo=None):
    if memo is None:
        memo = {}
    i = id(x)
    if i in memo:
        return memo[i]
    if isinstance(x, list):
        y = []
        memo[i] = y
        for v in x:
            y.append(deepcopy(v, memo))
        return y
    if isinstance(x, tuple):
        return tuple([deepcopy(v, memo) for v in x])
    if isinstance(x, dict):
        y = x.copy()
        y.clear()
        memo[i] = y
        for k, v in x.items():
            y[deepcopy(k, memo)] = deepcopy(v, memo)
        return y
    if isinstance(x, set):
        return set([deepcopy(v, memo) for v in x])
    if hasattr(x, '__deepcopy__'):
        return x.__deepcopy__(memo)
    if type(x).__module__ == 'builtins' or isinstance(x, type):
        return x
    y = object.__new__(type(x))
    memo[i] = y
    for k, v in vars(x).items():
        object.__setattr__(y, k, deepcopy(v, memo))
    return y
)PY";

const char* kAbc = R"PY(
# No metaclasses here: a class declared with metaclass=ABCMeta gets ABCMeta's functions as class
# methods (the interpreter copies them), and isinstance()/issubclass() ask a class that has
# __tlens_subclasscheck__ about the classes its ordinary check refuses.
_abc_registry = []
_abc_invalidation_counter = 0


def get_cache_token():
    return _abc_invalidation_counter


class ABCMeta(type):
    def register(cls, subclass):
        global _abc_invalidation_counter
        if not isinstance(subclass, type):
            raise TypeError('Can only register classes')
        if issubclass(subclass, cls):
            return subclass
        if issubclass(cls, subclass):
            raise RuntimeError('Refusing to create an inheritance cycle')
        _abc_registry.append((cls, subclass))
        _abc_invalidation_counter += 1
        return subclass

    def __subclasshook__(cls, subclass):
        return NotImplemented

    def __tlens_subclasscheck__(cls, subclass):
        if not isinstance(subclass, type):
            raise TypeError('issubclass() arg 1 must be a class')
        hook = getattr(cls, '__subclasshook__', None)
        if hook is not None:
            ok = hook(subclass)
            if ok is not NotImplemented:
                return bool(ok)
        for abc, registered in _abc_registry:
            if cls in abc.__mro__ and issubclass(subclass, registered):
                return True
        return False


class ABC(metaclass=ABCMeta):
    __slots__ = ()


def abstractmethod(f):
    return f


abstractproperty = property
abstractclassmethod = classmethod
abstractstaticmethod = staticmethod
)PY";

const char* kNumbers = R"PY(
# The numeric tower (PEP 3141) as abstract base classes, without the abstract methods' bodies.
# numpy's scalars (0-d arrays here, whose type is numpy.float32, numpy.int64, ...) are virtual
# subclasses as numpy registers them: floating ones Real, integer ones Integral; bool_ no Number.
from abc import ABCMeta, abstractmethod

_NUMPY_KINDS = {'float16': 'f', 'float32': 'f', 'float64': 'f', 'longdouble': 'f', 'float128': 'f',
                'int8': 'i', 'int16': 'i', 'int32': 'i', 'int64': 'i',
                'uint8': 'i', 'uint16': 'i', 'uint32': 'i', 'uint64': 'i',
                'complex64': 'c', 'complex128': 'c', 'clongdouble': 'c', 'complex256': 'c'}


def _numpy_scalar(cls, subclass):
    if getattr(subclass, '__module__', None) != 'numpy':
        return False
    kind = _NUMPY_KINDS.get(subclass.__name__)
    if kind is None:
        return False
    if cls is Number or cls is Complex:
        return True
    if cls is Real:
        return kind != 'c'
    if cls is Rational or cls is Integral:
        return kind == 'i'
    return False


class Number(metaclass=ABCMeta):
    __slots__ = ()
    __hash__ = None

    @classmethod
    def __tlens_subclasscheck__(cls, subclass):
        return ABCMeta.__tlens_subclasscheck__(cls, subclass) or _numpy_scalar(cls, subclass)


class Complex(Number):
    __slots__ = ()


try:
    Complex.register(complex)
except NameError:  # no complex numbers in tensorlens
    pass


class Real(Complex):
    __slots__ = ()


Real.register(float)


class Rational(Real):
    __slots__ = ()


class Integral(Rational):
    __slots__ = ()


Integral.register(int)
)PY";

const char* kWarnings = R"PY(
import sys as _sys


def warn(message, category=None, stacklevel=1, source=None):
    if isinstance(message, Warning):
        category = type(message)
    name = category.__name__ if category is not None else 'UserWarning'
    _sys.stderr.write('%s: %s\n' % (name, message))


def filterwarnings(*args, **kwargs):
    pass


def simplefilter(*args, **kwargs):
    pass


def resetwarnings():
    pass


class catch_warnings(object):
    def __init__(self, *args, **kwargs):
        pass

    def __enter__(self):
        return []

    def __exit__(self, *args):
        return False
)PY";

const char* kLogging = R"PY(
import sys as _sys

CRITICAL = 50
FATAL = 50
ERROR = 40
WARNING = 30
WARN = 30
INFO = 20
DEBUG = 10
NOTSET = 0
_names = {50: 'CRITICAL', 40: 'ERROR', 30: 'WARNING', 20: 'INFO', 10: 'DEBUG', 0: 'NOTSET'}
_root_level = [WARNING]


def getLevelName(level):
    return _names.get(level, 'Level %s' % level)


class Formatter(object):
    def __init__(self, fmt=None, datefmt=None, style='%'):
        self.fmt = fmt


class Handler(object):
    def __init__(self, level=NOTSET):
        self.level = level

    def setLevel(self, level):
        self.level = level

    def setFormatter(self, fmt):
        self.formatter = fmt


class StreamHandler(Handler):
    def __init__(self, stream=None):
        Handler.__init__(self)


class FileHandler(Handler):
    def __init__(self, filename, mode='a', encoding=None, delay=False):
        Handler.__init__(self)


class Logger(object):
    def __init__(self, name, level=NOTSET):
        self.name = name
        self.level = level
        self.handlers = []
        self.propagate = True
        self.disabled = False

    def setLevel(self, level):
        self.level = level

    def getEffectiveLevel(self):
        return self.level or _root_level[0]

    def isEnabledFor(self, level):
        return level >= self.getEffectiveLevel()

    def log(self, level, msg, *args, **kwargs):
        if self.isEnabledFor(level):
            if args:
                msg = msg % args
            _sys.stderr.write('%s:%s:%s\n' % (getLevelName(level), self.name, msg))

    def debug(self, msg, *args, **kwargs):
        self.log(DEBUG, msg, *args)

    def info(self, msg, *args, **kwargs):
        self.log(INFO, msg, *args)

    def warning(self, msg, *args, **kwargs):
        self.log(WARNING, msg, *args)

    warn = warning

    def error(self, msg, *args, **kwargs):
        self.log(ERROR, msg, *args)

    def exception(self, msg, *args, **kwargs):
        self.log(ERROR, msg, *args)

    def critical(self, msg, *args, **kwargs):
        self.log(CRITICAL, msg, *args)

    def addHandler(self, h):
        self.handlers.append(h)

    def removeHandler(self, h):
        if h in self.handlers:
            self.handlers.remove(h)


root = Logger('root')
_loggers = {}


def getLogger(name=None):
    if not name or name == 'root':
        return root
    if name not in _loggers:
        _loggers[name] = Logger(name)
    return _loggers[name]


def basicConfig(**kwargs):
    if 'level' in kwargs:
        _root_level[0] = kwargs['level']
        root.level = kwargs['level']


def debug(msg, *args, **kwargs):
    root.log(DEBUG, msg, *args)


def info(msg, *args, **kwargs):
    root.log(INFO, msg, *args)


def warning(msg, *args, **kwargs):
    root.log(WARNING, msg, *args)


warn = warning


def error(msg, *args, **kwargs):
    root.log(ERROR, msg, *args)


def exception(msg, *args, **kwargs):
    root.log(ERROR, msg, *args)


def critical(msg, *args, **kwargs):
    root.log(CRITICAL, msg, *args)


def log(level, msg, *args, **kwargs):
    root.log(level, msg, *args)
)PY";

const char* kString = R"PY(
ascii_lowercase = 'abcdefghijklmnopqrstuvwxyz'
ascii_uppercase = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
ascii_letters = ascii_lowercase + ascii_uppercase
digits = '0123456789'
hexdigits = '0123456789abcdefABCDEF'
octdigits = '01234567'
punctuation = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'
whitespace = ' \t\n\r\x0b\x0c'
printable = digits + ascii_letters + punctuation + whitespace


def capwords(s, sep=None):
    return (sep or ' ').join(x.capitalize() for x in s.split(sep))
)PY";

}  // namespace

ModuleRegistry ModuleRegistry::standard() {
  ModuleRegistry r;
  r.add("math", makeMathModule);
  r.add("sys", makeSysModule);
  r.add("os", makeOsModule);
  r.add("os.path", [](Interpreter& in) {
    // `import os.path` imports os first, which builds os.path.
    return importsOf(in).importModule("os")->get("path") ? asShared<ModuleObj>(importsOf(in).importModule("os")->get("path"))
                                                       : makeOsPathModule(in);
  });
  r.add("time", makeTimeModule);
  r.add("random", makeRandomModule);
  r.add("itertools", makeItertoolsModule);
  r.add("_collections", makeCollectionsNative);
  r.add("typing", makeTypingModule);
  r.addSource("argparse", kArgparse);
  r.addSource("collections", kCollections);
  r.addSource("functools", kFunctools);
  r.addSource("copy", kCopy);
  r.addSource("abc", kAbc);
  r.addSource("numbers", kNumbers);
  r.addSource("warnings", kWarnings);
  r.addSource("logging", kLogging);
  r.addSource("string", kString);
  registerJsonModule(r);
  registerPickleModule(r);
  registerReModule(r);
  registerDatetimeModule(r);
  registerUtilModules(r);
  registerFileModules(r);
  registerStructModule(r);
  registerArchiveModules(r);
  registerNetworkModules(r);
  registerPathlibModule(r);
  registerHashlibModule(r);
  return r;
}

}  // namespace tlens::interp
