CASES = {}

CASES['InterpStatementsTests.cpp'] = {'title': 'Statements: assignment forms, control flow, del, pass, global/nonlocal, __main__.', 'tests': [
 {'name': 'assignment statements follow Python semantics', 'cases': [
  ('chained assignment shares the object', '''
p = q = [0]
p.append(1)
print(p, q, p is q)
'''),
  ('tuple and list unpacking, nested', '''
a, b = 1, 2
[c, d] = "xy"
(e, f), g = (3, 4), 5
a, b = b, a
print(a, b, c, d, e, f, g)
'''),
  ('starred unpacking in every position', '''
first, *rest = [1, 2, 3, 4]
*init, last = (1, 2, 3)
h, *mid, t = range(5)
x, *empty = [9]
print(first, rest, init, last, h, mid, t, x, empty)
'''),
  ('attribute and subscript targets', '''
class O: pass
o = O()
o.a = {}
o.a["k"] = [0, 0]
o.a["k"][1] = 5
print(o.a)
'''),
  ('augmented assignment on names, attributes and subscripts', '''
class O: pass
o = O(); o.n = 2
d = {"k": 1}
x = 5
x -= 1; x *= 3; x //= 5; x **= 3
o.n += 10
d["k"] <<= 4
print(x, o.n, d)
'''),
  ('augmented += mutates lists in place', '''
a = [1]
b = a
a += [2, 3]
t = (1,)
u = t
t += (2,)
print(a, b, t, u)
'''),
  ('annotated assignment', '''
n: int = 4
m: list
print(n, 'm' in globals())
'''),
  ('del of names, items, slices and attributes', '''
x = 1
del x
l = [0, 1, 2, 3, 4]
del l[0], l[-1]
del l[::2]
d = {"a": 1, "b": 2}
del d["a"]
class O: pass
o = O(); o.v = 1
del o.v
print('x' in globals(), l, d, hasattr(o, 'v'))
'''),
  ('walrus operator binds in the enclosing scope', '''
data = [1, 5, 12, 3]
if (n := len(data)) > 3:
    print("long", n)
print([y for x in data if (y := x * 2) > 5], y)
'''),
 ]},
 {'name': 'control flow statements follow Python semantics', 'cases': [
  ('if / elif / else', '''
for x in (1, 5, 20):
    if x > 10:
        print("big")
    elif x > 3:
        print("mid")
    else:
        print("small")
'''),
  ('for with break, continue and else', '''
for i in range(6):
    if i == 1:
        continue
    if i == 4:
        break
    print(i)
else:
    print("not reached")
for i in []:
    pass
else:
    print("else runs when no break")
'''),
  ('while with else and while True with break', '''
n = 0
while n < 3:
    n += 1
else:
    print("while else", n)
while True:
    n -= 1
    if n == 0:
        break
print(n)
'''),
  ('nested loops with break only leaving the inner one', '''
out = []
for i in range(3):
    for j in range(3):
        if j > i:
            break
        out.append((i, j))
print(out)
'''),
  ('for over dict, string, tuple and enumerate', '''
for k in {"a": 1, "b": 2}:
    print(k, end=" ")
for ch in "hi":
    print(ch, end=" ")
for i, (a, b) in enumerate([(1, 2), (3, 4)]):
    print(i, a + b, end=" ")
print()
'''),
  ('pass and conditional expressions', '''
def nothing():
    pass
print(nothing(), "yes" if 1 else "no", "yes" if [] else "no")
'''),
  ('the main file runs as __main__', '''
if __name__ == "__main__":
    print("main", __name__)
'''),
  ('global and nonlocal rebinding', '''
g = 10
def setg():
    global g
    g = 20
def outer():
    c = 0
    def inc():
        nonlocal c
        c += 1
        return c
    inc(); inc()
    return c
setg()
print(g, outer())
'''),
 ]},
]}

