// pathlib: PurePath, PurePosixPath, Path and PosixPath, in Python over os, os.path and glob
// (their native halves accept any os.PathLike through __fspath__, FsPath.h). A path keeps its
// normalised text (`_str`) and derives its parts from it, so in abstract mode a path built from
// an unknown string (os.getcwd(), sys.argv) has unknown parts, and the file-system queries
// (exists, is_dir, glob, iterdir, read_text) are unknown as os.path's and open()'s are there;
// writers (mkdir, write_text, unlink) change nothing, as os's side-effecting functions.
// Windows paths are not modelled.
#include "lang/interp/StdModules.h"

namespace tlens::interp {
namespace {

const char* kPathlib = R"PY(
import os
import glob as _glob
import fnmatch as _fnmatch

__all__ = ['PurePath', 'PurePosixPath', 'Path', 'PosixPath']


def _text(a):
    if isinstance(a, PurePath):
        return a._str
    s = os.fspath(a)
    if not isinstance(s, str):
        raise TypeError("argument should be a str or an os.PathLike object where __fspath__ returns a str, not %r"
                        % type(a).__name__)
    return s


def _normalize(s):
    root = ''
    if s.startswith('/'):
        root = '//' if s.startswith('//') and not s.startswith('///') else '/'
    body = '/'.join([c for c in s.split('/') if c and c != '.'])
    r = root + body
    return r if r else '.'


def _join(args):
    path = ''
    for a in args:
        s = _text(a)
        if s.startswith('/') or path == '':
            path = s
        elif s:
            path = path + '/' + s
    return _normalize(path)


class PurePath(os.PathLike):
    def __new__(cls, *args):
        if cls is PurePath:
            cls = PurePosixPath
        self = object.__new__(cls)
        self._str = _join(args)
        return self

    def __init__(self, *args):
        pass

    def _make(self, text):
        p = object.__new__(type(self))
        p._str = _normalize(text)
        return p

    # -- text --
    def __str__(self):
        return self._str

    def __fspath__(self):
        return self._str

    def as_posix(self):
        return self._str

    def __bytes__(self):
        return self._str.encode('utf-8')

    def __repr__(self):
        return "%s(%r)" % (type(self).__name__, self._str)

    def as_uri(self):
        if not self.is_absolute():
            raise ValueError("relative path can't be expressed as a file URI")
        return 'file://' + self._str

    # -- comparisons --
    def _key(self):
        return self.parts

    def __eq__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self._str == other._str

    def __ne__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self._str != other._str

    def __hash__(self):
        return hash(self._str)

    def __lt__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self._key() < other._key()

    def __le__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self._key() <= other._key()

    def __gt__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self._key() > other._key()

    def __ge__(self, other):
        if not isinstance(other, PurePath):
            return NotImplemented
        return self._key() >= other._key()

    # -- parts --
    @property
    def root(self):
        s = self._str
        if s.startswith('//') and not s.startswith('///'):
            return '//'
        return '/' if s.startswith('/') else ''

    @property
    def drive(self):
        return ''

    @property
    def anchor(self):
        return self.root

    @property
    def parts(self):
        s = self._str
        if s == '.':
            return ()
        root = self.root
        rest = s[len(root):]
        names = tuple(rest.split('/')) if rest else ()
        return ((root,) + names) if root else names

    @property
    def name(self):
        s = self._str
        if s == '.':
            return ''
        rest = s[len(self.root):]
        return rest[rest.rfind('/') + 1:]

    @property
    def suffix(self):
        name = self.name
        i = name.rfind('.')
        if 0 < i < len(name) - 1:
            return name[i:]
        return ''

    @property
    def suffixes(self):
        name = self.name
        if name.endswith('.'):
            return []
        name = name.lstrip('.')
        return ['.' + s for s in name.split('.')[1:]]

    @property
    def stem(self):
        name = self.name
        i = name.rfind('.')
        if 0 < i < len(name) - 1:
            return name[:i]
        return name

    @property
    def parent(self):
        s = self._str
        root = self.root
        rest = s[len(root):]
        if s == '.' or not rest:
            return self
        i = rest.rfind('/')
        return self._make(root + rest[:i] if i >= 0 else (root or '.'))

    @property
    def parents(self):
        out = []
        p = self
        while True:
            q = p.parent
            if q == p:
                break
            out.append(q)
            p = q
        return tuple(out)

    def is_absolute(self):
        return self._str.startswith('/')

    def is_reserved(self):
        return False

    # -- derived paths --
    def joinpath(self, *others):
        return type(self)(self, *others)

    def __truediv__(self, key):
        try:
            return type(self)(self, key)
        except TypeError:
            return NotImplemented

    def __rtruediv__(self, key):
        try:
            return type(self)(key, self)
        except TypeError:
            return NotImplemented

    def with_name(self, name):
        if not self.name:
            raise ValueError("%r has an empty name" % (self,))
        if not name or '/' in name or name == '.':
            raise ValueError("Invalid name %r" % (name,))
        return self._make(self._str[:len(self._str) - len(self.name)] + name)

    def with_stem(self, stem):
        return self.with_name(stem + self.suffix)

    def with_suffix(self, suffix):
        if '/' in suffix or (suffix and not suffix.startswith('.')) or suffix == '.':
            raise ValueError("Invalid suffix %r" % (suffix,))
        name = self.name
        if not name:
            raise ValueError("%r has an empty name" % (self,))
        old = self.suffix
        name = (name[:len(name) - len(old)] if old else name) + suffix
        return self.with_name(name)

