// datetime: date, time, datetime and timedelta in Python over one native clock reading. Abstract
// mode reads no clock: now()/today()/utcnow() are Unknown (so is everything computed from them).
#include <chrono>
#include <cmath>
#include <ctime>

#include "lang/interp/ObjectProtocol.h"
#include "lang/interp/StdModules.h"
#include "lang/interp/StdModules.h"

namespace tlens::interp {
namespace {

std::shared_ptr<ModuleObj> makeDatetimeNative(Interpreter& in) {
  ObjectProtocol* mp = &protocolOf(in);
  auto mod = makeModule("_datetime");
  // (year, month, day, hour, minute, second, microsecond) now, in UTC or local time; or for a
  // POSIX timestamp.
  defineNative(mod->globals->vars, "now", "utc, timestamp=None", [mp](CallContext& c) -> Value {
    double ts;
    if (!isNone(c.arg(1))) ts = c.toDouble(c.arg(1));
    else {
      if (mp->abstract()) return unknownOf(mp->types.tuple);
      ts = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
    }
    std::time_t secs = static_cast<std::time_t>(std::floor(ts));
    int64_t micros = static_cast<int64_t>(std::llround((ts - static_cast<double>(secs)) * 1e6));
    if (micros >= 1000000) {
      ++secs;
      micros -= 1000000;
    }
    std::tm tm{};
    if (c.toBool(c.arg(0))) gmtime_r(&secs, &tm);
    else localtime_r(&secs, &tm);
    return makeTuple({makeInt(tm.tm_year + 1900), makeInt(tm.tm_mon + 1), makeInt(tm.tm_mday), makeInt(tm.tm_hour),
                      makeInt(tm.tm_min), makeInt(tm.tm_sec), makeInt(micros)});
  });
  // Seconds since the epoch of a local (or UTC) broken-down time.
  defineNative(mod->globals->vars, "mktime", "utc, y, mo, d, h, mi, s", [](CallContext& c) -> Value {
    std::tm tm{};
    tm.tm_year = static_cast<int>(c.toInt(c.arg(1))) - 1900;
    tm.tm_mon = static_cast<int>(c.toInt(c.arg(2))) - 1;
    tm.tm_mday = static_cast<int>(c.toInt(c.arg(3)));
    tm.tm_hour = static_cast<int>(c.toInt(c.arg(4)));
    tm.tm_min = static_cast<int>(c.toInt(c.arg(5)));
    tm.tm_sec = static_cast<int>(c.toInt(c.arg(6)));
    tm.tm_isdst = -1;
    std::time_t t = c.toBool(c.arg(0)) ? timegm(&tm) : std::mktime(&tm);
    return makeInt(static_cast<int64_t>(t));
  });
  return mod;
}

const char* kDatetime = R"PY(
import _datetime

MINYEAR = 1
MAXYEAR = 9999
_DAYS_IN_MONTH = [-1, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
_DAYS_BEFORE_MONTH = [-1]
_dbm = 0
for _dim in _DAYS_IN_MONTH[1:]:
    _DAYS_BEFORE_MONTH.append(_dbm)
    _dbm += _dim
_MONTHNAMES = [None, 'Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
_FULLMONTHS = [None, 'January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September',
               'October', 'November', 'December']
_DAYNAMES = [None, 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']
_FULLDAYS = [None, 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']


def _is_leap(year):
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _days_in_month(year, month):
    if month == 2 and _is_leap(year):
        return 29
    return _DAYS_IN_MONTH[month]


def _days_before_year(year):
    y = year - 1
    return y * 365 + y // 4 - y // 100 + y // 400


def _ymd2ord(year, month, day):
    return _days_before_year(year) + _DAYS_BEFORE_MONTH[month] + (month > 2 and _is_leap(year)) + day


def _ord2ymd(n):
    n -= 1
    n400, n = divmod(n, 146097)
    year = n400 * 400 + 1
    n100, n = divmod(n, 36524)
    n4, n = divmod(n, 1461)
    n1, n = divmod(n, 365)
    year += n100 * 100 + n4 * 4 + n1
    if n1 == 4 or n100 == 4:
        return year - 1, 12, 31
    leapyear = n1 == 3 and (n4 != 24 or n100 == 3)
    month = (n + 50) >> 5
    preceding = _DAYS_BEFORE_MONTH[month] + (month > 2 and leapyear)
    if preceding > n:
        month -= 1
        preceding -= _DAYS_IN_MONTH[month] + (month == 2 and leapyear)
    n -= preceding
    return year, month, n + 1


def _check_date(year, month, day):
    if not MINYEAR <= year <= MAXYEAR:
        raise ValueError('year %d is out of range' % year)
    if not 1 <= month <= 12:
        raise ValueError('month must be in 1..12')
    if not 1 <= day <= _days_in_month(year, month):
        raise ValueError('day is out of range for month')


def _check_time(hour, minute, second, microsecond):
    if not 0 <= hour <= 23:
        raise ValueError('hour must be in 0..23')
    if not 0 <= minute <= 59:
        raise ValueError('minute must be in 0..59')
    if not 0 <= second <= 59:
        raise ValueError('second must be in 0..59')
    if not 0 <= microsecond <= 999999:
        raise ValueError('microsecond must be in 0..999999')


def _format(fmt, y, mo, d, h, mi, s, us, weekday, yday):
    out = []
    i = 0
    n = len(fmt)
    while i < n:
        ch = fmt[i]
        if ch != '%' or i + 1 == n:
            out.append(ch)
            i += 1
            continue
        c = fmt[i + 1]
        i += 2
        if c == 'Y':
            out.append('%04d' % y if y >= 1000 else str(y))
        elif c == 'm':
            out.append('%02d' % mo)
        elif c == 'd':
            out.append('%02d' % d)
        elif c == 'H':
            out.append('%02d' % h)
        elif c == 'M':
            out.append('%02d' % mi)
        elif c == 'S':
            out.append('%02d' % s)
        elif c == 'f':
            out.append('%06d' % us)
        elif c == 'y':
            out.append('%02d' % (y % 100))
        elif c == 'j':
            out.append('%03d' % yday)
        elif c == 'a':
            out.append(_DAYNAMES[weekday + 1])
        elif c == 'A':
            out.append(_FULLDAYS[weekday + 1])
        elif c == 'w':
            out.append(str((weekday + 1) % 7))
        elif c == 'b' or c == 'h':
            out.append(_MONTHNAMES[mo])
        elif c == 'B':
            out.append(_FULLMONTHS[mo])
        elif c == 'p':
            out.append('AM' if h < 12 else 'PM')
        elif c == 'I':
            out.append('%02d' % (h % 12 or 12))
        elif c == 'e':
            out.append('%2d' % d)
        elif c == 'z' or c == 'Z':
            pass
        elif c == '%':
            out.append('%')
        elif c == 'F':
            out.append('%04d-%02d-%02d' % (y, mo, d))
        elif c == 'T':
            out.append('%02d:%02d:%02d' % (h, mi, s))
        elif c == 'D':
            out.append('%02d/%02d/%02d' % (mo, d, y % 100))
        elif c == 'c':
            out.append('%s %s %2d %02d:%02d:%02d %04d' % (_DAYNAMES[weekday + 1], _MONTHNAMES[mo], d, h, mi, s, y))
        elif c == 'x':
            out.append('%02d/%02d/%02d' % (mo, d, y % 100))
        elif c == 'X':
            out.append('%02d:%02d:%02d' % (h, mi, s))
        else:
            out.append('%' + c)
    return ''.join(out)


class timedelta:
    def __init__(self, days=0, seconds=0, microseconds=0, milliseconds=0, minutes=0, hours=0, weeks=0):
        total = (days + weeks * 7) * 86400.0 + seconds + minutes * 60 + hours * 3600
        us = microseconds + milliseconds * 1000
        if all(isinstance(x, int) for x in (days, seconds, microseconds, milliseconds, minutes, hours, weeks)):
            t = ((days + weeks * 7) * 86400 + seconds + minutes * 60 + hours * 3600) * 1000000 + us
        else:
            t = round(total * 1000000 + us)
        d, rem = divmod(t, 86400 * 1000000)
        s, us = divmod(rem, 1000000)
        if abs(d) > 999999999:
            raise OverflowError('days=%d; must have magnitude <= 999999999' % d)
        self._days = d
        self._seconds = s
        self._microseconds = us

    @property
    def days(self):
        return self._days

    @property
    def seconds(self):
        return self._seconds

    @property
    def microseconds(self):
        return self._microseconds

    def _us(self):
        return (self._days * 86400 + self._seconds) * 1000000 + self._microseconds

    def total_seconds(self):
        return self._us() / 10 ** 6

    def __repr__(self):
        args = []
        if self._days:
            args.append('days=%d' % self._days)
        if self._seconds:
            args.append('seconds=%d' % self._seconds)
        if self._microseconds:
            args.append('microseconds=%d' % self._microseconds)
        return 'datetime.timedelta(%s)' % (', '.join(args) if args else '0')

    def __str__(self):
        mm, ss = divmod(self._seconds, 60)
        hh, mm = divmod(mm, 60)
        s = '%d:%02d:%02d' % (hh, mm, ss)
        if self._days:
            s = '%d day%s, ' % (self._days, 's' if abs(self._days) != 1 else '') + s
        if self._microseconds:
            s = s + '.%06d' % self._microseconds
        return s

    def __add__(self, other):
        if isinstance(other, timedelta):
            return timedelta(microseconds=self._us() + other._us())
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, timedelta):
            return timedelta(microseconds=self._us() - other._us())
        return NotImplemented

    def __neg__(self):
        return timedelta(microseconds=-self._us())

    def __pos__(self):
        return self

    def __abs__(self):
        return -self if self._days < 0 else self

    def __mul__(self, other):
        if isinstance(other, (int, float)):
            return timedelta(microseconds=round(self._us() * other))
        return NotImplemented

    __rmul__ = __mul__

    def __truediv__(self, other):
        if isinstance(other, timedelta):
            return self._us() / other._us()
        return timedelta(microseconds=round(self._us() / other))

    def __floordiv__(self, other):
        if isinstance(other, timedelta):
            return self._us() // other._us()
        return timedelta(microseconds=self._us() // other)

    def __eq__(self, other):
        return isinstance(other, timedelta) and self._us() == other._us()

    def __ne__(self, other):
        return not self.__eq__(other)

    def __lt__(self, other):
        return self._us() < other._us()

    def __le__(self, other):
        return self._us() <= other._us()

    def __gt__(self, other):
        return self._us() > other._us()

    def __ge__(self, other):
        return self._us() >= other._us()

    def __hash__(self):
        return hash(self._us())

    def __bool__(self):
        return self._us() != 0


def _td(d, s, us):
    t = timedelta()
    t._days = d
    t._seconds = s
    t._microseconds = us
    return t


# (their microsecond counts pass 64 bits: built field by field)
timedelta.min = _td(-999999999, 0, 0)
timedelta.max = _td(999999999, 86399, 999999)
timedelta.resolution = timedelta(microseconds=1)


class tzinfo:
    pass


class timezone(tzinfo):
    def __init__(self, offset, name=None):
        self._offset = offset
        self._name = name

    def utcoffset(self, dt):
        return self._offset


timezone.utc = timezone(timedelta(0), 'UTC')


class date:
    def __init__(self, year, month=None, day=None):
        _check_date(year, month, day)
        self._year = year
        self._month = month
        self._day = day

    @property
    def year(self):
        return self._year

    @property
    def month(self):
        return self._month

    @property
    def day(self):
        return self._day

    @classmethod
    def today(cls):
        t = _datetime.now(False)
        return cls(t[0], t[1], t[2])

    @classmethod
    def fromordinal(cls, n):
        y, m, d = _ord2ymd(n)
        return cls(y, m, d)

    @classmethod
    def fromisoformat(cls, s):
        return cls(int(s[0:4]), int(s[5:7]), int(s[8:10]))

    @classmethod
    def fromtimestamp(cls, t):
        v = _datetime.now(False, t)
        return cls(v[0], v[1], v[2])

    def toordinal(self):
        return _ymd2ord(self._year, self._month, self._day)

    def weekday(self):
        return (self.toordinal() + 6) % 7

    def isoweekday(self):
        return self.weekday() + 1

    def isoformat(self):
        return '%04d-%02d-%02d' % (self._year, self._month, self._day)

    def __str__(self):
        return self.isoformat()

    def __repr__(self):
        return 'datetime.date(%d, %d, %d)' % (self._year, self._month, self._day)

    def _yday(self):
        return self.toordinal() - _ymd2ord(self._year, 1, 1) + 1

    def strftime(self, fmt):
        return _format(fmt, self._year, self._month, self._day, 0, 0, 0, 0, self.weekday(), self._yday())

    def __format__(self, spec):
        return self.strftime(spec) if spec else str(self)

    def timetuple(self):
        return (self._year, self._month, self._day, 0, 0, 0, self.weekday(), self._yday(), -1)

    def replace(self, year=None, month=None, day=None):
        return type(self)(self._year if year is None else year, self._month if month is None else month,
                          self._day if day is None else day)

    def _cmpkey(self):
        return (self._year, self._month, self._day)

    def __eq__(self, other):
        return type(other) is type(self) and self._cmpkey() == other._cmpkey()

    def __ne__(self, other):
        return not self.__eq__(other)

    def __lt__(self, other):
        return self._cmpkey() < other._cmpkey()

    def __le__(self, other):
        return self._cmpkey() <= other._cmpkey()

    def __gt__(self, other):
        return self._cmpkey() > other._cmpkey()

    def __ge__(self, other):
        return self._cmpkey() >= other._cmpkey()

    def __hash__(self):
        return hash(self._cmpkey())

    def __add__(self, other):
        if isinstance(other, timedelta):
            return type(self).fromordinal(self.toordinal() + other.days)
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, timedelta):
            return type(self).fromordinal(self.toordinal() - other.days)
        if isinstance(other, date):
            return timedelta(days=self.toordinal() - other.toordinal())
        return NotImplemented


class time:
    def __init__(self, hour=0, minute=0, second=0, microsecond=0, tzinfo=None):
        _check_time(hour, minute, second, microsecond)
        self.hour = hour
        self.minute = minute
        self.second = second
        self.microsecond = microsecond
        self.tzinfo = tzinfo

    def isoformat(self):
        s = '%02d:%02d:%02d' % (self.hour, self.minute, self.second)
        return s + ('.%06d' % self.microsecond if self.microsecond else '')

    def __str__(self):
        return self.isoformat()

    def __repr__(self):
        args = [self.hour, self.minute] + ([self.second] if self.second or self.microsecond else []) + (
            [self.microsecond] if self.microsecond else [])
        return 'datetime.time(%s)' % ', '.join(str(a) for a in args)

    def strftime(self, fmt):
        return _format(fmt, 1900, 1, 1, self.hour, self.minute, self.second, self.microsecond, 0, 1)


class datetime(date):
    def __init__(self, year, month=None, day=None, hour=0, minute=0, second=0, microsecond=0, tzinfo=None):
        date.__init__(self, year, month, day)
        _check_time(hour, minute, second, microsecond)
        self._hour = hour
        self._minute = minute
        self._second = second
        self._microsecond = microsecond
        self._tzinfo = tzinfo

    @property
    def hour(self):
        return self._hour

    @property
    def minute(self):
        return self._minute

    @property
    def second(self):
        return self._second

    @property
    def microsecond(self):
        return self._microsecond

    @property
    def tzinfo(self):
        return self._tzinfo

    @classmethod
    def now(cls, tz=None):
        t = _datetime.now(tz is not None)
        return cls(*t, tzinfo=tz) if tz is not None else cls(*t)

    @classmethod
    def utcnow(cls):
        return cls(*_datetime.now(True))

    @classmethod
    def today(cls):
        return cls(*_datetime.now(False))

    @classmethod
    def fromtimestamp(cls, t, tz=None):
        return cls(*_datetime.now(tz is not None, t))

    @classmethod
    def utcfromtimestamp(cls, t):
        return cls(*_datetime.now(True, t))

    @classmethod
    def combine(cls, d, t):
        return cls(d.year, d.month, d.day, t.hour, t.minute, t.second, t.microsecond)

    @classmethod
    def fromisoformat(cls, s):
        y, mo, d = int(s[0:4]), int(s[5:7]), int(s[8:10])
        h = mi = sec = us = 0
        if len(s) > 10:
            t = s[11:]
            h = int(t[0:2])
            if len(t) >= 5:
                mi = int(t[3:5])
            if len(t) >= 8:
                sec = int(t[6:8])
            if len(t) > 9 and t[8] == '.':
                us = int((t[9:15] + '000000')[:6])
        return cls(y, mo, d, h, mi, sec, us)

    @classmethod
    def strptime(cls, s, fmt):
        vals = {'Y': 1900, 'm': 1, 'd': 1, 'H': 0, 'M': 0, 'S': 0, 'f': 0}
        i = 0
        j = 0
        while i < len(fmt):
            if fmt[i] == '%' and i + 1 < len(fmt):
                c = fmt[i + 1]
                i += 2
                if c == '%':
                    if s[j:j + 1] != '%':
                        raise ValueError("time data %r does not match format %r" % (s, fmt))
                    j += 1
                    continue
                if c in ('b', 'B'):
                    names = _MONTHNAMES if c == 'b' else _FULLMONTHS
                    for k in range(1, 13):
                        if s[j:j + len(names[k])].lower() == names[k].lower():
                            vals['m'] = k
                            j += len(names[k])
                            break
                    else:
                        raise ValueError("time data %r does not match format %r" % (s, fmt))
                    continue
                width = {'Y': 4, 'f': 6}.get(c, 2)
                k = j
                while k < len(s) and k - j < width and s[k].isdigit():
                    k += 1
                if k == j:
                    raise ValueError("time data %r does not match format %r" % (s, fmt))
                v = int(s[j:k])
                if c == 'y':
                    vals['Y'] = v + (2000 if v < 69 else 1900)
                elif c == 'f':
                    vals['f'] = int((s[j:k] + '000000')[:6])
                else:
                    vals[c] = v
                j = k
            else:
                if j >= len(s) or s[j] != fmt[i]:
                    raise ValueError("time data %r does not match format %r" % (s, fmt))
                i += 1
                j += 1
        if j != len(s):
            raise ValueError('unconverted data remains: %s' % s[j:])
        return cls(vals['Y'], vals['m'], vals['d'], vals['H'], vals['M'], vals['S'], vals['f'])

    def date(self):
        return date(self._year, self._month, self._day)

    def time(self):
        return time(self._hour, self._minute, self._second, self._microsecond)

    def timestamp(self):
        return _datetime.mktime(False, self._year, self._month, self._day, self._hour, self._minute,
                                self._second) + self._microsecond / 1e6

    def isoformat(self, sep='T', timespec='auto'):
        s = '%04d-%02d-%02d%s%02d:%02d:%02d' % (self._year, self._month, self._day, sep, self._hour, self._minute,
                                                self._second)
        if self._microsecond:
            s += '.%06d' % self._microsecond
        return s

    def __str__(self):
        return self.isoformat(' ')

    def __repr__(self):
        args = [self._year, self._month, self._day, self._hour, self._minute]
        if self._second or self._microsecond:
            args.append(self._second)
        if self._microsecond:
            args.append(self._microsecond)
        return 'datetime.datetime(%s)' % ', '.join(str(a) for a in args)

    def strftime(self, fmt):
        return _format(fmt, self._year, self._month, self._day, self._hour, self._minute, self._second,
                       self._microsecond, self.weekday(), self._yday())

    def timetuple(self):
        return (self._year, self._month, self._day, self._hour, self._minute, self._second, self.weekday(),
                self._yday(), -1)

    def replace(self, year=None, month=None, day=None, hour=None, minute=None, second=None, microsecond=None):
        def pick(a, b):
            return b if a is None else a
        return datetime(pick(year, self._year), pick(month, self._month), pick(day, self._day), pick(hour, self._hour),
                        pick(minute, self._minute), pick(second, self._second), pick(microsecond, self._microsecond))

    def _us(self):
        return ((self.toordinal() * 86400 + self._hour * 3600 + self._minute * 60 + self._second) * 1000000
                + self._microsecond)

    def _cmpkey(self):
        return self._us()

    def __add__(self, other):
        if isinstance(other, timedelta):
            return _from_us(self._us() + other._us())
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other):
        if isinstance(other, timedelta):
            return _from_us(self._us() - other._us())
        if isinstance(other, datetime):
            return timedelta(microseconds=self._us() - other._us())
        return NotImplemented


def _from_us(us):
    days, rem = divmod(us, 86400 * 1000000)
    secs, micro = divmod(rem, 1000000)
    y, m, d = _ord2ymd(days)
    hh, rem = divmod(secs, 3600)
    mm, ss = divmod(rem, 60)
    return datetime(y, m, d, hh, mm, ss, micro)


date.min = date(1, 1, 1)
date.max = date(9999, 12, 31)
datetime.min = datetime(1, 1, 1)
datetime.max = datetime(9999, 12, 31, 23, 59, 59, 999999)
)PY";

}  // namespace

void registerDatetimeModule(ModuleRegistry& r) {
  r.add("_datetime", makeDatetimeNative);
  r.addSource("datetime", kDatetime);
}

}  // namespace tlens::interp