CASES['InterpExpressionsTests.cpp'] = {'title': 'Expressions: arithmetic, comparisons, boolean logic, literals, comprehensions.', 'tests': [
 {'name': 'arithmetic follows Python semantics', 'cases': [
  ('floor division and modulo round toward negative infinity', '''
print(7 // 2, -7 // 2, 7 % -3, -7 % 3, 7.5 // 2, -7.5 % 2, 3 // 1.5)
'''),
  ('true division, powers and mixed int/float', '''
print(7 / 2, 10 / 5, 2 ** 10, 2 ** -1, 9 ** 0.5, 1 + 2.0, 2 * 3.5)
'''),
  ('integer literal forms', '''
print(0x1F, 0o17, 0b101, 1_000_000, 1.5e3, .5, 5., 0xff_ff)
'''),
  ('bitwise and unary operators', '''
print(5 & 3, 5 | 3, 5 ^ 3, ~5, 1 << 10, 1024 >> 3, -(-3), +4, True + True, True & False)
'''),
  ('float repr uses the shortest round-trip form', '''
print(0.1 + 0.2, 1e16, 1e15, 1e-5, 0.0001, -0.0, 1/3, 2.5e-10, 100.0, float("inf"), -float("inf"))
'''),
  ('big results stay exact in 64 bits', '''
print(2 ** 62, 2 ** 62 - 1 + 2 ** 62, -(2 ** 62) * 2, 10 ** 18 * 9)
'''),
  ('abs, round (to even), divmod, pow', '''
print(abs(-3), abs(-2.5), round(2.5), round(3.5), round(-0.5), round(2.675, 2), round(1250, -2), round(3.14159, 3))
print(divmod(7, 2), divmod(-7, 2), divmod(7.5, 2), pow(2, 10), pow(2, 10, 1000), pow(3, -1, 7) if False else 0)
'''),
 ]},
 {'name': 'comparisons and boolean logic follow Python semantics', 'cases': [
  ('chained comparisons', '''
x = 5
print(1 < x < 10, 1 < x > 10, 1 == 1.0 < 2, 3 > 2 > 1 > 0)
'''),
  ('identity and membership', '''
a = [1]
print(a is a, a is [1], a == [1], None is None, a is not None, 2 in a, 1 in a, "b" in "abc", "k" not in {"k": 1}, 3 in range(5))
'''),
  ('and/or return operands and short-circuit', '''
def boom():
    raise RuntimeError("evaluated")
print(3 and 4, 0 and boom(), 0 or "x", [] or None, "a" or boom(), not 0, not "s")
'''),
  ('sequence and string ordering', '''
print((1, 2) < (1, 3), [1, 2] < [1, 2, 0], "abc" < "abd", "Z" < "a", [3] > [2, 9], (1, "a") == (1, "a"))
'''),
  ('truthiness of built-in values', '''
print([bool(v) for v in (0, 0.0, "", [], (), {}, set(), None, 1, "0", [0], range(0), range(1))])
'''),
 ]},
 {'name': 'displays and comprehensions follow Python semantics', 'cases': [
  ('list, tuple, set and dict displays with unpacking', '''
a = [1, 2]
d = {"x": 1}
print([*a, 3], (*a,), {*a, 2}, {**d, "y": 2}, {"x": 0, **d}, [], (), {})
'''),
  ('list comprehensions with nested for and if', '''
print([x * y for x in range(3) for y in range(3) if x != y])
print([[0] * 2 for _ in range(2)], [v for row in [[1, 2], [3]] for v in row])
'''),
  ('set, dict and generator comprehensions', '''
print(sorted({x % 3 for x in range(10)}), {k: v * 2 for k, v in {"a": 1}.items()}, sum(x * x for x in range(4)), list(c for c in "ab"))
'''),
  ('comprehension variables do not leak', '''
x = "outer"
squares = [x * x for x in range(3)]
print(x, squares)
'''),
  ('lambdas in a comprehension bind late', '''
fs = [lambda: i for i in range(3)]
gs = [lambda i=i: i for i in range(3)]
print([f() for f in fs], [g() for g in gs])
'''),
  ('slicing lists, tuples, strings and ranges', '''
l = list(range(10))
print(l[2:5], l[:3], l[7:], l[::3], l[::-2], l[-3:], l[5:2], l[-100:2], "abcdef"[1:-1:2], (1, 2, 3)[::-1], range(10)[2:8:2])
'''),
  ('slice assignment and deletion', '''
l = [0, 1, 2, 3, 4]
l[1:3] = ["a", "b", "c"]
l[::2] = [9, 9, 9]
print(l)
'''),
 ]},
]}

