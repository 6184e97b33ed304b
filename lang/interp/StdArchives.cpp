// Compressed files and archives, for reading datasets: zlib, gzip (read and write), zipfile and
// tarfile (read, extract). A native `_archive` module (zlib inflate/deflate, the zip central
// directory, tar headers, whole-file reads and writes) under Python modules with CPython's API.
// Abstract mode reads no file (an Unknown) and writes none (the writer is side-effecting).
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "lang/interp/Bytes.h"
#include "lang/interp/ObjectProtocol.h"
#include "lang/interp/Format.h"
#include "lang/interp/StdModules.h"
#include "lang/interp/StdModules.h"

namespace tlens::interp {
namespace fs = std::filesystem;
namespace {

std::string bytesArg(CallContext& c, const Value& v) {
  if (const std::string* b = asBytes(v)) return *b;
  if (isUnknown(v)) throw NeedsKnownValue{};
  c.typeError("a bytes-like object is required, not '" + protocolOf(c.interp).typeName(v) + "'");
}

/// Inflates `in`: windowBits 15+32 (zlib or gzip, auto), -15 (raw deflate), 15 (zlib).
std::string inflateAll(ObjectProtocol& m, const std::string& in, int windowBits, const char* what) {
  z_stream zs{};
  if (inflateInit2(&zs, windowBits) != Z_OK) m.raise("RuntimeError", "zlib: inflateInit failed");
  std::string out;
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  char buf[65536];
  int rc = Z_OK;
  while (true) {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    rc = inflate(&zs, Z_NO_FLUSH);
    out.append(buf, sizeof buf - zs.avail_out);
    if (rc == Z_STREAM_END) {
      // gzip files may hold several members back to back
      if (windowBits > 15 && zs.avail_in > 0) {
        inflateReset(&zs);
        continue;
      }
      break;
    }
    if (rc != Z_OK) break;
    if (out.size() > (size_t{1} << 34)) break;
  }
  inflateEnd(&zs);
  if (rc != Z_STREAM_END) m.raise("OSError", std::string(what) + ": the data is not valid or is truncated (zlib error " + std::to_string(rc) + ")");
  return out;
}

std::string deflateAll(ObjectProtocol& m, const std::string& in, int level, int windowBits) {
  z_stream zs{};
  if (deflateInit2(&zs, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY) != Z_OK) m.raise("RuntimeError", "zlib: deflateInit failed");
  std::string out;
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  char buf[65536];
  int rc;
  do {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    rc = deflate(&zs, Z_FINISH);
    out.append(buf, sizeof buf - zs.avail_out);
  } while (rc == Z_OK);
  deflateEnd(&zs);
  return out;
}

uint64_t le(const std::string& d, size_t at, size_t n) {
  uint64_t v = 0;
  for (size_t k = 0; k < n && at + k < d.size(); ++k) v |= static_cast<uint64_t>(static_cast<unsigned char>(d[at + k])) << (8 * k);
  return v;
}

std::shared_ptr<ModuleObj> makeArchiveNative(Interpreter& in) {
  ObjectProtocol* mp = &protocolOf(in);
  auto mod = makeModule("_archive");
  Namespace& ns = mod->globals->vars;
  defineNative(ns, "inflate", "data, wbits", [mp](CallContext& c) -> Value {
    return makeBytes(inflateAll(*mp, bytesArg(c, c.arg(0)), static_cast<int>(c.toInt(c.arg(1))), "zlib"));
  });
  defineNative(ns, "deflate", "data, level, wbits", [mp](CallContext& c) -> Value {
    return makeBytes(deflateAll(*mp, bytesArg(c, c.arg(0)), static_cast<int>(c.toInt(c.arg(1))), static_cast<int>(c.toInt(c.arg(2)))));
  });
  defineNative(ns, "crc32", "data, value=0", [](CallContext& c) -> Value {
    std::string d = bytesArg(c, c.arg(0));
    return makeInt(static_cast<int64_t>(::crc32(static_cast<uLong>(c.toInt(c.arg(1))), reinterpret_cast<const Bytef*>(d.data()), static_cast<uInt>(d.size()))));
  });
  defineNative(ns, "read_file", "path", [mp](CallContext& c) -> Value {
    if (mp->abstract()) return unknown();
    std::string p = c.toStr(c.arg(0));
    std::error_code ec;
    if (fs::is_directory(p, ec)) mp->raise("IsADirectoryError", "[Errno 21] Is a directory: " + reprString(p));
    std::ifstream f(p, std::ios::binary);
    if (!f) mp->raise("FileNotFoundError", "[Errno 2] No such file or directory: " + reprString(p));
    std::ostringstream ss;
    ss << f.rdbuf();
    return makeBytes(ss.str());
  });
  auto write = defineNative(ns, "write_file", "path, data", [mp](CallContext& c) -> Value {
    std::string p = c.toStr(c.arg(0));
    std::string d = bytesArg(c, c.arg(1));
    std::error_code ec;
    fs::path parent = fs::path(p).parent_path();
    if (!parent.empty()) fs::create_directories(parent, ec);
    std::ofstream f(p, std::ios::binary | std::ios::trunc);
    if (!f) mp->raise("FileNotFoundError", "[Errno 2] No such file or directory: " + reprString(p));
    f.write(d.data(), static_cast<std::streamsize>(d.size()));
    return none();
  });
  write->sideEffecting = true;
  auto mkdir = defineNative(ns, "make_dirs", "path", [](CallContext& c) -> Value {
    std::error_code ec;
    fs::create_directories(c.toStr(c.arg(0)), ec);
    return none();
  });
  mkdir->sideEffecting = true;
  // [(name, method, compressed size, size, data offset)] from a zip file's central directory.
  defineNative(ns, "zip_index", "data", [mp](CallContext& c) -> Value {
    std::string d = bytesArg(c, c.arg(0));
    auto bad = [&](const std::string& why) { mp->valueError(why); };
    if (d.size() < 22) bad("File is not a zip file");
    size_t eocd = std::string::npos;
    for (size_t i = d.size() - 22 + 1; i-- > 0 && d.size() - i <= 65557;)
      if (le(d, i, 4) == 0x06054b50) {
        eocd = i;
        break;
      }
    if (eocd == std::string::npos) bad("File is not a zip file");
    uint64_t count = le(d, eocd + 10, 2), cdOffset = le(d, eocd + 16, 4);
    if (count == 0xffff || cdOffset == 0xffffffff) mp->raise("NotImplementedError", "tensorlens: ZIP64 archives are not supported");
    std::vector<Value> out;
    size_t p = static_cast<size_t>(cdOffset);
    for (uint64_t k = 0; k < count; ++k) {
      if (p + 46 > d.size() || le(d, p, 4) != 0x02014b50) bad("Bad magic number for central directory");
      uint64_t method = le(d, p + 10, 2), csize = le(d, p + 20, 4), usize = le(d, p + 24, 4);
      size_t nlen = le(d, p + 28, 2), elen = le(d, p + 30, 2), clen = le(d, p + 32, 2);
      uint64_t local = le(d, p + 42, 4);
      std::string name = d.substr(p + 46, nlen);
      if (local + 30 > d.size() || le(d, local, 4) != 0x04034b50) bad("Bad magic number for file header");
      uint64_t dataAt = local + 30 + le(d, local + 26, 2) + le(d, local + 28, 2);
      out.push_back(makeTuple({makeStr(name), makeInt(static_cast<int64_t>(method)), makeInt(static_cast<int64_t>(csize)),
                               makeInt(static_cast<int64_t>(usize)), makeInt(static_cast<int64_t>(dataAt))}));
      p += 46 + nlen + elen + clen;
    }
    return makeList(std::move(out));
  });
  // [(name, type, data offset, size)] from a tar archive's headers (ustar and GNU long names).
  defineNative(ns, "tar_index", "data", [mp](CallContext& c) -> Value {
    std::string d = bytesArg(c, c.arg(0));
    std::vector<Value> out;
    std::string longName;
    auto field = [&](size_t at, size_t n) {
      std::string s = d.substr(at, n);
      size_t z = s.find('\0');
      return z == std::string::npos ? s : s.substr(0, z);
    };
    for (size_t p = 0; p + 512 <= d.size();) {
      if (d.compare(p, 512, std::string(512, '\0')) == 0) break;
      std::string sizeText = field(p + 124, 12);
      uint64_t size = 0;
      for (char ch : sizeText)
        if (ch >= '0' && ch <= '7') size = size * 8 + static_cast<uint64_t>(ch - '0');
      char type = d[p + 156] ? d[p + 156] : '0';
      std::string name = field(p, 100);
      if (d.compare(p + 257, 5, "ustar") == 0) {
        std::string prefix = field(p + 345, 155);
        if (!prefix.empty()) name = prefix + "/" + name;
      }
      size_t dataAt = p + 512;
      if (dataAt + size > d.size()) mp->valueError("unexpected end of data");
      p = dataAt + (size + 511) / 512 * 512;
      if (type == 'L') {
        longName = field(dataAt, size);
        continue;
      }
      if (type == 'x' || type == 'g') continue;  // pax headers: names kept from the ustar header
      if (!longName.empty()) {
        name = longName;
        longName.clear();
      }
      out.push_back(makeTuple({makeStr(name), makeStr(std::string(1, type)), makeInt(static_cast<int64_t>(dataAt)),
                               makeInt(static_cast<int64_t>(size))}));
    }
    return makeList(std::move(out));
  });
  return mod;
}

const char* kZlib = R"PY(
import _archive

MAX_WBITS = 15
DEFLATED = 8
Z_DEFAULT_COMPRESSION = -1


class error(Exception):
    pass


def compress(data, level=-1, wbits=15):
    return _archive.deflate(data, level, wbits)


def decompress(data, wbits=15, bufsize=16384):
    return _archive.inflate(data, wbits)


def crc32(data, value=0):
    return _archive.crc32(data, value)
)PY";

const char* kGzip = R"PY(
import _archive
import io


class BadGzipFile(OSError):
    pass


def compress(data, compresslevel=9, *, mtime=None):
    return _archive.deflate(data, compresslevel, 31)


def decompress(data):
    return _archive.inflate(data, 47)


class GzipFile(io.BytesIO):
    def __init__(self, filename=None, mode=None, compresslevel=9, fileobj=None, mtime=None):
        mode = mode or 'rb'
        self.name = filename
        self.mode = mode
        self._level = compresslevel
        self._fileobj = fileobj
        self._writing = 'w' in mode or 'a' in mode or 'x' in mode
        if self._writing:
            io.BytesIO.__init__(self)
        else:
            raw = fileobj.read() if fileobj is not None else _archive.read_file(filename)
            if raw[:2] != b'\x1f\x8b':
                raise BadGzipFile('Not a gzipped file (%r)' % raw[:2])
            io.BytesIO.__init__(self, _archive.inflate(raw, 31))