    def relative_to(self, *other):
        base = type(self)(*other)
        mine, theirs = self.parts, base.parts
        if len(theirs) > len(mine) or mine[:len(theirs)] != theirs or (not theirs and self.is_absolute()):
            raise ValueError("%r is not in the subpath of %r OR one path is relative and the other is absolute."
                             % (self._str, base._str))
        return self._make('/'.join(mine[len(theirs):]))

    def is_relative_to(self, *other):
        try:
            self.relative_to(*other)
            return True
        except ValueError:
            return False

    def match(self, pattern):
        pat = type(self)(pattern)
        pparts, parts = pat.parts, self.parts
        if not pparts:
            raise ValueError("empty pattern")
        if pat.is_absolute():
            if len(pparts) != len(parts):
                return False
        elif len(pparts) > len(parts):
            return False
        for name, p in zip(reversed(parts), reversed(pparts)):
            if not _fnmatch.fnmatchcase(name, p):
                return False
        return True


class PurePosixPath(PurePath):
    pass


class _Stat:
    def __init__(self, path):
        self.st_size = os.path.getsize(path)
        self.st_mode = 0o40755 if os.path.isdir(path) else 0o100644

    def __repr__(self):
        return 'os.stat_result(st_mode=%r, st_size=%r)' % (self.st_mode, self.st_size)


class Path(PurePath):
    def __new__(cls, *args, **kwargs):
        if cls is Path:
            cls = PosixPath
        self = object.__new__(cls)
        self._str = _join(args)
        return self

    def __init__(self, *args, **kwargs):
        pass

    @classmethod
    def cwd(cls):
        return cls(os.getcwd())

    @classmethod
    def home(cls):
        return cls(os.path.expanduser('~'))

    def absolute(self):
        if self.is_absolute():
            return self
        return type(self)(os.getcwd(), self)

    def resolve(self, strict=False):
        if strict and not self.exists():
            raise FileNotFoundError("[Errno 2] No such file or directory: %r" % (self._str,))
        return type(self)(os.path.realpath(self._str))

    def expanduser(self):
        return type(self)(os.path.expanduser(self._str))

    # -- queries --
    def exists(self):
        return os.path.exists(self._str)

    def is_file(self):
        return os.path.isfile(self._str)

    def is_dir(self):
        return os.path.isdir(self._str)

    def is_symlink(self):
        return False

    def stat(self):
        if not self.exists():
            raise FileNotFoundError("[Errno 2] No such file or directory: %r" % (self._str,))
        return _Stat(self._str)

    def samefile(self, other):
        return os.path.abspath(self._str) == os.path.abspath(_text(other))

    def iterdir(self):
        for name in os.listdir(self._str):
            yield self._make(self._str + '/' + name)

    def glob(self, pattern):
        if not pattern:
            raise ValueError("Unacceptable pattern: %r" % (pattern,))
        if pattern.startswith('/'):
            raise NotImplementedError("Non-relative patterns are unsupported")
        base = '' if self._str == '.' else _glob.escape(self._str) + '/'
        dirs_only = pattern.rstrip('/').endswith('**') or pattern.endswith('/')
        for p in _glob.glob(base + pattern.rstrip('/'), recursive=True):
            if dirs_only and not os.path.isdir(p):
                continue
            yield self._make(p)

    def rglob(self, pattern):
        return self.glob('**/' + pattern)

    # -- reading and writing --
    def open(self, mode='r', buffering=-1, encoding=None, errors=None, newline=None):
        return open(self._str, mode, buffering, encoding, errors, newline)

    def read_text(self, encoding=None, errors=None):
        with open(self._str, 'r', encoding=encoding, errors=errors) as f:
            return f.read()

    def read_bytes(self):
        with open(self._str, 'rb') as f:
            return f.read()

    def write_text(self, data, encoding=None, errors=None, newline=None):
        if not isinstance(data, str):
            raise TypeError('data must be str, not %s' % type(data).__name__)
        with open(self._str, 'w', encoding=encoding, errors=errors, newline=newline) as f:
            return f.write(data)

    def write_bytes(self, data):
        data = bytes(data)
        with open(self._str, 'wb') as f:
            return f.write(data)

    # -- changing the file system --
    def mkdir(self, mode=0o777, parents=False, exist_ok=False):
        try:
            os.mkdir(self._str, mode)
        except FileNotFoundError:
            if not parents or self.parent == self:
                raise
            self.parent.mkdir(parents=True, exist_ok=True)
            self.mkdir(mode, parents=False, exist_ok=exist_ok)
        except OSError:
            if not exist_ok or not self.is_dir():
                raise

    def touch(self, mode=0o666, exist_ok=True):
        if self.exists():
            if not exist_ok:
                raise FileExistsError("[Errno 17] File exists: %r" % (self._str,))
            return
        open(self._str, 'a').close()

    def unlink(self, missing_ok=False):
        try:
            os.unlink(self._str)
        except FileNotFoundError:
            if not missing_ok:
                raise

    def rmdir(self):
        os.rmdir(self._str)

    def rename(self, target):
        os.rename(self._str, _text(target))
        return type(self)(target)

    def replace(self, target):
        os.replace(self._str, _text(target))
        return type(self)(target)


class PosixPath(Path, PurePosixPath):
    pass
)PY";

}  // namespace

void registerPathlibModule(ModuleRegistry& r) { r.addSource("pathlib", kPathlib); }

}  // namespace tlens::interp
