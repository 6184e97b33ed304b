// urllib and requests: tensorlens never accesses the network. A download in concrete mode fails
// with a clear error naming the URL (urllib.error.URLError, requests' ConnectionError); abstract
// mode does not run it (the refusal is side-effecting) and the result is Unknown. urllib.parse is
// pure and works.
#include "lang/interp/ObjectProtocol.h"
#include "lang/interp/StdModules.h"
#include "lang/interp/StdModules.h"

namespace tlens::interp {
namespace {

std::shared_ptr<ModuleObj> makeNetNative(Interpreter& in) {
  ObjectProtocol* mp = &protocolOf(in);
  auto mod = makeModule("_net");
  // refuse(error_class, what, url): raises error_class("tensorlens does not access the network ...").
  auto refuse = defineNative(mod->globals->vars, "refuse", "error_class, what, url", [mp](CallContext& c) -> Value {
    std::string url = isNone(c.arg(2)) ? std::string("?") : mp->str(c.arg(2));
    std::string msg = "tensorlens does not access the network: " + c.toStr(c.arg(1)) + " " + url +
                      " was not downloaded (put the file on disk and read it from there)";
    mp->raiseValue(mp->call(c.arg(0), {makeStr(msg)}, {}));
  });
  refuse->sideEffecting = true;
  return mod;
}

const char* kUrllibError = R"PY(
class URLError(OSError):
    def __init__(self, reason, filename=None):
        OSError.__init__(self, reason)
        self.reason = reason
        self.filename = filename

    def __str__(self):
        return '<urlopen error %s>' % self.reason


class HTTPError(URLError):
    def __init__(self, url, code, msg, hdrs, fp):
        URLError.__init__(self, msg)
        self.url = url
        self.code = code
        self.msg = msg


class ContentTooShortError(URLError):
    pass
)PY";

const char* kUrllibRequest = R"PY(
import _net
from urllib.error import URLError, HTTPError


class Request:
    def __init__(self, url, data=None, headers={}, origin_req_host=None, unverifiable=False, method=None):
        self.full_url = url
        self.data = data
        self.headers = dict(headers)
        self.method = method

    def add_header(self, key, val):
        self.headers[key] = val

    def get_full_url(self):
        return self.full_url


def _url(u):
    return u.full_url if isinstance(u, Request) else u


def urlopen(url, data=None, timeout=None, *, context=None):
    return _net.refuse(URLError, 'urlopen', _url(url))


def urlretrieve(url, filename=None, reporthook=None, data=None):
    return _net.refuse(URLError, 'urlretrieve', _url(url))


class OpenerDirector:
    addheaders = []

    def open(self, url, data=None, timeout=None):
        return _net.refuse(URLError, 'open', _url(url))


def build_opener(*handlers):
    return OpenerDirector()


def install_opener(opener):
    pass
)PY";

const char* kUrllibParse = R"PY(
class _Result(tuple):
    pass


class ParseResult:
    def __init__(self, scheme, netloc, path, params, query, fragment):
        self.scheme = scheme
        self.netloc = netloc
        self.path = path
        self.params = params
        self.query = query
        self.fragment = fragment
        host = netloc.rsplit('@', 1)[-1]
        self.hostname = host.split(':')[0].lower() or None
        self.port = int(host.split(':')[1]) if ':' in host and host.split(':')[1].isdigit() else None

    def _t(self):
        return (self.scheme, self.netloc, self.path, self.params, self.query, self.fragment)

    def __iter__(self):
        return iter(self._t())

    def __getitem__(self, i):
        return self._t()[i]

    def __len__(self):
        return 6

    def __eq__(self, other):
        return tuple(self._t()) == tuple(other)

    def geturl(self):
        return urlunparse(self._t())

    def __repr__(self):
        return 'ParseResult(scheme=%r, netloc=%r, path=%r, params=%r, query=%r, fragment=%r)' % self._t()


def urlparse(url, scheme='', allow_fragments=True):
    fragment = ''
    if allow_fragments and '#' in url:
        url, fragment = url.split('#', 1)
    query = ''
    if '?' in url:
        url, query = url.split('?', 1)
    i = url.find(':')
    if i > 0 and url[:i].replace('+', '').replace('-', '').replace('.', '').isalnum() and url[0].isalpha():
        scheme, url = url[:i].lower(), url[i + 1:]
    netloc = ''
    if url[:2] == '//':
        rest = url[2:]
        j = len(rest)
        for c in '/?#':
            k = rest.find(c)
            if k >= 0 and k < j:
                j = k
        netloc, url = rest[:j], rest[j:]
    params = ''
    if ';' in url.rsplit('/', 1)[-1]:
        url, params = url.rsplit(';', 1)
    return ParseResult(scheme, netloc, url, params, query, fragment)


urlsplit = urlparse