    def close(self):
        if self.closed:
            return
        if self._writing:
            data = _archive.deflate(self.getvalue(), self._level, 31)
            if self._fileobj is not None:
                self._fileobj.write(data)
            else:
                _archive.write_file(self.name, data)
        io.BytesIO.close(self)


def open(filename, mode='rb', compresslevel=9, encoding=None, errors=None, newline=None):
    binary = GzipFile(filename, mode.replace('t', '').replace('b', '') + 'b', compresslevel)
    if 't' in mode:
        if 'r' in mode:
            return io.StringIO(binary.read().decode(encoding or 'utf-8'))
        return _TextWriter(binary, encoding or 'utf-8')
    return binary


class _TextWriter(io.StringIO):
    def __init__(self, binary, encoding):
        io.StringIO.__init__(self)
        self._binary = binary
        self._encoding = encoding

    def close(self):
        if not self.closed:
            self._binary.write(self.getvalue().encode(self._encoding))
            self._binary.close()
        io.StringIO.close(self)
)PY";

const char* kZipfile = R"PY(
import _archive
import io
import os

ZIP_STORED = 0
ZIP_DEFLATED = 8


class BadZipFile(Exception):
    pass


BadZipfile = BadZipFile


class ZipInfo:
    def __init__(self, filename, method, compress_size, file_size, offset):
        self.filename = filename
        self.compress_type = method
        self.compress_size = compress_size
        self.file_size = file_size
        self._offset = offset

    def is_dir(self):
        return self.filename.endswith('/')

    def __repr__(self):
        return '<ZipInfo filename=%r file_size=%d>' % (self.filename, self.file_size)


