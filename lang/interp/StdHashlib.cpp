// hashlib: md5, sha1, the SHA-2 and SHA-3 families, computed by OpenSSL's libcrypto (EVP
// digests; libssl-dev). Data: bytes, bytearray, numpy arrays and scalars (their bytes). The native `_hashlib` makes hash objects; the `hashlib` module below gives
// CPython's constructors. In abstract mode an Unknown update makes the object's digests Unknown.
#include <openssl/evp.h>

#include <algorithm>
#include <cctype>
#include <memory>

#include "lang/interp/Bytes.h"
#include "lang/interp/Class.h"
#include "lang/interp/Imports.h"
#include "lang/interp/StdModules.h"

namespace tlens::interp {
namespace {

/// Python's name and OpenSSL's, for every algorithm offered.
struct Algorithm {
  const char* python;
  const char* openssl;
};
constexpr Algorithm kAlgorithms[] = {
    {"md5", "MD5"},           {"sha1", "SHA1"},         {"sha224", "SHA224"},     {"sha256", "SHA256"},
    {"sha384", "SHA384"},     {"sha512", "SHA512"},     {"sha3_224", "SHA3-224"}, {"sha3_256", "SHA3-256"},
    {"sha3_384", "SHA3-384"}, {"sha3_512", "SHA3-512"},
};

struct CtxFree {
  void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};
using Ctx = std::unique_ptr<EVP_MD_CTX, CtxFree>;

class HashObj : public NativeObject {
 public:
  std::string name;
  const EVP_MD* md = nullptr;
  Ctx ctx;
  bool fedUnknown = false;  ///< abstract mode: fed an Unknown value

  std::string typeName() const override { return "HASH"; }
  std::string typeModule() const override { return "_hashlib"; }
  bool isCallable() const override { return false; }
  std::string repr(Interpreter&) override { return "<" + name + " _hashlib.HASH object>"; }
  Value getAttr(Interpreter& in, std::string_view attr) override;

  void update(CallContext& c, const Value& data) {
    if (isUnknown(data)) {
      fedUnknown = true;
      return;
    }
    const std::string* b = asBytes(data);
    Value raw;
    if (!b) {
      // numpy arrays and scalars give their buffer, as CPython's buffer protocol does.
      Imports& m = importsOf(c.interp);
      if (m.typeOf(data)->module == "numpy" && m.findAttr(data, "tobytes")) {
        raw = m.callMethod(data, "tobytes", {});
        if (isUnknown(raw)) {
          fedUnknown = true;
          return;
        }
        b = asBytes(raw);
      }
    }
    if (!b) {
      if (asString(data)) c.typeError("Strings must be encoded before hashing");
      c.typeError("object supporting the buffer API required");
    }
    if (!fedUnknown && EVP_DigestUpdate(ctx.get(), b->data(), b->size()) != 1) c.valueError("hash update failed");
  }
  std::string digest(CallContext& c) const {
    Ctx copy(EVP_MD_CTX_new());
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (!copy || EVP_MD_CTX_copy_ex(copy.get(), ctx.get()) != 1 || EVP_DigestFinal_ex(copy.get(), out, &n) != 1)
      c.valueError("hash digest failed");
    return std::string(reinterpret_cast<const char*>(out), n);
  }
};

std::shared_ptr<HashObj> makeHash(CallContext& c, const std::string& requested) {
  std::string lower = requested;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char ch) { return std::tolower(ch); });
  for (const Algorithm& a : kAlgorithms) {
    if (lower != a.python) continue;
    auto h = std::make_shared<HashObj>();
    h->name = a.python;
    h->md = EVP_get_digestbyname(a.openssl);
    h->ctx.reset(EVP_MD_CTX_new());
    if (!h->md || !h->ctx || EVP_DigestInit_ex(h->ctx.get(), h->md, nullptr) != 1) break;
    return h;
  }
  c.valueError("unsupported hash type " + requested);
}

