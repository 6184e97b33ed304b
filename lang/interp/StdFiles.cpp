// Files and their formats: io (StringIO, BytesIO, open), glob, fnmatch, shutil, csv. glob and
// shutil are native over std::filesystem: abstract mode lists nothing (an Unknown list) and
// changes nothing (shutil's writers are side-effecting); StringIO/BytesIO and csv are Python over
// the file objects, so they work in both modes on whatever the file gives (Unknown in abstract
// mode, where open() opens nothing).
#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "lang/interp/Format.h"
#include "lang/interp/FsPath.h"
#include "lang/interp/ObjectProtocol.h"
#include "lang/interp/StdModules.h"
#include "lang/interp/StdModules.h"

namespace tlens::interp {
namespace fs = std::filesystem;
namespace {

bool hasMagic(const std::string& s) { return s.find_first_of("*?[") != std::string::npos; }

std::vector<std::string> sortedEntries(const std::string& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir.empty() ? "." : dir, ec)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

/// Python's glob over path components; '**' (recursive) matches any number of directories.
void globFrom(const std::string& prefix, const std::vector<std::string>& comps, size_t i, bool recursive,
              std::vector<std::string>& out, size_t& budget) {
  if (budget == 0) return;
  --budget;
  std::error_code ec;
  const std::string& comp = comps[i];
  bool last = i + 1 == comps.size();
  std::string dir = prefix.empty() ? "" : prefix;
  auto descend = [&](const std::string& path) {
    if (last) out.push_back(path);
    else if (fs::is_directory(path, ec)) globFrom(path + "/", comps, i + 1, recursive, out, budget);
  };
  if (recursive && comp == "**") {
    // zero directories, then every directory below (hidden ones excluded)
    if (last) {
      if (!prefix.empty()) out.push_back(prefix);
    } else {
      globFrom(prefix, comps, i + 1, recursive, out, budget);
    }
    for (const std::string& name : sortedEntries(dir)) {
      if (name[0] == '.') continue;
      std::string path = prefix + name;
      if (fs::is_directory(path, ec)) {
        if (last) out.push_back(path + "/");
        std::vector<std::string> rest(comps.begin() + static_cast<std::ptrdiff_t>(i), comps.end());
        globFrom(path + "/", rest, 0, recursive, out, budget);
      } else if (last) {
        out.push_back(path);
      }
    }
    return;
  }
  if (!hasMagic(comp)) {
    std::string path = prefix + comp;
    if (comp.empty() || fs::exists(fs::symlink_status(path, ec)) || fs::exists(path, ec)) descend(path);
    return;
  }
  for (const std::string& name : sortedEntries(dir)) {
    if (name[0] == '.' && comp[0] != '.') continue;
    if (::fnmatch(comp.c_str(), name.c_str(), 0) == 0) descend(prefix + name);
  }
}

std::shared_ptr<ModuleObj> makeGlobModule(Interpreter& in) {
  ObjectProtocol* mp = &protocolOf(in);
  auto mod = makeModule("glob");
  Namespace& ns = mod->globals->vars;
  auto glob = defineNative(ns, "glob", "pathname, *, root_dir=None, dir_fd=None, recursive=False, include_hidden=False",
                           [mp](CallContext& c) -> Value {
                             if (mp->abstract()) return unknownOf(mp->types.list);
                             std::string pat = pathArg(c, c.arg(0));
                             if (!isNone(c.arg(1))) pat = pathArg(c, c.arg(1)) + "/" + pat;
                             if (!pat.empty() && pat[0] == '~') {
                               const char* home = std::getenv("HOME");
                               if (home) pat = home + pat.substr(1);
                             }
                             std::vector<std::string> comps;
                             std::string prefix;
                             size_t start = 0;
                             if (!pat.empty() && pat[0] == '/') {
                               prefix = "/";
                               start = 1;
                             }
                             while (start <= pat.size()) {
                               size_t slash = pat.find('/', start);
                               comps.push_back(pat.substr(start, slash == std::string::npos ? std::string::npos : slash - start));
                               if (slash == std::string::npos) break;
                               start = slash + 1;
                             }
                             std::vector<std::string> out;
                             size_t budget = 1000000;
                             globFrom(prefix, comps, 0, c.toBool(c.arg(3)), out, budget);
                             std::vector<Value> vals;
                             for (auto& s : out) vals.push_back(makeStr(s));
                             return makeList(std::move(vals));
                           });
  defineNative(ns, "iglob", "pathname, *, root_dir=None, dir_fd=None, recursive=False, include_hidden=False",
               [mp, glob](CallContext& c) -> Value {
                 Value l = mp->call(glob, {c.arg(0)}, {{"root_dir", c.arg(1)}, {"recursive", c.arg(3)}});
                 return mp->getIter(l);
               });
  defineNative(ns, "has_magic", "s", [](CallContext& c) { return boolean(hasMagic(c.toStr(c.arg(0)))); });
  defineNative(ns, "escape", "pathname", [](CallContext& c) -> Value {
    std::string out;
    for (char ch : c.toStr(c.arg(0))) {
      if (ch == '*' || ch == '?' || ch == '[') out += std::string("[") + ch + "]";
      else out += ch;
    }
    return makeStr(out);
  });
  return mod;
}

std::shared_ptr<ModuleObj> makeShutilModule(Interpreter& in) {
  ObjectProtocol* mp = &protocolOf(in);
  auto mod = makeModule("shutil");
  Namespace& ns = mod->globals->vars;
  auto notFound = [mp](const std::string& p) {
    mp->raise("FileNotFoundError", "[Errno 2] No such file or directory: " + reprString(p));
  };
  auto writer = [&](const char* name, const char* sig, NativeFn fn) { defineNative(ns, name, sig, std::move(fn))->sideEffecting = true; };
  auto copyFile = [mp, notFound](const std::string& src, std::string dst) -> std::string {
    std::error_code ec;
    if (!fs::exists(src, ec)) notFound(src);
    if (fs::is_directory(dst, ec)) dst = (fs::path(dst) / fs::path(src).filename()).string();
    if (fs::equivalent(src, dst, ec)) mp->raise("SameFileError", reprString(src) + " and " + reprString(dst) + " are the same file");
    fs::copy_file(src, dst, fs::copy_options::overwrite_existing, ec);
    if (ec) mp->raise("OSError", "[Errno " + std::to_string(ec.value()) + "] " + ec.message() + ": " + reprString(dst));
    return dst;
  };
  writer("copyfile", "src, dst, *, follow_symlinks=True", [copyFile, mp](CallContext& c) -> Value {
    std::string src = pathArg(c, c.arg(0)), dst = pathArg(c, c.arg(1));
    std::error_code ec;
    if (fs::is_directory(dst, ec)) mp->raise("IsADirectoryError", "[Errno 21] Is a directory: " + reprString(dst));
    return makeStr(copyFile(src, dst));
  });
  writer("copy", "src, dst, *, follow_symlinks=True", [copyFile](CallContext& c) -> Value {
    return makeStr(copyFile(pathArg(c, c.arg(0)), pathArg(c, c.arg(1))));
  });
  ns.set("copy2", ns.get("copy"));
  writer("copytree", "src, dst, symlinks=False, ignore=None, copy_function=None, ignore_dangling_symlinks=False, dirs_exist_ok=False",
         [mp, notFound](CallContext& c) -> Value {
           std::string src = pathArg(c, c.arg(0)), dst = pathArg(c, c.arg(1));
           std::error_code ec;
           if (!fs::is_directory(src, ec)) notFound(src);
           if (fs::exists(dst, ec) && !c.toBool(c.arg(6))) mp->raise("FileExistsError", "[Errno 17] File exists: " + reprString(dst));
           fs::copy(src, dst, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
           if (ec) mp->raise("OSError", ec.message() + ": " + reprString(dst));
           return makeStr(dst);
         });
  writer("rmtree", "path, ignore_errors=False, onerror=None", [notFound](CallContext& c) -> Value {
    std::string p = pathArg(c, c.arg(0));
    std::error_code ec;
    if (!fs::exists(p, ec)) {
      if (!c.toBool(c.arg(1))) notFound(p);
      return none();
    }
    fs::remove_all(p, ec);
    return none();
  });
  writer("move", "src, dst, copy_function=None", [mp, notFound](CallContext& c) -> Value {
    std::string src = pathArg(c, c.arg(0)), dst = pathArg(c, c.arg(1));
    std::error_code ec;
    if (!fs::exists(src, ec)) notFound(src);
    if (fs::is_directory(dst, ec)) dst = (fs::path(dst) / fs::path(src).filename()).string();
    fs::rename(src, dst, ec);
    if (ec) {
      fs::copy(src, dst, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
      if (ec) mp->raise("OSError", ec.message() + ": " + reprString(dst));
      fs::remove_all(src, ec);
    }
    return makeStr(dst);
  });
  defineNative(ns, "which", "cmd, mode=1, path=None", [mp](CallContext& c) -> Value {
    if (mp->abstract()) return unknown();
    std::string cmd = c.toStr(c.arg(0));
    const char* path = std::getenv("PATH");
    std::string p = isNone(c.arg(2)) ? (path ? path : "") : c.toStr(c.arg(2));
    size_t start = 0;
    while (start <= p.size()) {
      size_t colon = p.find(':', start);
      std::string dir = p.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
      std::string full = (dir.empty() ? "." : dir) + "/" + cmd;
      std::error_code ec;
      if (fs::is_regular_file(full, ec) && ::access(full.c_str(), X_OK) == 0) return makeStr(full);
      if (colon == std::string::npos) break;
      start = colon + 1;
    }
    return none();
  });
  defineNative(ns, "get_terminal_size", "fallback=None", [](CallContext& c) -> Value {
    return isNone(c.arg(0)) ? makeTuple({makeInt(80), makeInt(24)}) : c.arg(0);
  });
  defineNative(ns, "disk_usage", "path", [mp, notFound](CallContext& c) -> Value {
    if (mp->abstract()) return unknownOf(mp->types.tuple);
    std::error_code ec;
    auto s = fs::space(pathArg(c, c.arg(0)), ec);
    if (ec) notFound(pathArg(c, c.arg(0)));
    return makeTuple({makeInt(static_cast<int64_t>(s.capacity)), makeInt(static_cast<int64_t>(s.capacity - s.free)),
                      makeInt(static_cast<int64_t>(s.available))});
  });
  return mod;
}

const char* kIo = R"PY(
SEEK_SET = 0
SEEK_CUR = 1
SEEK_END = 2
DEFAULT_BUFFER_SIZE = 8192
open = open


class UnsupportedOperation(OSError, ValueError):
    pass


class IOBase:
    def __enter__(self):
        self._check()
        return self

    def __exit__(self, *args):
        self.close()

    def close(self):
        self.closed = True

    def flush(self):
        pass

    def readable(self):
        return True

    def writable(self):
        return True

    def seekable(self):
        return True

    def isatty(self):
        return False

    def _check(self):
        if self.closed:
            raise ValueError('I/O operation on closed file.')


class _MemoryIO(IOBase):
    def __init__(self, initial, empty):
        self._empty = empty
        self._value = initial if initial is not None else empty
        self._pending = []
        self._pos = 0
        self.closed = False

    def _flat(self):
        if self._pending:
            self._value = self._value + self._empty.join(self._pending)
            self._pending = []
        return self._value

    def getvalue(self):
        self._check()
        return self._flat()

    def write(self, s):
        self._check()
        self._type_check(s)
        v = self._flat() if self._pos != len(self._value) or self._pending else self._value
        if self._pos == len(v):
            self._pending.append(s)
        else:
            if self._pos > len(v):
                v = v + self._pad(self._pos - len(v))
            self._value = v[:self._pos] + s + v[self._pos + len(s):]
        self._pos += len(s)
        return len(s)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def read(self, size=-1):
        self._check()
        v = self._flat()
        if size is None or size < 0:
            size = len(v)
        r = v[self._pos:self._pos + size]
        self._pos += len(r)
        return r

    def read1(self, size=-1):
        return self.read(size)

    def readline(self, size=-1):
        self._check()
        v = self._flat()
        nl = self._newline()
        i = v.find(nl, self._pos)
        end = len(v) if i < 0 else i + 1
        if size is not None and size >= 0:
            end = min(end, self._pos + size)
        r = v[self._pos:end]
        self._pos = end
        return r

    def readlines(self, hint=-1):
        out = []
        while True:
            line = self.readline()
            if not line:
                return out
            out.append(line)

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def seek(self, pos, whence=0):
        self._check()
        v = self._flat()
        if whence == 1:
            pos = self._pos + pos
        elif whence == 2:
            pos = len(v) + pos
        if pos < 0:
            raise ValueError('negative seek value %d' % pos)
        self._pos = pos
        return pos

    def tell(self):
        self._check()
        return self._pos

    def truncate(self, size=None):
        v = self._flat()
        if size is None:
            size = self._pos
        self._value = v[:size]
        return size


class StringIO(_MemoryIO):
    def __init__(self, initial_value='', newline='\n'):
        _MemoryIO.__init__(self, initial_value, '')

    def _type_check(self, s):
        if not isinstance(s, str):
            raise TypeError('string argument expected, got %r' % type(s).__name__)

    def _newline(self):
        return '\n'

    def _pad(self, n):
        return '\0' * n


class BytesIO(_MemoryIO):
    def __init__(self, initial_bytes=b''):
        _MemoryIO.__init__(self, bytes(initial_bytes), b'')

    def _type_check(self, s):
        if not isinstance(s, (bytes, bytearray)):
            raise TypeError("a bytes-like object is required, not '%s'" % type(s).__name__)

    def _newline(self):
        return b'\n'

    def _pad(self, n):
        return bytes(n)

    def getbuffer(self):
        return self.getvalue()


class TextIOWrapper(IOBase):
    def __init__(self, buffer, encoding=None, errors=None, newline=None, line_buffering=False, write_through=False):
        self.buffer = buffer
        self.encoding = encoding or 'utf-8'
        self.closed = False
        self._text = None

    def read(self, size=-1):
        if self._text is None:
            self._text = StringIO(self.buffer.read().decode(self.encoding))
        return self._text.read(size)

    def readline(self, size=-1):
        if self._text is None:
            self._text = StringIO(self.buffer.read().decode(self.encoding))
        return self._text.readline(size)

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def write(self, s):
        return self.buffer.write(s.encode(self.encoding))


BufferedReader = BytesIO
RawIOBase = IOBase
BufferedIOBase = IOBase
TextIOBase = IOBase
)PY";

const char* kFnmatch = R"PY(
import re


def translate(pat):
    i, n = 0, len(pat)
    res = ''
    while i < n:
        c = pat[i]
        i += 1
        if c == '*':
            if not res.endswith('.*'):
                res = res + '.*'
        elif c == '?':
            res = res + '.'
        elif c == '[':
            j = i
            if j < n and pat[j] == '!':
                j += 1
            if j < n and pat[j] == ']':
                j += 1
            while j < n and pat[j] != ']':
                j += 1
            if j >= n:
                res = res + '\\['
            else:
                stuff = pat[i:j].replace('\\', '\\\\')
                i = j + 1
                if stuff[0] == '!':
                    stuff = '^' + stuff[1:]
                elif stuff[0] in ('^', '['):
                    stuff = '\\' + stuff
                res = '%s[%s]' % (res, stuff)
        else:
            res = res + re.escape(c)
    return '(?s:%s)\\Z' % res


def fnmatchcase(name, pat):
    return re.match(translate(pat), name) is not None


def fnmatch(name, pat):
    return fnmatchcase(name, pat)


def filter(names, pat):
    rx = re.compile(translate(pat))
    return [n for n in names if rx.match(n) is not None]
)PY";

const char* kCsv = R"PY(
QUOTE_MINIMAL = 0
QUOTE_ALL = 1
QUOTE_NONNUMERIC = 2
QUOTE_NONE = 3


class Error(Exception):
    pass


class Dialect:
    delimiter = ','
    quotechar = '"'
    escapechar = None
    doublequote = True
    skipinitialspace = False
    lineterminator = '\r\n'
    quoting = QUOTE_MINIMAL
    strict = False


class excel(Dialect):
    pass


class excel_tab(excel):
    delimiter = '\t'


class unix_dialect(Dialect):
    lineterminator = '\n'
    quoting = QUOTE_ALL


_dialects = {'excel': excel, 'excel-tab': excel_tab, 'unix': unix_dialect}


def register_dialect(name, dialect=None, **fmtparams):
    d = type(name, (dialect or excel,), {})
    for k, v in fmtparams.items():
        setattr(d, k, v)
    _dialects[name] = d


def get_dialect(name):
    return _dialects[name]


def list_dialects():
    return list(_dialects)


def field_size_limit(new_limit=None):
    return 131072


class _Params:
    def __init__(self, dialect, kw):
        if isinstance(dialect, str):
            if dialect not in _dialects:
                raise Error('unknown dialect')
            dialect = _dialects[dialect]
        for name in ('delimiter', 'quotechar', 'escapechar', 'doublequote', 'skipinitialspace', 'lineterminator',
                     'quoting', 'strict'):
            setattr(self, name, kw.get(name, getattr(dialect, name, getattr(Dialect, name))))
        if not isinstance(self.delimiter, str) or len(self.delimiter) != 1:
            raise TypeError('"delimiter" must be a 1-character string')


class _Reader:
    def __init__(self, f, dialect, kw):
        self._lines = iter(f)
        self.dialect = _Params(dialect, kw)
        self.line_num = 0

