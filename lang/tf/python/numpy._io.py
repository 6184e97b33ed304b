# numpy._io: text files: loadtxt (numbers, with comments, delimiter, skiprows, usecols, unpack,
# ndmin, max_rows), genfromtxt (missing fields as nan) and savetxt (fmt, delimiter, newline,
# header, footer), by file name or file object, with numpy's errors for rows that do not parse;
# np.load's .npz archives (NpzFile, read through zipfile) and savez / savez_compressed, which
# write them (a zip of .npy files, stored or deflated, written here with struct and zlib).
# numpy.py re-exports the public names.
import _tlens
import numpy as _np

_int = int
_float = float
_list = list
_tuple = tuple
_range = range


def _fspath(file):
    # A pathlib.Path (os.PathLike) is its file name, as numpy's own os.fspath.
    return file.__fspath__() if hasattr(type(file), "__fspath__") else file


def _read_text(fname):
    fname = _fspath(fname)
    if isinstance(fname, str):
        with open(fname) as f:
            return f.read()
    text = fname.read()
    return text.decode("latin1") if isinstance(text, bytes) else text


def _parse(field, dt, row, col):
    try:
        if dt.is_integer:
            return _int(field)
        if dt == _np.bool_:
            return _bool_of(field)
        return _float(field)
    except ValueError:
        raise ValueError("could not convert string %r to %s at row %d, column %d." % (field, dt, row, col + 1))


def _bool_of(s):
    return _int(s) != 0


def loadtxt(fname, dtype=float, comments="#", delimiter=None, converters=None, skiprows=0, usecols=None, unpack=False,
            ndmin=0, encoding="bytes", max_rows=None, *, quotechar=None, like=None):
    if ndmin not in (0, 1, 2):
        raise ValueError("Illegal value of ndmin keyword: %s" % ndmin)
    dt = _np.float64 if dtype is float else (_np.int64 if dtype is int else _np.dtype(dtype))
    lines = _read_text(fname).splitlines()[skiprows:]
    marks = [] if comments is None else ([comments] if isinstance(comments, str) else _list(comments))
    cols = None if usecols is None else ([usecols] if isinstance(usecols, _int) else _list(usecols))
    rows = []
    width = None
    for line in lines:
        for m in marks:
            k = line.find(m)
            if k >= 0:
                line = line[:k]
        line = line.strip("\r\n")
        if not line.strip():
            continue
        fields = line.split(delimiter) if delimiter is not None else line.split()
        if cols is not None:
            fields = [fields[c] for c in cols]
        r = len(rows)
        vals = []
        for c, fv in enumerate(fields):
            conv = converters.get(c) if isinstance(converters, dict) else converters
            vals.append(conv(fv) if conv is not None else _parse(fv.strip(), dt, r, c))
        if width is None:
            width = len(vals)
        elif len(vals) != width:
            raise ValueError("the number of columns changed from %d to %d at row %d; use `usecols` to select a subset "
                             "and avoid this error" % (width, len(vals), r + skiprows + 1))
        rows.append(vals)
        if max_rows is not None and len(rows) >= max_rows:
            break
    if not rows:
        a = _np.zeros((0,), dt)
    else:
        a = _np.array(rows, dt)
        if a.shape[1] == 1 or a.shape[0] == 1:
            a = _np.reshape(a, [-1])
    while a.ndim < ndmin:
        a = _np.reshape(a, [-1, 1]) if a.ndim == 1 else _np.reshape(a, [1])
    if unpack:
        return _np.transpose(a) if a.ndim > 1 else a
    return a