CASES['InterpFunctionsTests.cpp'] = {'title': 'Functions: parameters, closures, decorators, recursion, generators.', 'tests': [
 {'name': 'function calls bind arguments like Python', 'cases': [
  ('defaults, *args and **kwargs', '''
def f(a, b=2, *args, **kw):
    return a, b, args, kw
print(f(1), f(1, 3, 4, 5, x=6), f(b=0, a=1))
'''),
  ('keyword-only and positional-only parameters', '''
def kw(a, *, b, c=3):
    return (a, b, c)
def pos(a, b, /, c):
    return a + b + c
print(kw(1, b=2), kw(1, c=0, b=5), pos(1, 2, c=3), pos(1, 2, 3))
'''),
  ('unpacking arguments with * and **', '''
def f(*args, **kwargs):
    return args, kwargs
args = [1, 2]
opts = {"y": 4}
print(f(*args, 3, *args, **opts, z=5))
'''),
  ('defaults are evaluated once', '''
def append(x, acc=[]):
    acc.append(x)
    return acc
append(1)
print(append(2))
'''),
  ('argument errors raise TypeError with CPython messages', '''
def f(a, b): pass
def g(a, *, k): pass
for call in (lambda: f(1), lambda: f(1, 2, 3), lambda: f(1, 2, c=3), lambda: f(1, a=2), lambda: g(1)):
    try:
        call()
    except TypeError as e:
        print(e)
'''),
  ('lambdas with defaults', '''
print((lambda x, y=2: x * y)(4), (lambda *a: len(a))(1, 2, 3), sorted([3, 1, 2], key=lambda v: -v))
'''),
  ('recursion', '''
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)
def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)
print(fact(20), depth(400))
'''),
 ]},
 {'name': 'closures and decorators work like Python', 'cases': [
  ('closures capture variables, not values', '''
def make():
    x = 1
    def get():
        return x
    x = 2
    return get
print(make()())
'''),
  ('counters with nonlocal', '''
def counter():
    n = 0
    def inc(step=1):
        nonlocal n
        n += step
        return n
    return inc
c = counter()
c(); c(5)
print(c())
'''),
  ('a name is local, global, free or nonlocal by its function, on every call', '''
g = 0
def scopes(flag):
    global g
    total = 0
    for i in range(3):
        g += i
        total += i
    if flag:
        late = total
    def inner():
        nonlocal total
        total += g
        return [total + k for k in range(2)]
    out = inner()
    exec("print('exec sees', total)")
    return late, out, total
print(scopes(True), g)
try:
    scopes(False)
except UnboundLocalError as e:
    print(type(e).__name__, e)
print(scopes(True), g)
'''),
  ('decorators with and without arguments', '''
def trace(fn):
    def wrapper(*a, **k):
        return "<" + str(fn(*a, **k)) + ">"
    return wrapper
def repeat(n):
    def deco(fn):
        def wrapper(x):
            return [fn(x)] * n
        return wrapper
    return deco
@trace
@repeat(2)
def double(x):
    return x * 2
print(double(3))
'''),
  ('functools.wraps keeps the name', '''
import functools
def deco(fn):
    @functools.wraps(fn)
    def wrapper(*a):
        return fn(*a)
    return wrapper
@deco
def original(): return 1
print(original.__name__, original())
'''),
  ('function attributes and names', '''
def f(): pass
f.tag = "t"
print(f.__name__, f.tag, (lambda: 0).__name__)
'''),
 ]},
 {'name': 'generators produce their values', 'cases': [
  ('yield and yield from', '''
def gen(n):
    for i in range(n):
        yield i * i
def chain():
    yield 0
    yield from gen(3)
print(list(gen(4)), sum(gen(3)), list(chain()))
'''),
  ('next with a default and StopIteration', '''
def two():
    yield 1
    yield 2
g = two()
print(next(g), next(g), next(g, "done"))
try:
    next(g)
except StopIteration:
    print("stopped")
'''),
  ('generators are lazy: infinite ones work with next and islice', '''
import itertools
def batches():
    i = 0
    while True:
        print("produce", i)
        yield i
        i += 1
g = batches()
for step in range(2):
    print("got", next(g))
print(list(itertools.islice(batches(), 2)), list(zip(batches(), "ab")))
'''),
  ('send, close and finally inside generators', '''
def echo():
    total = 0
    while True:
        x = yield total
        if x is None:
            break
        total += x
e = echo()
print(next(e), e.send(5), e.send(10))
def fin():
    try:
        yield 1
        yield 2
    finally:
        print("cleanup")
f = fin()
print(next(f))
f.close()
print(list(f))
'''),
  ('exceptions raised inside a generator reach the consumer', '''
def err():
    yield 1
    raise ValueError("in gen")
try:
    for v in err():
        print("v", v)
except ValueError as ex:
    print("caught", ex)
def deep(n):
    if n > 0:
        yield from deep(n - 1)
    yield n
print(sum(deep(50)), sum(next(g) for g in [deep(3) for _ in range(500)]))
'''),
  ('generator expressions feed builtins', '''
print(max(len(w) for w in ["a", "abc", "ab"]), any(x > 2 for x in [1, 3]), all(x for x in []), dict((k, len(k)) for k in ["aa", "b"]))
'''),
 ]},
]}

