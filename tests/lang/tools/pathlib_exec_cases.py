# pathlib, os.fspath, exec/eval/compile and subclasses of int, float and str, for
# tests/lang/InterpPathExecTests.cpp; expected outputs come from CPython:
#   python3 tests/lang/tools/gen_output_tests.py tests/lang tests/lang/tools/pathlib_exec_cases.py
# Snippets that touch files work in a directory of their own under /tmp and remove it.
CASES = {}

CASES['InterpPathExecTests.cpp'] = {'title': 'pathlib and os.fspath, exec/eval/compile, subclasses of int, float and str.', 'tests': [
 {'name': 'pathlib paths are built, split and compared as in CPython', 'cases': [
  ('the / operator, parts, names and suffixes', r"""
from pathlib import Path, PurePath, PurePosixPath, PosixPath
p = Path('/data') / 'sub' / 'file.tar.gz'
print(p, repr(p), type(p).__name__, p.parts, p.name, p.stem, p.suffix, p.suffixes, p.anchor, p.root)
print(p.parent, p.parent.parent, list(p.parents), p.is_absolute(), Path('a/b').is_absolute())
print(Path('a//b/./c/'), Path(), Path('.'), Path('/'), Path('/').name, Path('/').parent, Path('a').parent, Path('//x'))
print(Path('a', 'b', '/c', 'd'), Path('a').joinpath('b', 'c'), 'x' / Path('y'), PurePath('q/r'), type(PurePath('q')).__name__)
print(p.with_suffix('.zip'), p.with_name('other.txt'), Path('a/b.txt').with_suffix(''), Path('a/b').with_stem('c'), Path('.bashrc').suffix, Path('x.').suffix)
print(Path('/a/b/c').relative_to('/a'), Path('a/b').as_posix(), str(Path('a') / 'b'), Path('a/b.py').match('*.py'), Path('/a/b.py').match('a/*.py'))
"""),
  ('comparisons, hashing, errors', r"""
from pathlib import Path, PurePosixPath
import os
print(Path('a/b') == Path('a/b/'), Path('a') == 'a', Path('a') < Path('b'), sorted([Path('b'), Path('a/c'), Path('a')]))
print(len({Path('x'), Path('x/'), Path('./x')}), os.fspath(Path('a/b')), isinstance(Path('a'), os.PathLike), Path('a/b') == PurePosixPath('a/b'))
for bad in [lambda: Path('a').with_suffix('txt'), lambda: Path('/').with_name('x'), lambda: Path('/a/b').relative_to('/c'), lambda: Path(3), lambda: Path('a') / 3, lambda: os.fspath(3)]:
    try:
        bad()
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
"""),
 ]},
 {'name': 'pathlib reads and writes files and lists directories', 'cases': [
  ('mkdir, write and read, glob, iterdir, unlink', r"""
import os, shutil
from pathlib import Path
d = Path('/tmp/tlens_pathlib_case')
shutil.rmtree(d, ignore_errors=True)
(d / 'x' / 'y').mkdir(parents=True)
(d / 'x').mkdir(exist_ok=True)
try:
    (d / 'x').mkdir()
except FileExistsError as e:
    print('FileExistsError')
try:
    (d / 'no' / 'deeper').mkdir()
except FileNotFoundError:
    print('FileNotFoundError')
print((d / 'a.txt').write_text('hello\nworld'), (d / 'b.bin').write_bytes(b'\x00\x01'), (d / 'x' / 'c.txt').write_text('c'))
print((d / 'a.txt').read_text().splitlines(), (d / 'b.bin').read_bytes(), (d / 'a.txt').exists(), (d / 'a.txt').is_file(), d.is_dir(), (d / 'zz').exists())
print(sorted(p.name for p in d.iterdir()), sorted(str(p.relative_to(d)) for p in d.glob('*.txt')), sorted(str(p.relative_to(d)) for p in d.rglob('*.txt')))
with (d / 'a.txt').open() as f:
    print(f.readline().strip())
with open(d / 'a.txt') as f:
    print(f.read().count('o'))
print(os.path.exists(d / 'a.txt'), os.path.join(d, 'a.txt') == str(d / 'a.txt'), os.path.basename(d / 'a.txt'), sorted(os.listdir(d / 'x')), (d / 'a.txt').stat().st_size)
(d / 'a.txt').unlink()
(d / 'a.txt').unlink(missing_ok=True)
print((d / 'a.txt').exists(), Path('rel').absolute() == Path.cwd() / 'rel', Path.home() == Path(os.path.expanduser('~')))
os.makedirs(d / 'm' / 'n', exist_ok=True)
print(os.path.isdir(d / 'm' / 'n'))
shutil.rmtree(d)
"""),
 ]},
 {'name': 'exec, eval and compile run source strings in the namespaces given', 'cases': [
  ('eval and exec at module level and with dicts', r"""
x = 10
print(eval('x * 2 + 1'), eval('  [i * i for i in range(4)]'), eval('a + b', {'a': 1, 'b': 2}), eval('a', {'a': 1}, {'a': 5}))
exec('y = x + 5\ndef f(n):\n    return n * y')
print(y, f(2))
ns = {'base': 3}
exec('def g(k):\n    return k + base\nz = g(4)', ns)
print(ns['z'], sorted(k for k in ns if k != '__builtins__'), ns['g'](1))
loc = {}
exec('w = 7', {}, loc)
print(loc)
code = compile('q = 6 * 7', '<string>', 'exec')
exec(code)
print(q, eval(compile('q + 1', '<string>', 'eval')), exec('1 + 1'))
"""),
  ('inside functions, and errors', r"""
def h(a):
    b = a + 1
    print(eval('a * b'))
    exec('c = a + b\nprint(c)')
h(3)
for src in ['1 +', 'x = = 2', 'a b']:
    try:
        eval(src)
    except SyntaxError as e:
        print('SyntaxError', e.lineno)
for src in ['return 1', 'x = 1\nyield x', 'def ok():\n    return (yield)']:
    try:
        exec(src)
        print('compiled')
    except SyntaxError as e:
        print('SyntaxError', e.msg, e.lineno)
try:
    exec('def k():\n    return undefined_name\nk()')
except NameError as e:
    print('NameError', e)
try:
    eval(3)
except TypeError as e:
    print('TypeError', e)
try:
    exec('x = 1', [])
except TypeError as e:
    print('TypeError', e)
import timeit
print(timeit.timeit('s.append(1)', setup='s = []', number=5) >= 0, timeit.Timer('sum(v)', globals={'v': [1, 2]}).timeit(3) >= 0)
"""),
 ]},
 {'name': 'user classes subclass int, float and str', 'cases': [
  ('str subclasses and str enums', r"""
from enum import Enum
class Name(str):
    def shout(self):
        return self.upper() + '!'
n = Name('ada')
print(n, repr(n), n.shout(), len(n), n + 'x', type(n + 'x').__name__, isinstance(n, str), type(n).__name__, n == 'ada', {n: 1}['ada'], n.title())
n.tag = 5
print(n.tag, str(n), type(str(n)).__name__, f'<{n}>', '%s' % n, n[1:], ','.join([n, n]))
class Color(str, Enum):
    RED = 'red'
    BLUE = 'blue'
print(Color.RED, repr(Color.RED), Color.RED == 'red', Color.RED.value, Color('blue'), isinstance(Color.RED, str))
print(Color.RED.upper(), Color.RED + '!', len(Color.BLUE), f'{Color.RED}', [c.value for c in Color], {'red': 1}.get(Color.RED), Color.RED is Color('red'))
"""),
  ('int and float subclasses, int enums', r"""
from enum import IntEnum
class Meters(float):
    def __repr__(self):
        return 'Meters(%s)' % float.__repr__(self)
m = Meters(2.5)
print(m, repr(m), m * 2, type(m * 2).__name__, m > 2, isinstance(m, float), round(m))
class Count(int):
    def __new__(cls, v, label='n'):
        obj = int.__new__(cls, v)
        obj.label = label
        return obj
    def twice(self):
        return Count(self * 2, self.label)
c = Count(4, 'k')
print(c, c.label, c.twice(), c.twice().label, c + 1, [0, 1, 2, 3, 4][c], type(c).__name__, hex(c), c == 4)
class Shape(IntEnum):
    CIRCLE = 1
    SQUARE = 2
class Version(str):
    def _key(self):
        return tuple(int(p) for p in self.split('.'))
    def __lt__(self, other):
        return self._key() < Version(other)._key()
    def __add__(self, other):
        return Version(str.__add__(self, '.' + other))
print(sorted([Version('1.10'), Version('1.9'), Version('1.2')]), Version('1.10') > '1.9', Version('1') + '2', type(Version('1') + '2').__name__, Version('2') == '2')
print((5).__add__(2), int.__add__(3, 'x'), (7).__rsub__(10), 2.0.__mul__(3), 'ab'.__mul__(2), 'x'.__rmul__(3), str.__lt__('a', 'b'), (1).__eq__(1), (1).__lt__('a'), hasattr(1, '__add__'))
try:
    int.__add__('a', 1)
except TypeError as e:
    print('TypeError', e)
print(Shape.SQUARE, repr(Shape.SQUARE), Shape.SQUARE + 1, Shape.CIRCLE < Shape.SQUARE, [1, 2, 3][Shape.CIRCLE], int(Shape.SQUARE), Shape(2) is Shape.SQUARE, isinstance(Shape.CIRCLE, int))
"""),
 ]},
]}