def savetxt(fname, X, fmt="%.18e", delimiter=" ", newline="\n", header="", footer="", comments="# ", encoding=None):
    X = _np.asarray(X)
    if X.ndim == 0 or X.ndim > 2:
        raise ValueError("Expected 1D or 2D array, got %dD array instead" % X.ndim)
    rows = X.tolist()
    if X.ndim == 1:
        rows = [[v] for v in rows]
    ncol = len(rows[0]) if rows else 0
    if isinstance(fmt, (_list, _tuple)):
        if len(fmt) != ncol:
            raise AttributeError("fmt has wrong shape.  %s" % (str(fmt),))
        row_fmt = delimiter.join(fmt)
    elif fmt.count("%") == 1:
        row_fmt = delimiter.join([fmt] * ncol)
    elif fmt.count("%") == ncol:
        row_fmt = fmt
    else:
        raise ValueError("fmt has wrong number of %% formats:  %s" % fmt)
    out = []
    if header:
        out.append(comments + header.replace("\n", "\n" + comments) + newline)
    for r in rows:
        out.append(row_fmt % _tuple(r) + newline)
    if footer:
        out.append(comments + footer.replace("\n", "\n" + comments) + newline)
    text = "".join(out)
    fname = _fspath(fname)
    if isinstance(fname, str):
        with open(fname, "w") as f:
            f.write(text)
    else:
        fname.write(text)


def genfromtxt(fname, dtype=float, comments="#", delimiter=None, skip_header=0, skip_footer=0, converters=None,
               missing_values=None, filling_values=None, usecols=None, names=None, unpack=None, ndmin=0, **kwargs):
    """Numbers of a text file like loadtxt, with empty or missing fields as nan (or filling_values)."""
    if names is not None and names is not False:
        raise NotImplementedError("tensorlens: np.genfromtxt's names (structured arrays) are not supported")
    dt = _np.float64 if dtype is float else (_np.int64 if dtype is int else _np.dtype(dtype))
    fill = _float("nan") if filling_values is None else filling_values
    missing = set([""] + ([] if missing_values is None else ([missing_values] if isinstance(missing_values, str) else _list(missing_values))))
    lines = _read_text(fname).splitlines()[skip_header:]
    if skip_footer:
        lines = lines[:-skip_footer]
    cols = None if usecols is None else ([usecols] if isinstance(usecols, _int) else _list(usecols))
    rows = []
    for line in lines:
        if comments is not None and comments in line:
            line = line[:line.find(comments)]
        if not line.strip():
            continue
        fields = line.split(delimiter) if delimiter is not None else line.split()
        if cols is not None:
            fields = [fields[c] for c in cols]
        row = []
        for c, f in enumerate(fields):
            f = f.strip()
            if f in missing:
                row.append(fill)
            else:
                try:
                    row.append(_parse(f, dt, len(rows), c))
                except ValueError:
                    row.append(fill)
        if rows and len(row) != len(rows[0]):
            raise ValueError("Some errors were detected !\n    Line #%d (got %d columns instead of %d)" % (
                len(rows) + skip_header + 1, len(row), len(rows[0])))
        rows.append(row)
    a = _np.array(rows, dt) if rows else _np.zeros((0,), dt)
    if a.ndim == 2 and (a.shape[0] == 1 or a.shape[1] == 1):
        a = _np.reshape(a, [-1])
    while a.ndim < ndmin:
        a = _np.reshape(a, [1, -1]) if a.ndim == 1 else _np.reshape(a, [1])
    return _np.transpose(a) if unpack and a.ndim > 1 else a


# --- .npz archives -------------------------------------------------------------------------------

def _npy_header_value(header, key):
    """The text of `key`'s value in a .npy header dict ("{'descr': '<f8', 'shape': (3,), ...}")."""
    k = header.find("'" + key + "'")
    if k < 0:
        raise ValueError("Header does not contain the correct keys: %r" % (header,))
    rest = header[header.find(":", k) + 1:].lstrip()
    if rest.startswith("'"):
        return rest[1:rest.find("'", 1)]
    if rest.startswith("("):
        return rest[:rest.find(")") + 1]
    end = len(rest)
    for ch in ",}":
        j = rest.find(ch)
        if 0 <= j < end:
            end = j
    return rest[:end].strip()