CASES['InterpClassesTests.cpp'] = {'title': 'Classes: inheritance, MRO, super, descriptors and dunder methods.', 'tests': [
 {'name': 'an object\'s __dict__ is live: writing it sets attributes', 'cases': [
  ('update, setitem, del, setdefault, clear, vars, functions', '''
class Config:
    def __init__(self, **kw):
        self.__dict__.update(kw)
c = Config(lr=0.1, epochs=3)
print(c.lr, c.epochs)
c.__dict__["batch"] = 32
print(c.batch, sorted(vars(c)))
d = c.__dict__
del d["lr"]
print(hasattr(c, "lr"), c.__dict__.setdefault("z", 9), c.z)
vars(c).clear()
print(vars(c))
import json
print(json.dumps(Config(a=1).__dict__))
def f(): pass
f.__dict__["tag"] = "x"
print(f.tag)
'''),
 ]},
 {'name': 'classes, inheritance and super work like Python', 'cases': [
  ('attributes, methods and class attributes', '''
class Counter:
    total = 0
    def __init__(self, start):
        self.value = start
        Counter.total += 1
    def bump(self, by=1):
        self.value += by
        return self
c = Counter(3).bump().bump(2)
Counter(0)
print(c.value, Counter.total, c.total)
'''),
  ('single inheritance with super().__init__', '''
class Base:
    kind = "base"
    def __init__(self, x):
        self.x = x
    def describe(self):
        return f"{self.kind}:{self.x}"
class Child(Base):
    kind = "child"
    def __init__(self, x, y):
        super().__init__(x)
        self.y = y
    def describe(self):
        return super().describe() + f"/{self.y}"
c = Child(1, 2)
print(c.describe(), isinstance(c, Base), issubclass(Child, Base), type(c).__name__)
'''),
  ('multiple inheritance follows the C3 MRO', '''
class A:
    def who(self): return "A"
class B(A):
    def who(self): return "B" + super().who()
class C(A):
    def who(self): return "C" + super().who()
class D(B, C):
    def who(self): return "D" + super().who()
print(D().who(), [k.__name__ for k in D.__mro__])
'''),
  ('explicit two-argument super', '''
class A:
    def __init__(self):
        self.tag = "A"
class B(A):
    def __init__(self):
        super(B, self).__init__()
        self.tag += "B"
print(B().tag)
'''),
  ('many attributes set, deleted and set again keep their order', '''
class O:
    pass
o = O()
for i in range(40):
    setattr(o, "attribute_" + str(i), i)
for i in range(0, 40, 3):
    delattr(o, "attribute_" + str(i))
setattr(o, "attribute_0", "again")
print(len(vars(o)), list(vars(o))[:3], list(vars(o))[-2:], o.attribute_1, hasattr(o, "attribute_3"), o.attribute_0)
for i in range(40):
    if hasattr(o, "attribute_" + str(i)):
        delattr(o, "attribute_" + str(i))
names = ["a", "ab", "abc", "abcdefg", "abcdefgh", "abcdefgi", "abcdefg_long_1", "abcdefg_long_2"]
for n in names:
    setattr(o, n, n.upper())
print([getattr(o, n) for n in names], hasattr(o, "abcdef"), hasattr(o, "abcdefg_long_3"), len(vars(o)))
'''),
  ('staticmethod, classmethod and property', '''
class T:
    def __init__(self, c):
        self._c = c
    @staticmethod
    def twice(v): return v * 2
    @classmethod
    def make(cls, v): return cls(v)
    @property
    def f(self): return self._c * 9 / 5 + 32
    @f.setter
    def f(self, v): self._c = (v - 32) * 5 / 9
t = T.make(100)
print(T.twice(3), t.twice(4), t.f)
t.f = 32
print(t._c)
'''),
  ('class-level state and instances sharing it', '''
class Registry:
    items = []
    def add(self, x):
        self.items.append(x)
a, b = Registry(), Registry()
a.add(1); b.add(2)
print(Registry.items, a.items is b.items)
'''),
  ('user exceptions and isinstance with tuples', '''
class Shape:
    def area(self): raise NotImplementedError
class Sq(Shape):
    def __init__(self, s): self.s = s
    def area(self): return self.s ** 2
print(sum(s.area() for s in [Sq(2), Sq(3)]), isinstance(Sq(1), (int, Shape)))
try:
    Shape().area()
except NotImplementedError:
    print("abstract")
'''),
  ('__getattr__ fallback and __setattr__', '''
class Proxy:
    def __init__(self):
        object.__setattr__(self, "log", [])
    def __getattr__(self, name):
        return name.upper()
    def __setattr__(self, name, value):
        self.log.append(name)
        object.__setattr__(self, name, value)
p = Proxy()
p.x = 1
print(p.x, p.missing, p.log)
'''),
 ]},
 {'name': 'dunder methods drive operators and protocols', 'cases': [
  ('arithmetic and reflected operators', '''
class V:
    def __init__(self, *v): self.v = list(v)
    def __add__(self, o): return V(*[a + b for a, b in zip(self.v, o.v)])
    def __mul__(self, k): return V(*[a * k for a in self.v])
    def __rmul__(self, k): return self * k
    def __neg__(self): return V(*[-a for a in self.v])
    def __matmul__(self, o): return sum(a * b for a, b in zip(self.v, o.v))
    def __repr__(self): return "V(%s)" % ", ".join(map(str, self.v))
a, b = V(1, 2), V(3, 4)
print(a + b, a * 2, 3 * a, -a, a @ b)
'''),
  ('comparisons, equality and hashing', '''
class P:
    def __init__(self, x): self.x = x
    def __eq__(self, o): return isinstance(o, P) and self.x == o.x
    def __hash__(self): return hash(self.x)
    def __lt__(self, o): return self.x < o.x
    def __repr__(self): return f"P({self.x})"
print(P(1) == P(1), P(1) != P(2), sorted([P(3), P(1)]), len({P(1), P(1)}), max(P(1), P(5)), P(2) > P(1))
'''),
  ('container protocol: len, getitem, setitem, contains, iter', '''
class Bag:
    def __init__(self): self.d = {}
    def __len__(self): return len(self.d)
    def __getitem__(self, k): return self.d[k]
    def __setitem__(self, k, v): self.d[k] = v
    def __delitem__(self, k): del self.d[k]
    def __contains__(self, k): return k in self.d
    def __iter__(self): return iter(sorted(self.d))
b = Bag()
b["x"] = 1; b["a"] = 2; b["z"] = 3
del b["z"]
print(len(b), b["a"], "x" in b, list(b), bool(b))
'''),
  ('iterator protocol with __next__ and StopIteration', '''
class Count:
    def __init__(self, n): self.i, self.n = 0, n
    def __iter__(self): return self
    def __next__(self):
        if self.i >= self.n:
            raise StopIteration
        self.i += 1
        return self.i
print(list(Count(3)), [x * 2 for x in Count(2)])
'''),
  ('old-style sequence iteration through __getitem__', '''
class Seq:
    def __getitem__(self, i):
        if i >= 3:
            raise IndexError
        return i * 10
print(list(Seq()), 20 in Seq())
'''),
  ('__call__, __bool__, __str__ and __repr__', '''
class F:
    def __call__(self, x): return x + 1
    def __bool__(self): return False
    def __str__(self): return "str!"
    def __repr__(self): return "repr!"
f = F()
print(f(1), bool(f), f, [f], str(f), repr(f), f"{f} {f!r}")
'''),
  ('context managers with __enter__ and __exit__', '''
class Ctx:
    def __init__(self, name): self.name = name
    def __enter__(self):
        print("enter", self.name)
        return self.name
    def __exit__(self, t, v, tb):
        print("exit", self.name, t.__name__ if t else None)
        return t is ValueError
with Ctx("a") as x, Ctx("b") as y:
    print("body", x, y)
with Ctx("c"):
    raise ValueError("suppressed")
print("after")
'''),
 ]},
]}