    def __iter__(self):
        return self

    def __next__(self):
        d = self.dialect
        row = []
        field = []
        state = 'start'
        quoted = False
        while True:
            line = next(self._lines)
            self.line_num += 1
            if not isinstance(line, str):
                raise Error('iterator should return strings, not %s (the file should be opened in text mode)'
                            % type(line).__name__)
            i = 0
            n = len(line)
            while i < n:
                c = line[i]
                if state == 'quoted':
                    if c == d.escapechar and i + 1 < n:
                        field.append(line[i + 1])
                        i += 2
                        continue
                    if c == d.quotechar:
                        if d.doublequote and i + 1 < n and line[i + 1] == d.quotechar:
                            field.append(c)
                            i += 2
                            continue
                        state = 'after'
                    else:
                        field.append(c)
                    i += 1
                    continue
                if c == '\r' or c == '\n':
                    i += 1
                    continue
                if state == 'start' and d.skipinitialspace and c == ' ' and not field:
                    i += 1
                    continue
                if c == d.delimiter:
                    row.append(self._value(''.join(field), quoted))
                    field = []
                    quoted = False
                    state = 'start'
                elif c == d.quotechar and state == 'start' and not field and d.quoting != QUOTE_NONE:
                    state = 'quoted'
                    quoted = True
                elif c == d.escapechar and i + 1 < n:
                    field.append(line[i + 1])
                    i += 1
                else:
                    if state == 'after' and d.strict:
                        raise Error("'%s' expected after '%s'" % (d.delimiter, d.quotechar))
                    field.append(c)
                    if state == 'start':
                        state = 'field'
                i += 1
            if state == 'quoted':
                continue
            if not row and not field and not quoted:
                return []
            row.append(self._value(''.join(field), quoted))
            return row

