// bytes and bytearray: byte strings (b'...' literals, str.encode, file contents read in binary
// mode, pickle, struct, BytesIO). A NativeObject whose type is the builtin `bytes` (or
// `bytearray`) class, so isinstance and type() work as for the other built-in types.
#pragma once

#include "lang/interp/NativeObject.h"

namespace tlens::interp {

class ObjectProtocol;

class BytesObj : public NativeObject {
 public:
  BytesObj(std::string d, bool mut) : data(std::move(d)), isMutable(mut) {}
  std::string data;
  const bool isMutable;  ///< bytearray

  std::string typeName() const override { return isMutable ? "bytearray" : "bytes"; }
  Value getAttr(Interpreter& in, std::string_view name) override;
  std::vector<std::string> attributeNames(Interpreter& in) override;
  Value binaryOp(Interpreter& in, BinOp op, const Value& other, bool reflected) override;
  Value inplaceOp(Interpreter& in, BinOp op, const Value& other) override;
  Value compare(Interpreter& in, CmpOp op, const Value& other, bool reflected) override;
  std::optional<Truth> contains(Interpreter& in, const Value& item) override;
  Value getItem(Interpreter& in, const Value& key) override;
  bool setItem(Interpreter& in, const Value& key, const Value& v) override;
  Value iter(Interpreter& in) override;
  std::optional<int64_t> len(Interpreter&) override { return static_cast<int64_t>(data.size()); }
  Truth truthy(Interpreter&) override { return data.empty() ? Truth::False : Truth::True; }
  std::string repr(Interpreter& in) override;
  std::optional<int64_t> hash(Interpreter& in) override;
  bool isCallable() const override { return false; }
};

Value makeBytes(std::string data, bool bytearray = false);
/// The bytes of a bytes or bytearray value, or null.
const std::string* asBytes(const Value& v);
/// b'...' as CPython writes it.
std::string bytesRepr(std::string_view data, bool bytearray = false);
/// The UTF-8 text of a str literal's code points as bytes (b'\xff' literals: each code point
/// below 256 is one byte).
std::string latin1FromUtf8(std::string_view utf8);
/// Decodes bytes as `encoding` (utf-8, ascii, latin-1) with `errors` (strict, ignore, replace);
/// raises UnicodeDecodeError / LookupError as CPython does.
std::string decodeBytes(ObjectProtocol& m, std::string_view data, std::string_view encoding, std::string_view errors);
std::string encodeStr(ObjectProtocol& m, std::string_view text, std::string_view encoding, std::string_view errors);
/// Installs bytes, bytearray, str.encode, str(b, encoding), int.from_bytes/to_bytes.
void installBytes(ObjectProtocol& m);

}  // namespace tlens::interp