Value HashObj::getAttr(Interpreter& in, std::string_view attr) {
  auto self = std::static_pointer_cast<HashObj>(shared_from_this());
  if (attr == "name") return makeStr(name);
  if (attr == "digest_size") return makeInt(EVP_MD_get_size(md));
  if (attr == "block_size") return makeInt(EVP_MD_get_block_size(md));
  if (attr == "update")
    return NativeFunction::make("update", "obj, /", [self](CallContext& c) -> Value {
      self->update(c, c.arg(0));
      return none();
    });
  if (attr == "digest")
    return NativeFunction::make("digest", "", [self](CallContext& c) -> Value {
      if (self->fedUnknown) return unknown();
      return makeBytes(self->digest(c));
    });
  if (attr == "hexdigest")
    return NativeFunction::make("hexdigest", "", [self](CallContext& c) -> Value {
      if (self->fedUnknown) return unknownOf(importsOf(c.interp).types.str);
      static const char* kHex = "0123456789abcdef";
      std::string hex;
      for (unsigned char ch : self->digest(c)) {
        hex += kHex[ch >> 4];
        hex += kHex[ch & 15];
      }
      return makeStr(hex);
    });
  if (attr == "copy")
    return NativeFunction::make("copy", "", [self](CallContext& c) -> Value {
      auto h = std::make_shared<HashObj>();
      h->name = self->name;
      h->md = self->md;
      h->fedUnknown = self->fedUnknown;
      h->ctx.reset(EVP_MD_CTX_new());
      if (!h->ctx || EVP_MD_CTX_copy_ex(h->ctx.get(), self->ctx.get()) != 1) c.valueError("hash copy failed");
      return h;
    });
  (void)in;
  return nullptr;
}

std::shared_ptr<ModuleObj> makeHashlibNative(Interpreter&) {
  auto mod = makeModule("_hashlib");
  Namespace& ns = mod->globals->vars;
  defineNative(ns, "new", "name, data", [](CallContext& c) -> Value {
    auto h = makeHash(c, c.toStr(c.arg(0)));
    h->update(c, c.arg(1));
    return h;
  });
  std::vector<Value> names;
  for (const Algorithm& a : kAlgorithms) names.push_back(makeStr(a.python));
  ns.set("names", makeTuple(std::move(names)));
  return mod;
}

const char* kHashlib = R"PY(
import _hashlib

algorithms_guaranteed = frozenset(_hashlib.names)
algorithms_available = algorithms_guaranteed


def new(name, data=b'', **kwargs):
    return _hashlib.new(name, kwargs.get('string', data))


def md5(data=b'', **kwargs):
    return _hashlib.new('md5', kwargs.get('string', data))


def sha1(data=b'', **kwargs):
    return _hashlib.new('sha1', kwargs.get('string', data))


def sha224(data=b'', **kwargs):
    return _hashlib.new('sha224', kwargs.get('string', data))


def sha256(data=b'', **kwargs):
    return _hashlib.new('sha256', kwargs.get('string', data))


def sha384(data=b'', **kwargs):
    return _hashlib.new('sha384', kwargs.get('string', data))


def sha512(data=b'', **kwargs):
    return _hashlib.new('sha512', kwargs.get('string', data))


def sha3_224(data=b'', **kwargs):
    return _hashlib.new('sha3_224', kwargs.get('string', data))


def sha3_256(data=b'', **kwargs):
    return _hashlib.new('sha3_256', kwargs.get('string', data))


def sha3_384(data=b'', **kwargs):
    return _hashlib.new('sha3_384', kwargs.get('string', data))


def sha3_512(data=b'', **kwargs):
    return _hashlib.new('sha3_512', kwargs.get('string', data))
)PY";

}  // namespace

void registerHashlibModule(ModuleRegistry& r) {
  r.add("_hashlib", makeHashlibNative);
  r.addSource("hashlib", kHashlib);
}

}  // namespace tlens::interp