def urlunparse(parts):
    scheme, netloc, path, params, query, fragment = parts
    url = path
    if params:
        url = url + ';' + params
    if netloc or (scheme and url[:1] == '/'):
        url = '//' + netloc + url
    if scheme:
        url = scheme + ':' + url
    if query:
        url = url + '?' + query
    if fragment:
        url = url + '#' + fragment
    return url


def urljoin(base, url, allow_fragments=True):
    if not base:
        return url
    if not url:
        return base
    u = urlparse(url)
    if u.scheme:
        return url
    b = urlparse(base)
    if url[:2] == '//':
        return b.scheme + ':' + url
    if url[:1] == '/':
        path = url
    else:
        path = b.path.rsplit('/', 1)[0] + '/' + url
    segs = []
    for s in path.split('/'):
        if s == '..':
            if len(segs) > 1:
                segs.pop()
        elif s != '.':
            segs.append(s)
    if path.endswith('/.') or path.endswith('/..'):
        segs.append('')
    return urlunparse((b.scheme, b.netloc, '/'.join(segs), '', '', ''))


_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~'


def quote(string, safe='/', encoding=None, errors=None):
    out = []
    for ch in string:
        if ch in _SAFE or ch in safe:
            out.append(ch)
        else:
            for b in ch.encode('utf-8'):
                out.append('%%%02X' % b)
    return ''.join(out)


def quote_plus(string, safe=''):
    return quote(string, safe + ' ').replace(' ', '+')


def unquote(string, encoding='utf-8', errors='replace'):
    if '%' not in string:
        return string
    out = b''
    i = 0
    while i < len(string):
        c = string[i]
        if c == '%' and i + 2 < len(string) + 0 and all(x in '0123456789abcdefABCDEF' for x in string[i + 1:i + 3]) and len(string[i + 1:i + 3]) == 2:
            out += bytes([int(string[i + 1:i + 3], 16)])
            i += 3
        else:
            out += c.encode('utf-8')
            i += 1
    return out.decode(encoding, errors)


def unquote_plus(string, encoding='utf-8', errors='replace'):
    return unquote(string.replace('+', ' '), encoding, errors)


def urlencode(query, doseq=False, safe='', encoding=None, errors=None):
    items = query.items() if hasattr(query, 'items') else query
    out = []
    for k, v in items:
        if doseq and isinstance(v, (list, tuple)):
            for x in v:
                out.append(quote_plus(str(k), safe) + '=' + quote_plus(str(x), safe))
        else:
            out.append(quote_plus(str(k), safe) + '=' + quote_plus(str(v), safe))
    return '&'.join(out)


def parse_qs(qs, keep_blank_values=False):
    out = {}
    for k, v in parse_qsl(qs, keep_blank_values):
        out.setdefault(k, []).append(v)
    return out


def parse_qsl(qs, keep_blank_values=False):
    out = []
    for part in qs.replace(';', '&').split('&'):
        if not part:
            continue
        k, _, v = part.partition('=')
        if v or keep_blank_values:
            out.append((unquote_plus(k), unquote_plus(v)))
    return out
)PY";

const char* kRequests = R"PY(
import _net


class RequestException(OSError):
    pass


class ConnectionError(RequestException):
    pass


class HTTPError(RequestException):
    pass


class Timeout(RequestException):
    pass


class _Exceptions:
    RequestException = RequestException
    ConnectionError = ConnectionError
    HTTPError = HTTPError
    Timeout = Timeout


exceptions = _Exceptions


def request(method, url, **kwargs):
    return _net.refuse(ConnectionError, 'requests.' + method.lower(), url)


def get(url, params=None, **kwargs):
    return request('GET', url)


def post(url, data=None, json=None, **kwargs):
    return request('POST', url)


def put(url, data=None, **kwargs):
    return request('PUT', url)


def delete(url, **kwargs):
    return request('DELETE', url)


def head(url, **kwargs):
    return request('HEAD', url)


def patch(url, data=None, **kwargs):
    return request('PATCH', url)


class Session:
    def __init__(self):
        self.headers = {}

    def __enter__(self):
        return self

    def __exit__(self, *args):
        pass

    def request(self, method, url, **kwargs):
        return request(method, url)

    def get(self, url, **kwargs):
        return request('GET', url)

    def post(self, url, **kwargs):
        return request('POST', url)

    def close(self):
        pass
)PY";

}  // namespace

void registerNetworkModules(ModuleRegistry& r) {
  r.add("_net", makeNetNative);
  r.addSource("urllib", "");
  r.addSource("urllib.error", kUrllibError);
  r.addSource("urllib.request", kUrllibRequest);
  r.addSource("urllib.parse", kUrllibParse);
  r.addSource("requests", kRequests);
  r.addSource("requests.exceptions", "from requests import RequestException, ConnectionError, HTTPError, Timeout\n");
}

}  // namespace tlens::interp