    def _value(self, s, quoted):
        if self.dialect.quoting == QUOTE_NONNUMERIC and not quoted:
            return float(s) if s else s
        return s


def reader(csvfile, dialect='excel', **fmtparams):
    return _Reader(csvfile, dialect, fmtparams)


class _Writer:
    def __init__(self, f, dialect, kw):
        self._f = f
        self.dialect = _Params(dialect, kw)

    def _field(self, v, single):
        d = self.dialect
        if v is None:
            s = ''
        elif isinstance(v, float):
            s = repr(v)
        else:
            s = str(v)
        numeric = isinstance(v, (int, float)) and not isinstance(v, bool)
        if d.quoting == QUOTE_ALL or (d.quoting == QUOTE_NONNUMERIC and not numeric):
            need = True
        elif d.quoting == QUOTE_NONE:
            need = False
        else:
            need = (d.delimiter in s or d.quotechar in s or '\n' in s or '\r' in s or (single and s == '')
                    or (s[:1] == ' ' and False))
        if d.quotechar and d.quotechar in s and d.quoting != QUOTE_NONE:
            if d.doublequote:
                s = s.replace(d.quotechar, d.quotechar + d.quotechar)
            elif d.escapechar:
                s = s.replace(d.quotechar, d.escapechar + d.quotechar)
        return d.quotechar + s + d.quotechar if need else s

