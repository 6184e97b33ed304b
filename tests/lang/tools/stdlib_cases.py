# Standard-library snippets for tests/lang/InterpStdlibTests.cpp; expected outputs come from CPython:
#   python3 tests/lang/tools/gen_output_tests.py tests/lang tests/lang/tools/stdlib_cases.py
# Snippets that touch files work in a directory of their own under /tmp and remove it. The pickle,
# zip and tar.gz bytes below were written by CPython 3.11.
CASES = {}

PROTO2 = r"b'\x80\x02}q\x00(X\x01\x00\x00\x00aq\x01]q\x02(K\x01G@\x04\x00\x00\x00\x00\x00\x00N\x88eX\x01\x00\x00\x00bq\x03c_codecs\nencode\nq\x04X\x01\x00\x00\x00xq\x05X\x06\x00\x00\x00latin1q\x06\x86q\x07Rq\x08X\x01\x00\x00\x00yq\t\x86q\nX\x01\x00\x00\x00cq\x0bc__builtin__\nset\nq\x0c]q\r(K\x03K\x04e\x85q\x0eRq\x0fu.'"
PROTO5 = r"b'\x80\x05\x954\x00\x00\x00\x00\x00\x00\x00}\x94(\x8c\x01a\x94]\x94(K\x01G@\x04\x00\x00\x00\x00\x00\x00N\x88e\x8c\x01b\x94C\x01x\x94\x8c\x01y\x94\x86\x94\x8c\x01c\x94\x8f\x94(K\x03K\x04\x90u.'"
ZIPHEX = "504b0304140000000800521f7b5dbb70d4a10f0000003200000005000000612e747874cb48cdc9c957a8ca2c50c820920500504b0304140000000800521f7b5d46d76c450c0000000a000000090000006469722f622e62696e6360646266616563e7e00400504b0304140000000000521f7b5d0bf94356060000000600000005000000732e74787473746f726564504b01021403140000000800521f7b5dbb70d4a10f00000032000000050000000000000000000000800100000000612e747874504b01021403140000000800521f7b5d46d76c450c0000000a0000000900000000000000000000008001320000006469722f622e62696e504b01021403140000000000521f7b5d0bf943560600000006000000050000000000000000000000800165000000732e747874504b050600000000030003009d0000008e0000000000"
TARHEX = "1f8b0800ecff086b02ffedd3410a83301046e1597b0a4f50a78ddaf3481b412806cc94e6f80637a5ed5aa5f8becd1f6693d54b5518fdc992c97a346beb7ad9ec7b55cfeefd5eeed7c6a9942a1b7846eba6fca51c533f4cd1ca7e78f842703ca9b257d8bbff4bf3d37febe87f0bd1dfc2782f3e872c000000000000000000000000fec60ca18af17300280000"