class ZipFile:
    def __init__(self, file, mode='r', compression=ZIP_STORED, allowZip64=True, compresslevel=None):
        if mode != 'r':
            raise NotImplementedError('tensorlens: zipfile reads archives only (mode %r)' % mode)
        self.filename = file if isinstance(file, str) else getattr(file, 'name', None)
        self._data = _archive.read_file(file) if isinstance(file, str) else file.read()
        try:
            index = _archive.zip_index(self._data)
        except ValueError as e:
            raise BadZipFile(str(e)) from None
        self._infos = [ZipInfo(*t) for t in index]
        self._by_name = {i.filename: i for i in self._infos}

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.close()

    def close(self):
        pass

    def namelist(self):
        return [i.filename for i in self._infos]

    def infolist(self):
        return list(self._infos)

    def getinfo(self, name):
        if name not in self._by_name:
            raise KeyError('There is no item named %r in the archive' % name)
        return self._by_name[name]

    def read(self, name, pwd=None):
        info = name if isinstance(name, ZipInfo) else self.getinfo(name)
        raw = self._data[info._offset:info._offset + info.compress_size]
        if info.compress_type == ZIP_STORED:
            return raw
        if info.compress_type == ZIP_DEFLATED:
            return _archive.inflate(raw, -15)
        raise NotImplementedError('tensorlens: zip compression method %d is not supported' % info.compress_type)

    def open(self, name, mode='r', pwd=None):
        return io.BytesIO(self.read(name))

    def extract(self, member, path=None, pwd=None):
        info = member if isinstance(member, ZipInfo) else self.getinfo(member)
        target = os.path.join(path or '.', info.filename)
        if info.is_dir():
            _archive.make_dirs(target)
        else:
            _archive.write_file(target, self.read(info))
        return target

    def extractall(self, path=None, members=None, pwd=None):
        for m in (members if members is not None else self._infos):
            self.extract(m, path)

    def testzip(self):
        return None