def _parse_npy(data, name):
    if data[:6] != b"\x93NUMPY":
        raise ValueError("the magic string is not correct; expected b'\\x93NUMPY', got %r" % (data[:6],))
    major = data[6]
    if major == 1:
        hlen, start = data[8] + 256 * data[9], 10
    else:
        hlen, start = data[8] + 256 * data[9] + 65536 * data[10] + 16777216 * data[11], 12
    header = data[start:start + hlen].decode("latin1")
    descr = _npy_header_value(header, "descr")
    fortran = _npy_header_value(header, "fortran_order") == "True"
    dims = _npy_header_value(header, "shape").strip("()")
    shape = _tuple(_int(d) for d in dims.split(",") if d.strip())
    raw = data[start + hlen:]
    if descr[1:2] in ("O", "U", "S", "V"):
        raise NotImplementedError("tensorlens: arrays of dtype %s in %s are not supported" % (descr, name))
    if fortran and len(shape) > 1:
        return _np.transpose(_tlens.array_from_bytes(raw, descr, shape[::-1]))
    return _tlens.array_from_bytes(raw, descr, shape)


class NpzFile:
    """What np.load returns for a .npz archive: its arrays by name (read when first asked)."""

    def __init__(self, path):
        # Abstract mode (the language server) reads no file: every array is unknown.
        self._abstract = _tlens.is_abstract()
        self._path = path
        if self._abstract:
            self.files, self._names, self._cache, self._zip = [], {}, {}, None
            return
        import zipfile
        self._zip = zipfile.ZipFile(path)
        self.files = [n[:-4] if n.endswith(".npy") else n for n in self._zip.namelist()]
        self._names = dict(zip(self.files, self._zip.namelist()))
        self._cache = {}

    def __getitem__(self, key):
        if self._abstract:
            return _tlens.load_npy(self._path)
        if key not in self._names:
            raise KeyError("%s is not a file in the archive" % key)
        if key not in self._cache:
            self._cache[key] = _parse_npy(self._zip.read(self._names[key]), key)
        return self._cache[key]

    def __contains__(self, key):
        return self._abstract or key in self._names

    def __iter__(self):
        return iter(self.files)

    def __len__(self):
        return len(self.files)

    def keys(self):
        return _list(self.files)

    def values(self):
        return [self[k] for k in self.files]

    def items(self):
        return [(k, self[k]) for k in self.files]

    def get(self, key, default=None):
        return self[key] if key in self._names else default

    def close(self):
        if self._zip is not None:
            self._zip.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


# --- writing .npz archives ---------------------------------------------------------------------

def _npy_bytes(a):
    """The .npy (version 1.0) file of array a, as numpy's np.save writes it."""
    raw, descr, shape = _tlens.array_to_bytes(a)
    dims = "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, dims)
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * (pad % 64) + "\n"
    import struct
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1") + raw


def _zip_bytes(entries, compress):
    """A zip archive of (name, data) entries, stored or raw-deflated (dated 1980-01-01 00:00)."""
    import struct
    import zlib
    out, central, offset = [], [], 0
    for name, data in entries:
        crc = zlib.crc32(data) & 0xFFFFFFFF
        body = zlib.compress(data, 6, -15) if compress else data
        method = 8 if compress else 0
        fname = name.encode("utf-8")
        fields = struct.pack("<HHHHHIIIHH", 20, 0, method, 0, 33, crc, len(body), len(data), len(fname), 0)
        local = struct.pack("<I", 0x04034B50) + fields + fname
        central.append(struct.pack("<IH", 0x02014B50, 20) + fields + struct.pack("<HHHII", 0, 0, 0, 0, offset) + fname)
        out.append(local + body)
        offset += len(local) + len(body)
    cd = b"".join(central)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(entries), len(entries), len(cd), offset, 0)
    return b"".join(out) + cd + end


def _savez(file, args, kwds, compress):
    arrays = {}
    for i, a in enumerate(args):
        key = "arr_%d" % i
        if key in kwds:
            raise ValueError("Cannot use un-named variables and keyword %s" % key)
        arrays[key] = a
    arrays.update(kwds)
    if _tlens.is_abstract():
        return None
    entries = [(k + ".npy", _npy_bytes(_np.asarray(v))) for k, v in arrays.items()]
    data = _zip_bytes(entries, compress)
    file = _fspath(file)
    if isinstance(file, str):
        if not file.endswith(".npz"):
            file = file + ".npz"
        with open(file, "wb") as f:
            f.write(data)
    else:
        file.write(data)


def savez(file, *args, **kwds):
    _savez(file, args, kwds, False)


def savez_compressed(file, *args, **kwds):
    _savez(file, args, kwds, True)
