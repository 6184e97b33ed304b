// Path arguments (FsPath.h).
#include "lang/interp/FsPath.h"

#include "lang/interp/Bytes.h"
#include "lang/interp/Machine.h"

namespace tlens::interp {

Value fsPathValue(CallContext& c, const Value& v) {
  if (isUnknown(v)) throw NeedsKnownValue{};
  if (v->kind() == Kind::Str || asBytes(v)) return v;
  Machine& m = c.interp.machine();
  Value f = m.findAttr(v, "__fspath__");
  if (!f) m.typeError("expected str, bytes or os.PathLike object, not " + m.typeName(v));
  Value r = m.call(f, {}, {});
  if (isUnknown(r)) throw NeedsKnownValue{};
  if (r->kind() != Kind::Str && !asBytes(r))
    m.typeError("expected " + m.typeName(v) + ".__fspath__() to return str or bytes, not " + m.typeName(r));
  return r;
}

std::string pathArg(CallContext& c, const Value& v) {
  Value p = fsPathValue(c, v);
  if (const std::string* b = asBytes(p)) return *b;
  return static_cast<StrObj*>(p.get())->value;
}

}  // namespace tlens::interp