def is_zipfile(filename):
    try:
        ZipFile(filename)
        return True
    except Exception:
        return False
)PY";

const char* kTarfile = R"PY(
import _archive
import io
import os


class TarError(Exception):
    pass


class ReadError(TarError):
    pass


class TarInfo:
    def __init__(self, name, type, offset, size):
        self.name = name
        self.type = type
        self.offset_data = offset
        self.size = size

    def isfile(self):
        return self.type in ('0', '7')

    isreg = isfile

    def isdir(self):
        return self.type == '5'

    def issym(self):
        return self.type == '2'

    def __repr__(self):
        return '<TarInfo %r>' % self.name


class TarFile:
    def __init__(self, name=None, mode='r', fileobj=None):
        if 'w' in mode or 'a' in mode or 'x' in mode:
            raise NotImplementedError('tensorlens: tarfile reads archives only (mode %r)' % mode)
        self.name = name
        data = fileobj.read() if fileobj is not None else _archive.read_file(name)
        if data[:2] == b'\x1f\x8b':
            data = _archive.inflate(data, 31)
        elif data[:3] == b'BZh' or data[:6] == b'\xfd7zXZ\x00':
            raise NotImplementedError('tensorlens: bz2 and xz tar archives are not supported (gzip and plain are)')
        self._data = data
        try:
            index = _archive.tar_index(data)
        except ValueError as e:
            raise ReadError(str(e)) from None
        self.members = [TarInfo(*t) for t in index]

    def __enter__(self):
        return self

    def __exit__(self, *args):
        self.close()

    def __iter__(self):
        return iter(self.members)

    def close(self):
        pass

    def getmembers(self):
        return list(self.members)

    def getnames(self):
        return [m.name for m in self.members]

    def getmember(self, name):
        for m in reversed(self.members):
            if m.name == name:
                return m
        raise KeyError('filename %r not found' % name)

    def extractfile(self, member):
        m = member if isinstance(member, TarInfo) else self.getmember(member)
        if m.isdir():
            return None
        return io.BytesIO(self._data[m.offset_data:m.offset_data + m.size])

    def extract(self, member, path='', set_attrs=True, numeric_owner=False, filter=None):
        m = member if isinstance(member, TarInfo) else self.getmember(member)
        target = os.path.join(path or '.', m.name)
        if m.isdir():
            _archive.make_dirs(target)
        elif m.isfile():
            _archive.write_file(target, self._data[m.offset_data:m.offset_data + m.size])

    def extractall(self, path='.', members=None, numeric_owner=False, filter=None):
        for m in (members if members is not None else self.members):
            self.extract(m, path)


def open(name=None, mode='r', fileobj=None, bufsize=10240, **kwargs):
    return TarFile(name, mode.split(':')[0].replace('|', ''), fileobj)


def is_tarfile(name):
    try:
        open(name)
        return True
    except Exception:
        return False
)PY";

}  // namespace

void registerArchiveModules(ModuleRegistry& r) {
  r.add("_archive", makeArchiveNative);
  r.addSource("zlib", kZlib);
  r.addSource("gzip", kGzip);
  r.addSource("zipfile", kZipfile);
  r.addSource("tarfile", kTarfile);
}

}  // namespace tlens::interp