CASES['InterpExceptionsTests.cpp'] = {'title': 'Exceptions: try/except/else/finally, raise forms, built-in error messages.', 'tests': [
 {'name': 'exceptions are raised and handled like Python', 'cases': [
  ('typed handlers, tuples and as', '''
for exc in (KeyError("k"), ValueError("v"), ZeroDivisionError()):
    try:
        raise exc
    except (ValueError, KeyError) as e:
        print("lookup/value", repr(e), str(e))
    except ArithmeticError as e:
        print("arith", type(e).__name__)
'''),
  ('finally runs on return, break and continue', '''
def f():
    try:
        return "ret"
    finally:
        print("finally")
print(f())
for i in range(3):
    try:
        if i == 1:
            continue
        if i == 2:
            break
        print("body", i)
    finally:
        print("fin", i)
'''),
  ('else runs only without an exception', '''
for v in ("1", "x"):
    try:
        n = int(v)
    except ValueError:
        print("bad", v)
    else:
        print("good", n)
'''),
  ('raise from sets __cause__, raising in a handler sets __context__', '''
try:
    try:
        [][1]
    except IndexError as e:
        raise RuntimeError("wrapped") from e
except RuntimeError as e:
    print(e, type(e.__cause__).__name__)
try:
    try:
        raise KeyError(1)
    except KeyError:
        raise TypeError("during")
except TypeError as e:
    print(type(e.__context__).__name__, e.__cause__)
'''),
  ('bare raise re-raises the handled exception', '''
def f():
    try:
        raise ValueError("again")
    except ValueError:
        raise
try:
    f()
except ValueError as e:
    print("re-raised", e)
try:
    raise
except RuntimeError as e:
    print(e)
'''),
  ('user exception classes keep their args', '''
class AppError(Exception):
    pass
class CodeError(AppError):
    def __init__(self, code):
        super().__init__(f"code {code}")
        self.code = code
class Quiet(Exception):
    def __init__(self, a, b):
        self.a = a
try:
    raise CodeError(7)
except AppError as e:
    print(e, e.code, e.args, isinstance(e, Exception))
print(Quiet(1, 2).args, str(Quiet(1, 2)), repr(ValueError("x", 2)))
'''),
  ('assert with and without a message', '''
for cond in (True, False):
    try:
        assert cond, "nope"
        print("passed")
    except AssertionError as e:
        print("assert", e)
try:
    assert 0
except AssertionError as e:
    print(repr(e))
'''),
  ('raising a class instantiates it', '''
try:
    raise IndexError
except LookupError as e:
    print(type(e).__name__, e.args)
'''),
  ('exceptions propagate through calls and finally blocks', '''
def inner():
    raise KeyError("deep")
def middle():
    try:
        inner()
    finally:
        print("middle cleanup")
try:
    middle()
except KeyError as e:
    print("caught", e)
'''),
 ]},
 {'name': 'built-in errors carry CPython messages', 'cases': [
  ('name, attribute, type and value errors', '''
def show(fn):
    try:
        fn()
    except Exception as e:
        print(type(e).__name__ + ":", e)
show(lambda: undefined_name)
show(lambda: None.foo)
show(lambda: "a" + 1)
show(lambda: 1 + "a")
show(lambda: int("abc"))
show(lambda: [1][5])
show(lambda: {}["missing"])
show(lambda: 1 / 0)
show(lambda: 1 // 0)
show(lambda: 1 % 0)
show(lambda: 1.0 / 0)
show(lambda: len(5))
show(lambda: 5())
show(lambda: 5[0])
show(lambda: [] < 1)
show(lambda: iter(5))
show(lambda: (1, 2)[0:1][5])
show(lambda: "abc".index("z"))
show(lambda: [1].index(2))
show(lambda: float("x"))
show(lambda: max([]))
'''),
  ('unpacking errors', '''
for src in ([1, 2, 3], [1]):
    try:
        a, b = src
    except ValueError as e:
        print(e)
try:
    a, b, *c = [1]
except ValueError as e:
    print(e)
'''),
  ('unbound locals', '''
x = 1
def f():
    print(x)
    x = 2
try:
    f()
except UnboundLocalError as e:
    print(e)
'''),
  ('recursion past the limit raises RecursionError', '''
def down(n):
    return down(n + 1)
try:
    down(0)
except RecursionError as e:
    print("RecursionError")
'''),
  ('sys.exit raises SystemExit', '''
import sys
try:
    sys.exit(3)
except SystemExit as e:
    print("exit code", e.code)
'''),
 ]},
]}