CASES['InterpStdlibTests.cpp'] = {'title': 'Standard library: bytes, json, pickle, re, datetime, struct, io, csv, glob, shutil, archives, small modules.', 'tests': [
 {'name': 'bytes and bytearray behave as in CPython', 'cases': [
  ('literals, indexing, slicing, operators', r"""
b = b'ab\x00\xff"\''
print(b, len(b), b[1], b[-1], b[1:3], b[::-1], list(b'abc'), b'x' * 3, b'a' + b'b', b'b' in b'abc', 98 in b'abc')
print(b'abc' < b'abd', b'abc' == b'abc', b'abc' != 'abc', hash(b'k') == hash(b'k'), {b'k': 1}[b'k'], bool(b''))
"""),
  ('constructors, methods and codecs', r"""
print(bytes([65, 66]), bytes(3), bytes('hé', 'utf-8'), bytearray(b'xy'), bytes.fromhex('ff 00'), b'abc'.hex())
print(b'a,b,,c'.split(b','), b'  x y '.split(), b' pad '.strip(), b'-'.join([b'a', b'b']), b'aXbX'.replace(b'X', b'-'), b'Ab'.upper(), b'ab'.startswith(b'a'), b'abc'.find(b'c'), b'aaa'.count(b'a'))
print('héllo'.encode(), 'héllo'.encode('latin-1'), b'h\xc3\xa9'.decode(), b'\xff'.decode('latin1'), str(b'abc', 'ascii'), b'\xff'.decode('utf-8', 'replace'), b'a\xffb'.decode('ascii', 'ignore'))
ba = bytearray(b'ab')
ba.append(99)
ba.extend(b'de')
ba[0] = 65
ba += b'!'
print(ba, bytes(ba), len(ba))
print(int.from_bytes(b'\x01\x00', 'little'), int.from_bytes(b'\xff\xfe', 'big', signed=True), (258).to_bytes(2, 'big'), (-2).to_bytes(2, 'little', signed=True))
for bad in [lambda: b'\xff'.decode(), lambda: 'é'.encode('ascii'), lambda: b'a' + 'b', lambda: bytes([300])]:
    try:
        bad()
    except (UnicodeError, TypeError, ValueError) as e:
        print(type(e).__name__, e)
"""),
 ]},
 {'name': 'json encodes and decodes as CPython does', 'cases': [
  ('dumps formatting options', r"""
import json
d = {'a': [1, 2.5, None, True, False], 'b': {'c': 'é\n\t"q"'}, 3: float('inf'), 'e': [], 'f': {}, 'g': (1, 2)}
print(json.dumps(d))
print(json.dumps(d, indent=2))
print(json.dumps(d, ensure_ascii=False, separators=(',', ':')))
print(json.dumps({'z': 1, 'a': [1, {'y': 2, 'b': 3}]}, sort_keys=True, indent='\t'))
print(json.dumps({'k': 1}, indent=0), json.dumps('\u2603 \U0001f600'), json.dumps(1e100), json.dumps(0.1), json.dumps(-0.0))
print(json.dumps({1: 2, True: 3, None: 4, 1.5: 5}), json.dumps([1], default=str), json.dumps({(1, 2): 3}, skipkeys=True))
"""),
  ('dumps errors and custom encoders', r"""
import json
for obj in [{1: object()}, {(1,): 2}, [float('nan')]]:
    try:
        json.dumps(obj, allow_nan=False)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
loop = []
loop.append(loop)
try:
    json.dumps(loop)
except ValueError as e:
    print(e)
class Enc(json.JSONEncoder):
    def default(self, o):
        if isinstance(o, set):
            return sorted(o)
        return json.JSONEncoder.default(self, o)
print(json.dumps({'s': {3, 1, 2}}, cls=Enc), json.dumps(['x'], default=lambda o: 0))
"""),
  ('loads values and hooks', r"""
import json
print(json.loads('{"a": [1, 2.5e3, -0.5, null, true, false, "\\u00e9\\ud83d\\ude00\\n"], "b": {}}'))
print(json.loads('[NaN, Infinity, -Infinity]'), json.loads(' 42 '), json.loads('"x"'), json.loads(b'[1]'), json.loads('{"a": 1, "a": 2}'))
print(json.loads('{"x": 1}', object_hook=lambda d: sorted(d.items())), json.loads('[1.5]', parse_float=str), json.loads('{"a": 1, "b": 2}', object_pairs_hook=list))
"""),
  ('loads errors carry CPython messages and positions', r"""
import json
for bad in ['', '[1,]', '{"a" 1}', '{a: 1}', '[1 2]', '"abc', '1 2', '{"a": 1,}', '"\\x"', 'nul', '[', '{"a":\n  }', '"a\tb"', '-', 'é1']:
    try:
        json.loads(bad)
    except json.JSONDecodeError as e:
        print(repr(bad), '->', e, '|', e.msg, e.pos, e.lineno, e.colno, isinstance(e, ValueError))
"""),
  ('dump and load through files', r"""
import json, os, shutil
d = '/tmp/tlens-stdlib-json-' + str(os.getpid())
os.makedirs(d)
with open(d + '/h.json', 'w') as f:
    json.dump({'loss': [0.5, 0.25], 'epochs': 2}, f, indent=4)
with open(d + '/h.json') as f:
    print(json.load(f))
print(open(d + '/h.json').read())
shutil.rmtree(d)
"""),
 ]},
 {'name': 'pickle reads CPython pickles and round-trips', 'cases': [
  ('pickles made by CPython, protocols 0 to 5', r"""
import pickle
print(pickle.loads(@PROTO2@))
print(pickle.loads(@PROTO5@))
print(pickle.loads(b'(lp0\nI1\naI2\na.'))
"""),
  ('round trips through dumps and files', r"""
import pickle, os, shutil, collections
class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y
shared = [1]
data = {'ints': [0, 255, 65535, -1, 2 ** 31, -2 ** 40], 'f': 1.5, 's': 'héllo', 'b': b'\x00\xff', 'none': None, 'flags': (True, False),
        'set': {1, 2}, 'fs': frozenset([3]), 'sh': [shared, shared], 'nested': {'x': [[], ()]}, 'p': Point(1, [2]),
        'od': collections.OrderedDict(a=1), 'long': 'x' * 300, 'ba': bytearray(b'q')}
for proto in range(2, 6):
    back = pickle.loads(pickle.dumps(data, protocol=proto))
    print(proto, back['ints'], back['f'], back['s'], back['b'], back['flags'], back['set'], back['fs'], back['sh'][0] is back['sh'][1],
          back['nested'], back['p'].x, back['p'].y, back['od'], len(back['long']), back['ba'])
d = '/tmp/tlens-stdlib-pickle-' + str(os.getpid())
os.makedirs(d)
with open(d + '/a.pkl', 'wb') as f:
    pickle.dump([1, 2], f)
    pickle.dump('second', f, protocol=pickle.HIGHEST_PROTOCOL)
with open(d + '/a.pkl', 'rb') as f:
    print(pickle.load(f), pickle.load(f))
shutil.rmtree(d)
"""),
  ('errors', r"""
import pickle
for bad in [b'', b'\x80\x02]q\x00(K\x01', b'zzz', b'\x80\x09.']:
    try:
        pickle.loads(bad)
    except (pickle.UnpicklingError, EOFError, ValueError) as e:
        print(type(e).__name__, e)
try:
    pickle.dumps(lambda x: x)
except (pickle.PicklingError, AttributeError, TypeError) as e:
    print('cannot pickle a lambda')
"""),
 ]},
 {'name': 're follows Python regular expressions', 'cases': [
  ('match, search, groups and named groups', r"""
import re
print(re.match(r'(\d+)-(\d+)', '12-34 x').groups(), re.search(r'b+', 'aabbbc').span(), re.match('x', 'ax'), re.fullmatch(r'\d+', '123'), re.fullmatch(r'\d+', '12a'))
m = re.search(r'(?P<year>\d{4})-(?P<month>\d\d)(-(?P<day>\d\d))?', 'on 2023-07 ok')
print(m.group(), m.group('year'), m.group(1, 2), m['month'], m.groupdict(), m.groupdict('-'), m.groups(), m.start('month'), m.end(), m.span(2), m.lastindex, m.lastgroup)
print(m, m.string, m.re.pattern, m.expand(r'\2/\g<year>'))
print(re.search(r'(a)|b', 'b').groups(), re.search(r'(a)(b)?', 'a').groups('-'), re.match(r'(?P<x>a)(?P=x)', 'aa').group())
"""),
  ('findall, finditer, sub, subn, split', r"""
import re
print(re.findall(r'\w+', 'hello, world! 42'), re.findall(r'(\w)(\d)', 'a1 b2 c'), re.findall(r'x*', 'abxd'), re.findall(r'(a)b', 'ab ab'))
print([m.span() for m in re.finditer(r'\d+', 'a1 b22 c333')], [m.group() for m in re.finditer(r'é.', 'aébéc')])
print(re.sub(r'(\w+)@(\w+)', r'\2 at \1', 'joe@site ann@web'), re.sub(r'x*', '-', 'abxd'), re.sub(r'(?P<n>\d)', r'<\g<n>\g<1>>', 'a1b2'))
print(re.sub(r'\d', lambda m: str(int(m.group()) * 2), 'a1b7'), re.subn(r'a', 'b', 'aaa', count=2), re.sub('a', r'\n', 'xa'), re.sub(r'\s+', ' ', 'a  b \n c'))
print(re.split(r'[,;]\s*', 'a, b;c'), re.split(r'(,)', 'a,b'), re.split(r'\b', 'a b'), re.split(r'\s+', ' lead and trail '), re.split(',', 'a,b,c', maxsplit=1), re.split(r'(x)?,', 'a,bx,c'))
"""),
  ('flags, anchors, escapes and quantifiers', r"""
import re
print(re.match('abc', 'ABC', re.I), re.findall(r'^\w', 'ab\ncd', re.M), re.findall(r'^\w', 'ab\ncd'), re.findall(r'a.b', 'a\nb', re.S), re.findall(r'a.b', 'a\nb'))
print(re.findall(r'''\d +  # digits
   [a-z]  # a letter''', '12a 3b 45', re.X), re.findall(r'(?i)ab', 'AB ab'), re.findall(r'a$', 'a\na\n', re.M))
print(re.search(r'end$', 'the end\n'), re.search(r'end\Z', 'the end\n'), re.search(r'\Athe', 'the'), re.findall(r'\bcat\b', 'cat concat cat.'))
print(re.findall(r'\d{2,}', '1 22 333'), re.findall(r'a{,2}', 'aaa'), re.findall(r'{x}', 'a{x}'), re.findall(r'a+?', 'aaa'), re.findall(r'[^a-c]+', 'abxyzc'), re.findall(r'[]a]', 'a]b'))
print(re.escape('a.b*c (d)'), re.compile('x', re.I | re.M), re.compile(r'(a)(?P<n>b)').groupindex, re.compile(r'(a)(b)').groups)
p = re.compile(r'\d')
print(p.search('ab1', 1), p.match('a1', 1), p.findall('1a2b3', 1, 4), p.sub('#', 'a1b2'), p.split('a1b2c'), bool(p.flags & re.I))
"""),
  ('errors', r"""
import re
for bad in ['(abc', 'a)', '*a', 'a|*', '[abc', '(?P<n>a']:
    try:
        re.compile(bad)
    except re.error as e:
        print(repr(bad), e.msg, e.pos)
try:
    re.sub('a', r'\q', 'a')
except re.error as e:
    print('bad template:', e)
"""),
 ]},
 {'name': 'datetime computes dates and formats them as CPython does', 'cases': [
  ('timedelta', r"""
from datetime import timedelta
print(str(timedelta(seconds=int(round(5.4)))), str(timedelta(days=1, hours=2, seconds=3.5)), repr(timedelta(hours=1)), timedelta(0), repr(timedelta(0)))
print(timedelta(days=-1, seconds=5), timedelta(minutes=90).total_seconds(), timedelta(hours=1) * 2, timedelta(hours=1) / timedelta(minutes=1), timedelta(weeks=1).days)
print(timedelta(seconds=3661).seconds, -timedelta(hours=1), abs(timedelta(hours=-1)), timedelta(hours=1) < timedelta(hours=2), timedelta(milliseconds=1500))
"""),
  ('datetime and date', r"""
from datetime import datetime, timedelta, date
import datetime as dt
d = datetime(2023, 7, 1, 13, 5, 9, 120)
print(d, repr(d), d.strftime('%Y%m%d%H%M%S'), d.strftime('%a %A %b %B %j %p %I %y %f %% %H:%M'), d.isoformat(), d.weekday(), d.year, d.hour)
print(d + timedelta(days=45, hours=12), d - datetime(2023, 1, 1), (d - timedelta(days=400)).date(), d.date() < date(2024, 1, 1), repr(d.date()))
print(datetime.strptime('2021-03-04 05:06:07', '%Y-%m-%d %H:%M:%S'), datetime.strptime('03/Jan/2020', '%d/%b/%Y'), datetime.fromisoformat('2020-02-29T10:11:12.5'))
print(date(2020, 2, 29) + timedelta(days=1), date(2024, 3, 1).toordinal(), date.fromordinal(738000), dt.date(2000, 1, 1).isoweekday(), date(2021, 5, 6).strftime('%d.%m.%Y'))
n = datetime.now()
u = datetime.utcnow()
print(type(n).__name__, len(u.strftime('%Y%m%d%H%M%S')), isinstance(n, date), dt.datetime.now().year >= 2024, date.today().year >= 2024)
for bad in [lambda: date(2023, 2, 29), lambda: datetime(2020, 1, 1, 24)]:
    try:
        bad()
    except ValueError as e:
        print(e)
"""),
 ]},
 {'name': 'struct packs and unpacks binary data', 'cases': [
  ('codes, byte orders, sizes and errors', r"""
import struct
print(struct.pack('<ihd', 1, -2, 0.5), struct.unpack('>I', b'\x00\x00\x01\x00'), struct.calcsize('@bi'), struct.calcsize('<bi'), struct.calcsize('>iHq'), struct.pack('3s?', b'ab', True))
print(struct.unpack('<4f', struct.pack('<4f', 1, 2, 3.5, -1)), struct.unpack_from('<H', b'\x00\x01\x02', 1), struct.pack('>e', 1.5), list(struct.iter_unpack('<h', b'\x01\x00\x02\x00')))
print(struct.pack('!HBx', 513, 7), struct.unpack('<qQ', struct.pack('<qQ', -5, 5)), struct.Struct('<2i').unpack(b'\x01\x00\x00\x00\x02\x00\x00\x00'), struct.Struct('>h').size)
for f, args in [('b', (300,)), ('B', (-1,)), ('i', (1, 2)), ('z', (1,))]:
    try:
        struct.pack(f, *args)
    except struct.error as e:
        print('struct.error', e)
try:
    struct.unpack('<i', b'ab')
except struct.error as e:
    print('struct.error', e)
"""),
 ]},
 {'name': 'io, csv, glob, fnmatch and shutil work on real files', 'cases': [
  ('StringIO and BytesIO', r"""
import io
s = io.StringIO()
s.write('hello\n')
s.write('world\n')
print(repr(s.getvalue()), s.tell())
s.seek(0)
print(repr(s.readline()), repr(s.read()), list(io.StringIO('a\nb\nc')), io.StringIO('abc').read(2))
b = io.BytesIO(b'abc')
b.seek(0, 2)
b.write(b'def')
print(b.getvalue(), b.tell(), io.BytesIO(b'x\ny').readlines())
with io.StringIO('ctx') as f:
    print(f.read())
try:
    io.StringIO().write(b'x')
except TypeError as e:
    print(e)
"""),
  ('csv reads and writes as CPython does', r"""
import csv, io, os, shutil
d = '/tmp/tlens-stdlib-csv-' + str(os.getpid())
os.makedirs(d)
with open(d + '/data.csv', 'w', newline='') as f:
    w = csv.writer(f)
    w.writerow(['name', 'value', 'note'])
    w.writerows([['a', 1, 'plain'], ['b', 2.5, 'has,comma'], ['c', None, 'has "quote"\nand newline']])
    dw = csv.DictWriter(f, fieldnames=['name', 'value', 'note'])
    dw.writerow({'name': 'd', 'value': 4})
print(repr(open(d + '/data.csv', newline='').read()))
print(repr(open(d + '/data.csv').read()))
with open(d + '/data.csv', newline='') as f:
    for row in csv.reader(f):
        print(row)
with open(d + '/data.csv', newline='') as f:
    r = csv.DictReader(f)
    print(r.fieldnames)
    for row in r:
        print(row)
shutil.rmtree(d)
print(list(csv.reader(['x;y', '1; 2'], delimiter=';', skipinitialspace=True)), list(csv.reader(['1,"a",3'], quoting=csv.QUOTE_NONNUMERIC)), list(csv.reader(['a,"b', 'c"'])))
out = io.StringIO()
w = csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator='\n')
w.writerow([1, 'x'])
csv.writer(out, delimiter='\t').writerow(['a b', 'c\td', ''])
csv.writer(out).writerow([''])
print(repr(out.getvalue()))
"""),
  ('glob, fnmatch and shutil', r"""
import glob, fnmatch, os, shutil
base = '/tmp/tlens-stdlib-glob-' + str(os.getpid())
os.makedirs(base + '/sub/deep')
for n in ['a.txt', 'b.txt', 'c.py', 'sub/d.txt', 'sub/deep/e.txt', '.hidden.txt']:
    with open(base + '/' + n, 'w') as f:
        f.write(n)
rel = lambda ps: sorted(p[len(base):] for p in ps)
print(rel(glob.glob(base + '/*.txt')), rel(glob.glob(base + '/**/*.txt', recursive=True)), rel(glob.glob(base + '/*/')), glob.glob(base + '/nothing*'))
print(rel(glob.glob(base + '/[ab].txt')), rel(glob.glob(base + '/?.py')), rel(glob.iglob(base + '/sub/*')), glob.has_magic('a*'))
print(fnmatch.fnmatch('x.py', '*.py'), fnmatch.filter(['a.py', 'b.txt', 'c.py'], '*.py'), fnmatch.fnmatch('a1', 'a[0-9]'), fnmatch.fnmatch('a.b', 'a?b'), fnmatch.fnmatch('ab', '[!a]b'))
print(shutil.copy(base + '/a.txt', base + '/sub')[len(base):], open(base + '/sub/a.txt').read(), shutil.copyfile(base + '/a.txt', base + '/z.txt')[len(base):])
shutil.copytree(base + '/sub', base + '/sub2')
print(sorted(os.listdir(base + '/sub2')), shutil.move(base + '/z.txt', base + '/moved.txt')[len(base):], os.path.exists(base + '/z.txt'))
print(sorted((p[len(base):], sorted(ds), sorted(fs)) for p, ds, fs in os.walk(base)))
os.rename(base + '/moved.txt', base + '/renamed.txt')
os.remove(base + '/sub2/deep/e.txt')
os.rmdir(base + '/sub2/deep/')
print(sorted(os.listdir(base)), sorted(os.listdir(base + '/sub2')))
shutil.rmtree(base)
print(os.path.exists(base))
for bad in [lambda: shutil.rmtree(base), lambda: shutil.copy(base + '/none', base + '/x')]:
    try:
        bad()
    except FileNotFoundError as e:
        print('FileNotFoundError')
"""),
  ('zipfile, tarfile, gzip and zlib', r"""
import zipfile, tarfile, gzip, zlib, os, shutil
d = '/tmp/tlens-stdlib-archives-' + str(os.getpid())
os.makedirs(d)
with open(d + '/a.zip', 'wb') as f:
    f.write(bytes.fromhex(@ZIPHEX@))
with open(d + '/a.tar.gz', 'wb') as f:
    f.write(bytes.fromhex(@TARHEX@))
with zipfile.ZipFile(d + '/a.zip') as z:
    print(z.namelist(), z.read('a.txt')[:11], list(z.read('dir/b.bin')), z.read('s.txt'), [i.file_size for i in z.infolist()], z.open('s.txt').read())
    z.extractall(d + '/ex')
print(sorted(os.listdir(d + '/ex')), open(d + '/ex/dir/b.bin', 'rb').read()[:3])
with tarfile.open(d + '/a.tar.gz', 'r:gz') as t:
    print(t.getnames(), t.extractfile('x/two.txt').read(), [m.size for m in t.getmembers()], [m.isfile() for m in t])
    t.extractall(d + '/tx')
print(open(d + '/tx/x/one.txt').read())
with gzip.open(d + '/f.gz', 'wb') as f:
    f.write(b'gz data ' * 10)
with gzip.open(d + '/f.gz', 'rb') as f:
    print(f.read()[:16])
with gzip.open(d + '/t.gz', 'wt') as f:
    f.write('text\nlines\n')
print(gzip.open(d + '/t.gz', 'rt').read().split(), zlib.decompress(zlib.compress(b'abc' * 4)), gzip.decompress(gzip.compress(b'xyz')), zlib.crc32(b'abc'))
for bad in [lambda: zipfile.ZipFile(d + '/f.gz'), lambda: gzip.open(d + '/a.zip').read()]:
    try:
        bad()
    except (zipfile.BadZipFile, OSError) as e:
        print(type(e).__name__)
shutil.rmtree(d)
"""),
 ]},
 {'name': 'contextlib, enum, dataclasses and the small modules', 'cases': [
  ('contextlib', r"""
from contextlib import contextmanager, suppress, ExitStack, closing, nullcontext
@contextmanager
def tag(name):
    print('<%s>' % name)
    try:
        yield name.upper()
    finally:
        print('</%s>' % name)
with tag('b') as t:
    print('inside', t)
with suppress(KeyError):
    {}['x']
print('suppressed')
with ExitStack() as st:
    st.callback(print, 'callback ran')
    print('in stack', st.enter_context(tag('i')))
with nullcontext(5) as n:
    print(n)
class Res:
    def close(self):
        print('closed')
with closing(Res()):
    pass
try:
    with tag('e'):
        raise ValueError('boom')
except ValueError as e:
    print('caught', e)
"""),
  ('enum', r"""
from enum import Enum, IntEnum, auto
class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = auto()
    CRIMSON = 1
print(Color.RED, repr(Color.GREEN), Color.BLUE.value, Color(2), Color['RED'].name, [c.name for c in Color], Color.CRIMSON is Color.RED, Color.RED is Color(1))
print(isinstance(Color.RED, Color), Color.RED in list(Color), list(Color.__members__), Color.RED == 1, {Color.RED: 'r'}[Color.RED])
class P(IntEnum):
    LOW = 1
    HIGH = 5
print(P.HIGH > P.LOW, P.LOW == 1, P.HIGH + 1, sorted([P.HIGH, P.LOW]), int(P.HIGH), [1, 2, 3][P.LOW], P(5).name)
try:
    Color(7)
except ValueError as e:
    print(e)
"""),
  ('dataclasses', r"""
from dataclasses import dataclass, field, asdict, astuple, fields, replace, is_dataclass
@dataclass
class Point:
    x: int
    y: float = 0.0
    tags: list = field(default_factory=list)
p = Point(1, 2.5)
print(p, p == Point(1, 2.5), p != Point(2), asdict(p), astuple(p), [f.name for f in fields(p)], replace(p, x=9), is_dataclass(p), Point.y)
@dataclass(frozen=True, order=True)
class V:
    a: int
    b: int = 3
print(V(1) < V(2), hash(V(1, 2)) == hash(V(1, 2)), V(a=4), sorted([V(2), V(1, 5)]))
@dataclass
class Sub(Point):
    z: int = 7
    def __post_init__(self):
        self.total = self.x + self.z
s = Sub(1)
print(s, s.total)
for bad in [lambda: setattr(V(1), 'a', 5), lambda: Point(), lambda: Point(1, 2, [], 4), lambda: Point(1, q=2)]:
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
"""),
  ('heapq, bisect, operator, textwrap, pprint', r"""
import heapq, bisect, operator, textwrap, pprint
h = []
for v in [5, 1, 8, 3, 9, 2]:
    heapq.heappush(h, v)
print([heapq.heappop(h) for _ in range(len(h))], heapq.nlargest(2, [1, 5, 3]), heapq.nsmallest(2, [4, 1, 3]), heapq.heappushpop([1, 5], 3))
hs = [9, 4, 7, 1]
heapq.heapify(hs)
print(hs[0], heapq.heapreplace(hs, 10), hs[0])
a = [1, 3, 3, 7]
print(bisect.bisect_left(a, 3), bisect.bisect_right(a, 3), bisect.bisect(a, 4))
bisect.insort(a, 5)
print(a)
print(sorted([(1, 'b'), (0, 'a')], key=operator.itemgetter(1)), operator.add(2, 3), operator.itemgetter(0, 2)('abc'), operator.mul(3, 4), operator.methodcaller('upper')('x'), operator.neg(2), operator.contains([1], 1))
print(textwrap.dedent('''
    hello
      world
    '''), textwrap.fill('The quick brown fox jumps over the lazy dog ' * 3, width=30))
print(textwrap.wrap('a b c d e f', 3), repr(textwrap.indent('x\ny', '> ')), textwrap.shorten('Hello  world and more', 12))
pprint.pprint({'b': list(range(30)), 'a': {'z': 'x' * 50, 'y': (1, 2)}})
pprint.pprint([1, 2, 3])
print(pprint.pformat({'b': 1, 'a': 2}))
"""),
 ]},
 {'name': 'abc registers virtual subclasses, numbers and hashlib as in CPython', 'cases': [
  ('abc: register (also as a decorator), subclasses of the ABC, __subclasshook__, cache token', r"""
import abc, numbers, hashlib
from abc import ABC, ABCMeta, abstractmethod

class Shape(ABC):
    @abstractmethod
    def area(self): ...

@Shape.register
class Sq:
    def area(self): return 4

print(Sq.__name__, isinstance(Sq(), Shape), issubclass(Sq, Shape), issubclass(Shape, Sq))
class Circle(Shape):
    def area(self): return 3
print(isinstance(Circle(), Shape), issubclass(Circle, Sq))
class Base(metaclass=ABCMeta):
    pass
class Derived(Base):
    pass
Derived.register(tuple)
print(issubclass(tuple, Base), issubclass(tuple, Derived), isinstance((1,), Base), issubclass(list, Base))
r = ABCMeta.register(Base, list)
print(r is list, issubclass(list, Base), isinstance([], Derived))
print(Base.register(Derived) is Derived)
try:
    Derived.register(Base)
except RuntimeError as e:
    print('RuntimeError', e)
try:
    Base.register(3)
except TypeError as e:
    print('TypeError', e)
t = abc.get_cache_token(); Base.register(dict); print(abc.get_cache_token() != t, type(t).__name__)

class Sized(ABC):
    @classmethod
    def __subclasshook__(cls, C):
        if cls is Sized:
            return any('__len__' in B.__dict__ for B in C.__mro__)
        return NotImplemented
class HasLen:
    def __len__(self): return 0
print(isinstance(HasLen(), Sized), isinstance(3, Sized), issubclass(HasLen, Sized), isinstance(object(), Sized))
class Plain: pass
class Plain2(Plain): pass
print(isinstance(Plain2(), Plain), isinstance(Plain(), Plain2), issubclass(Plain2, (int, Plain)))

"""),
  ('numbers: the tower with int, bool and float registered, subclassing it', r"""
import numbers
vals = [1, True, 1.5, 'x', None, [1]]
for cls in [numbers.Number, numbers.Complex, numbers.Real, numbers.Rational, numbers.Integral]:
    print(cls.__name__, [isinstance(v, cls) for v in vals], [issubclass(t, cls) for t in (int, bool, float, str)])
class MyReal(numbers.Real):
    pass
print(issubclass(MyReal, numbers.Real), issubclass(MyReal, numbers.Number), isinstance(2.0, MyReal), issubclass(MyReal, numbers.Integral))
print(numbers.Integral.__mro__)
"""),
  ('hashlib: digests of known strings, update, copy, errors', r"""
import hashlib
for name in ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512']:
    h = hashlib.new(name, b'abc')
    print(name, h.name, h.digest_size, h.block_size, h.hexdigest())
h = hashlib.sha1()
h.update(b'hello ')
c = h.copy()
h.update(b'world')
print(h.hexdigest(), c.hexdigest(), h.digest()[:4], hashlib.sha256(b'').hexdigest())
print(hashlib.md5('héllo'.encode('utf-8')).hexdigest(), hashlib.new('SHA256', b'x').name)
print(int(hashlib.sha1(b'file_001.jpg').hexdigest()[:8], 16) % 100)
print('sha1' in hashlib.algorithms_guaranteed, 'md5' in hashlib.algorithms_available)
for bad in [lambda: hashlib.sha1('text'), lambda: hashlib.new('nope'), lambda: hashlib.md5().update(3)]:
    try:
        bad()
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
"""),
 ]},
 {'name': 'tempfile and codecs', 'cases': [
  ('temporary directories and files, codecs.open with an encoding', r'''
import tempfile, os, codecs, random
random.seed(3)
a = random.random()
d = tempfile.mkdtemp(prefix="tl_")
print(os.path.isdir(d), os.path.basename(d).startswith("tl_"))
with tempfile.TemporaryDirectory() as t:
    p = os.path.join(t, "x.txt")
    with codecs.open(p, "w", "utf-8") as f:
        f.write(u"h\u00e9llo\n")
    with codecs.open(p, "r", encoding="utf-8") as f:
        print(repr(f.read()))
    keep = t
print(os.path.exists(keep))
with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=True) as f:
    f.write("1,2\n")
    f.flush()
    n = f.name
    print(n.endswith(".csv"), os.path.exists(n))
print(os.path.exists(n))
random.seed(3)
print(random.random() == a, codecs.encode("ab", "utf-8"), codecs.decode(b"ab"), codecs.BOM_UTF8)
os.rmdir(d)
'''),
 ]},
]}

for test in CASES['InterpStdlibTests.cpp']['tests']:
    test['cases'] = [(n, s.replace('@PROTO2@', PROTO2).replace('@PROTO5@', PROTO5).replace('@ZIPHEX@', repr(ZIPHEX)).replace('@TARHEX@', repr(TARHEX)))
                     for n, s in test['cases']]