    def writerow(self, row):
        row = list(row)
        line = self.dialect.delimiter.join(self._field(v, len(row) == 1) for v in row) + self.dialect.lineterminator
        return self._f.write(line)

    def writerows(self, rows):
        for r in rows:
            self.writerow(r)


def writer(csvfile, dialect='excel', **fmtparams):
    return _Writer(csvfile, dialect, fmtparams)


class DictReader:
    def __init__(self, f, fieldnames=None, restkey=None, restval=None, dialect='excel', *args, **kwds):
        self._fieldnames = fieldnames
        self.restkey = restkey
        self.restval = restval
        self.reader = reader(f, dialect, **kwds)
        self.line_num = 0

    @property
    def fieldnames(self):
        if self._fieldnames is None:
            try:
                self._fieldnames = next(self.reader)
            except StopIteration:
                pass
        self.line_num = self.reader.line_num
        return self._fieldnames

    def __iter__(self):
        return self

    def __next__(self):
        if self.line_num == 0:
            self.fieldnames
        row = next(self.reader)
        while row == []:
            row = next(self.reader)
        self.line_num = self.reader.line_num
        names = self.fieldnames
        d = dict(zip(names, row))
        if len(names) < len(row):
            d[self.restkey] = row[len(names):]
        elif len(names) > len(row):
            for key in names[len(row):]:
                d[key] = self.restval
        return d


class DictWriter:
    def __init__(self, f, fieldnames, restval='', extrasaction='raise', dialect='excel', *args, **kwds):
        self.fieldnames = list(fieldnames)
        self.restval = restval
        self.extrasaction = extrasaction
        self.writer = writer(f, dialect, **kwds)

    def writeheader(self):
        return self.writer.writerow(self.fieldnames)

    def _row(self, rowdict):
        if self.extrasaction == 'raise':
            wrong = [k for k in rowdict if k not in self.fieldnames]
            if wrong:
                raise ValueError('dict contains fields not in fieldnames: ' + ', '.join(repr(x) for x in wrong))
        return [rowdict.get(key, self.restval) for key in self.fieldnames]

    def writerow(self, rowdict):
        return self.writer.writerow(self._row(rowdict))

    def writerows(self, rowdicts):
        for r in rowdicts:
            self.writerow(r)


class Sniffer:
    def sniff(self, sample, delimiters=None):
        counts = {}
        for c in (delimiters or ',;\t|'):
            counts[c] = sample.count(c)
        best = max(counts, key=counts.get)

        class sniffed(excel):
            delimiter = best
        return sniffed

    def has_header(self, sample):
        return True
)PY";

}  // namespace

void registerFileModules(ModuleRegistry& r) {
  r.add("glob", makeGlobModule);
  r.add("shutil", makeShutilModule);
  r.addSource("io", kIo);
  r.addSource("fnmatch", kFnmatch);
  r.addSource("csv", kCsv);
}

}  // namespace tlens::interp