CASES['InterpStringsTests.cpp'] = {'title': 'Strings: methods, f-strings, format specs, % formatting, str.format, repr.', 'tests': [
 {'name': 'string methods follow Python semantics', 'cases': [
  ('split, rsplit, join, strip', '''
print("a,b,,c".split(","), " x  y ".split(), "a b c".split(None, 1), "a-b-c".rsplit("-", 1))
print("-".join(["a", "b"]), "  pad ".strip(), "xxhixx".strip("x"), "..a..".lstrip("."), "..a..".rstrip("."))
'''),
  ('case, search and predicates', '''
print("Hello".upper(), "Hello".lower(), "hello world".title(), "hELLO".capitalize(), "aB".swapcase())
print("abc".startswith("ab"), "abc".endswith(("x", "c")), "abcabc".find("c"), "abcabc".rfind("c"), "abcabc".count("bc"), "abc".find("z"))
print("12".isdigit(), "ab".isalpha(), "a1".isalnum(), "  ".isspace(), "AB".isupper(), "ab".islower(), "x_1".isidentifier())
'''),
  ('replace, partition, padding', '''
print("hello world".replace("o", "0"), "aaa".replace("a", "b", 2), "k=v=w".partition("="), "k=v=w".rpartition("="))
print("x".center(5, "*"), "7".zfill(3), "-7".zfill(4), "ab".ljust(4) + "|", "ab".rjust(4), "pre_x".removeprefix("pre_"))
'''),
  ('indexing, slicing, repetition and code points', '''
s = "héllo"
print("abc"[1], "abc"[-1], "abcdef"[1:4], "abcdef"[::2], "abcdef"[::-1], "ab" * 3, len(s), s[1], s[::-1], ord("é"), chr(955))
'''),
  ('splitlines and iteration', '''
print("l1\\nl2\\r\\nl3".splitlines(), list("abc"), [c for c in "hi"], "a\\tb".expandtabs(4))
'''),
  ('string concatenation of adjacent literals', '''
msg = ("first " "second "
       'third')
print(msg, len(msg))
'''),
 ]},
 {'name': 'string formatting matches Python', 'cases': [
  ('f-strings with conversions and nested specs', '''
x, w, name = 3.14159, 10, "bob"
print(f"{x:.2f}|{name!r}|{name:>{w}}|{x:{w}.{3}}|{{literal}}|{x=}|{name=!s}")
'''),
  ('format spec mini-language', '''
n = 1234567.891
print(f"{n:,.2f} {n:e} {n:.3g} {255:#x} {255:08b} {0.25:%} {42:+d} {7:03d} {-5:05d} {'ab':*^6} {3:<4}| {1e-7:g} {12345:_}")
'''),
  ('str.format with positions, names, attributes and indexes', '''
class P: x = 5
print("{0} {name} {0}".format(1, name="n"), "{} {}".format(1, 2), "{0[1]} {1.x}".format([5, 6], P), "{:>6.2f}|".format(3.14159), "{!r}".format("q"))
'''),
  ('printf-style % formatting', '''
print("%d %s %.3f %5.1f %x %X %o %r %%" % (42, "s", 2.5, 3.14159, 255, 255, 8, "q"))
print("%(a)s-%(b)05d" % {"a": "x", "b": 2}, "%5s|%-5s|" % ("ab", "cd"), "%.2e" % 12345.678, "%g" % 0.0001, "%i" % 3.9, "%c" % 65, "%s" % [1])
'''),
  ('repr of strings chooses quotes and escapes', '''
print(repr("it's"), repr('say "hi"'), repr("both'\\""), repr("tab\\t\\nnl"), repr("\\x01"), "a\\tb\\\\n", 'it\\'s')
'''),
  ('str() and repr() of built-in values', '''
print(str(1.0), repr(2), str([1, "a", None]), str((1,)), str({"k": (1, 2)}), repr({1, 2}), repr(set()), repr(range(0, 5)), repr(range(1, 9, 2)), str(True), repr(Ellipsis), repr(slice(1, 2)))
'''),
 ]},
]}

CASES['InterpBuiltinsTests.cpp'] = {'title': 'Built-in functions, containers and standard modules.', 'tests': [
 {'name': 'built-in functions behave like Python', 'cases': [
  ('len, min, max, sum, sorted, reversed', '''
print(len([1, 2]), len("abc"), len({"a": 1}), min(3, 1, 2), max([1, 5, 3]), min("bca"), max([1, 2], key=lambda v: -v), max([], default=0))
print(sum([1, 2, 3], 10), sum([0.5, 0.25]), sorted([3, 1, 2], reverse=True), sorted(["b", "A", "c"], key=str.lower), list(reversed([1, 2, 3])), list(reversed("ab")))
'''),
  ('enumerate, zip, map, filter, any, all', '''
print(list(enumerate("ab", 1)), list(zip([1, 2, 3], "ab")), list(map(lambda v: v * 2, [1, 2])), list(map(pow, [2, 3], [2, 2])))
print(list(filter(None, [0, 1, 2])), list(filter(lambda v: v % 2, range(6))), any([0, 1]), all([1, 0]), any([]), all([]))
'''),
  ('type conversions', '''
print(int(3.9), int(-3.9), int("-12"), int("ff", 16), int("0x1f", 0), int(" 7 "), float("1.5"), float(" 2 "), float("-inf"), int(True))
print(str(12), bool(0), bool("x"), list("ab"), tuple([1]), set([1, 1]), dict([("a", 1)]), dict(a=1, b=2), list(range(3)))
'''),
  ('isinstance, issubclass, type, callable, hasattr, getattr, setattr', '''
class A: pass
a = A()
setattr(a, "v", 3)
print(isinstance(1, int), isinstance(True, int), isinstance(1.0, (int, float)), isinstance("s", list), issubclass(bool, int))
print(type(1) is int, type([]) == list, type(a).__name__, callable(len), callable(1), hasattr(a, "v"), getattr(a, "v"), getattr(a, "zz", "dflt"))
'''),
  ('chr, ord, hex, oct, bin, hash, id, format', '''
print(ord("A"), chr(66), hex(255), oct(8), bin(5), hex(-1), hash(1) == hash(1.0), id(print) == id(print), format(3.14159, ".2f"), format(5, "03d"))
'''),
  ('iter and next', '''
it = iter([1, 2])
print(next(it), next(it), next(it, "end"), list(iter([])))
'''),
  ('print with sep, end and file', '''
import sys
print(1, 2, 3, sep="-", end="!\\n")
print("no newline", end="")
print()
print("to stderr", file=sys.stderr)
sys.stdout.write("written\\n")
'''),
 ]},
 {'name': 'list, dict and set methods behave like Python', 'cases': [
  ('list methods', '''
l = [3, 1, 2]
l.append(4); l.extend([5]); l.insert(0, 0)
print(l, l.pop(), l.pop(0), l.index(2), l.count(1))
l.sort(); print(l)
l.reverse(); print(l)
l.remove(2); print(l)
c = l.copy(); c.clear()
print(l, c, [1, 2] * 2, [1] + [2])
'''),
  ('list.sort is stable and supports key and reverse', '''
pairs = [("b", 2), ("a", 2), ("c", 1)]
print(sorted(pairs, key=lambda p: p[1]), sorted(pairs, key=lambda p: p[1], reverse=True))
'''),
  ('dict methods', '''
d = {"a": 1, "b": 2}
d.update(c=3)
d.update({"d": 4})
print(d.setdefault("e", 5), d.setdefault("a", 100), d.get("z"), d.get("z", 0), d.pop("a"), d.pop("zz", "none"))
print(d, list(d.keys()), list(d.values()), list(d.items()), len(d), "b" in d, d.popitem(), dict.fromkeys("xy", 0))
print(d.keys(), d.items())
'''),
  ('dicts keep insertion order and accept hashable keys', '''
d = {}
d[(1, 2)] = "tuple"
d[None] = "none"
d[True] = "bool"
d[1] = "one"
d["z"] = "str"
d[2.0] = "float"
d[2] = "two"
print(d)
'''),
  ('set methods and operators', '''
s = {3, 1, 2}
s.add(4); s.discard(10); s.remove(3)
print(sorted(s), sorted({1, 2} | {3}), {1, 2} & {2, 3}, {1, 2} - {2}, sorted({1, 2} ^ {2, 3}), {1} <= {1, 2}, {1, 2}.issubset([1, 2, 3]), len(s))
print(sorted({1, 2}.union([5])), {1, 2}.intersection({2}), frozenset([1]) | {2}, set())
'''),
  ('tuples and ranges', '''
t = (1, 2, 3)
print(t[1], t[-1], t[:2], t + (4,), t * 2, t.index(2), t.count(1), list(range(2, 10, 3)), list(range(5, 0, -2)), range(10)[-1], len(range(0, 10, 3)), 4 in range(0, 10, 2))
'''),
 ]},
 {'name': 'standard modules work', 'cases': [
  ('math', '''
import math
print(math.sqrt(16), math.floor(-2.5), math.ceil(2.1), math.pi, math.e, math.log(math.e), math.log(8, 2), math.exp(0), math.log10(1000))
print(math.isnan(float("nan")), math.isinf(math.inf), math.isclose(0.1 + 0.2, 0.3), math.gcd(12, 18), math.factorial(5), math.fabs(-2), math.hypot(3, 4))
try:
    math.sqrt(-1)
except ValueError as e:
    print(e)
'''),
  ('collections', '''
from collections import OrderedDict, defaultdict, namedtuple, Counter, deque
dd = defaultdict(list)
dd["a"].append(1)
od = OrderedDict()
od["z"] = 1; od["a"] = 2
P = namedtuple("P", "x y")
p = P(1, y=2)
x, y = p
print(dict(dd), od, list(od), p, p.x, p[1], x + y, p._asdict(), p._replace(x=5))
c = Counter("abracadabra")
print(c.most_common(2), c["a"], c["z"])
q = deque([1, 2, 3], maxlen=3)
q.append(4)
print(q, q.popleft(), len(q))
'''),
  ('functools and itertools', '''
import functools, itertools
print(functools.reduce(lambda a, b: a * b, [1, 2, 3, 4]), functools.partial(lambda a, b, c: a + b + c, 1, 2)(3))
print(list(itertools.islice(itertools.count(5), 3)), list(itertools.chain([1], (2, 3))), list(itertools.product("ab", repeat=2)))
print(list(itertools.combinations([1, 2, 3], 2)), list(itertools.permutations("ab")), list(itertools.zip_longest([1, 2], [3], fillvalue=0)))
'''),
  ('copy', '''
import copy
orig = {"a": [1, 2]}
sh = copy.copy(orig)
dc = copy.deepcopy(orig)
dc["a"].append(3)
print(orig, dc, sh["a"] is orig["a"])
'''),
  ('os.path and string', '''
import os, os.path, string
print(os.path.join("a", "b", "c.py"), os.path.join("/abs", "x"), os.path.basename("/x/y.py"), os.path.dirname("/x/y.py"), os.path.splitext("f.tar.gz"), os.sep)
print(string.ascii_lowercase[:5], string.digits)
'''),
  ('argparse returns defaults and parses lists', '''
import argparse
parser = argparse.ArgumentParser(description="demo")
parser.add_argument("--lr", type=float, default=0.01, help="learning rate")
parser.add_argument("--epochs", type=int, default=15)
parser.add_argument("--verbose", action="store_true")
parser.add_argument("--layers", type=int, nargs="+", default=[64])
args = parser.parse_args([])
print(args.lr, args.epochs, args.verbose, args.layers)
args = parser.parse_args(["--lr", "0.5", "--verbose", "--epochs=3", "--layers", "1", "2"])
print(args.lr, args.epochs, args.verbose, args.layers)
'''),
 ]},
]}
