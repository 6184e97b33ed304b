// String ops (TensorFlow's string_ops.cc and parsing_ops.cc): StringJoin, AsString,
// StringToNumber, StringLength, DecodeCSV, DecodeRaw. They read or write DType::String tensors
// natively (OpDef::Strings::Native), run on the host only, and have no gradients.
#include "engine/ops/OpRegistry.h"
#include "engine/ops/ShapeFns.h"
#include "engine/ops/defs/ArrayShapeUtil.h"

namespace tlens {

namespace {
using namespace shapefn;
using namespace arrayfn;

constexpr const char* kHost = "string tensors live on the host";

/// TensorFlow's op_def_library TypeError when input i is not of one of `allowed`.
std::optional<ShapeResult> checkInputDType(const InferContext& c, size_t i, const std::string& param,
                                           std::initializer_list<DType> allowed) {
  if (i >= c.numInputs() || c.dtype(i) == DType::Invalid) return std::nullopt;
  std::string names;
  for (DType t : allowed) {
    if (t == c.dtype(i)) return std::nullopt;
    names += (names.empty() ? "" : ", ") + std::string(dtypeName(t));
  }
  ShapeResult r;
  r.error = "Value passed to parameter '" + param + "' has DataType " + std::string(dtypeName(c.dtype(i))) +
            " not in list of allowed values: " + names;
  r.blame = {static_cast<int>(i)};
  return r;
}

/// TensorShape::DebugString: "[2,3]", "<unknown>".
std::string debugString(const Shape& s) {
  if (!s.rankKnown()) return "<unknown>";
  std::string out = "[";
  for (size_t d = 0; d < s.dims().size(); ++d) out += (d ? "," : "") + s[d].str();
  return out + "]";
}

/// StringJoin: scalars broadcast; every other input has the same shape.
ShapeResult stringJoinShape(const InferContext& c) {
  Shape out = Shape::scalar();
  bool haveNonScalar = false;
  for (size_t i = 0; i < c.numInputs(); ++i) {
    if (auto e = checkInputDType(c, i, "inputs", {DType::String})) return *e;
    const Shape& s = c.shape(i);
    if (s.rankKnown() && s.rank() == 0) continue;
    if (!haveNonScalar) {
      out = s;
      haveNonScalar = true;
      continue;
    }
    if (!out.compatible(s))
      return shapeError(c, "Input shapes do not match: " + debugString(out) + " vs. " + debugString(s), {static_cast<int>(i)});
    out = out.merge(s);
  }
  return ShapeResult::single(DType::String, out);
}

ShapeResult asStringShape(const InferContext& c) {
  if (auto e = checkInputDType(c, 0, "input", {DType::Float32, DType::Float64, DType::Int32, DType::Int64,
                                               DType::UInt8, DType::Bool}))
    return *e;
  const DType t = c.dtype(0);
  if (t != DType::Invalid && !isFloating(t)) {
    if (c.getBool("scientific") || c.getBool("shortest"))
      return shapeError(c, "scientific and shortest format not supported for datatype " + std::string(dtypeName(t)), {0});
    if (c.getInt("precision", -1) >= 0)
      return shapeError(c, "precision not supported for datatype " + std::string(dtypeName(t)), {0});
  }
  if (c.getString("fill").size() > 1) return shapeError(c, "Fill string must be one or fewer characters");
  if (c.getBool("scientific") && c.getBool("shortest"))
    return shapeError(c, "Cannot select both scientific and shortest notation");
  return ShapeResult::single(DType::String, c.shape(0));
}

ShapeResult stringToNumberShape(const InferContext& c) {
  if (auto e = checkInputDType(c, 0, "string_tensor", {DType::String})) return *e;
  const DType out = c.getDType("out_type", DType::Float32);
  if (out != DType::Float32 && out != DType::Float64 && out != DType::Int32 && out != DType::Int64)
    return shapeError(c, "Value for attr 'out_type' of " + std::string(dtypeName(out)) +
                             " is not in the list of allowed values: float, double, int32, int64");
  return ShapeResult::single(out, c.shape(0));
}

ShapeResult stringLengthShape(const InferContext& c) {
  if (auto e = checkInputDType(c, 0, "input", {DType::String})) return *e;
  const std::string unit = c.getString("unit", "BYTE");
  if (unit != "BYTE" && unit != "UTF8_CHAR")
    return shapeError(c, "Value for attr 'unit' of \"" + unit + "\" is not in the list of allowed values: \"BYTE\", \"UTF8_CHAR\"");
  return ShapeResult::single(DType::Int32, c.shape(0));
}

/// DecodeCSV: one output per record default, of its dtype, shaped as the records.
ShapeResult decodeCsvShape(const InferContext& c) {
  if (auto e = checkInputDType(c, 0, "records", {DType::String})) return *e;
  if (c.getString("field_delim", ",").size() != 1) return shapeError(c, "field_delim should be only 1 char");
  ShapeResult r;
  for (size_t i = 1; i < c.numInputs(); ++i) {
    if (auto e = checkInputDType(c, i, "record_defaults",
                                 {DType::Float32, DType::Float64, DType::Int32, DType::Int64, DType::String}))
      return *e;
    const Shape& d = c.shape(i);
    if (d.rankKnown() && d.rank() > 1)
      return shapeError(c, "Shape must be at most rank 1 but is rank " + std::to_string(d.rank()), {static_cast<int>(i)});
    if (d.rankKnown() && d.rank() == 1 && d[0].isKnown() && d[0].size > 1)
      return shapeError(c, "Shape of a default must be a length-0 or length-1 vector, or a scalar.", {static_cast<int>(i)});
    r.outputs.emplace_back(c.dtype(i), c.shape(0));
  }
  if (r.outputs.empty()) return shapeError(c, "DecodeCSV needs at least one record default");
  return r;
}

/// DecodeRaw: the records' shape and one more dim (the element count of each record).
ShapeResult decodeRawShape(const InferContext& c) {
  if (auto e = checkInputDType(c, 0, "bytes", {DType::String})) return *e;
  const DType out = c.getDType("out_type", DType::UInt8);
  if (!isNumeric(out) && out != DType::Bool)
    return shapeError(c, "Value for attr 'out_type' of " + std::string(dtypeName(out)) + " is not in the list of allowed values");
  const Shape& s = c.shape(0);
  if (!s.rankKnown()) return ShapeResult::single(out, Shape::unknownRank());
  std::vector<Dim> d = s.dims();
  d.push_back(Dim::unknown());
  return ShapeResult::single(out, Shape(std::move(d)));
}

}  // namespace

void registerStringOps(OpRegistry& r) {
  OpBuilder(r, "StringJoin").strings(OpDef::Strings::Native).cpuOnly(kHost)
      .api("tf.strings.join").api("tf.string_join")
      .inputList("inputs")
      .attr("separator", std::string())
      .doc("Joins the strings of the inputs elementwise (scalars broadcast), with `separator` between them.")
      .shape(stringJoinShape)
      .notDifferentiable();

  OpBuilder(r, "AsString").strings(OpDef::Strings::Native).cpuOnly(kHost)
      .api("tf.strings.as_string").api("tf.as_string")
      .input("input")
      .attr("precision", int64_t{-1})
      .attr("scientific", false)
      .attr("shortest", false)
      .attr("width", int64_t{-1})
      .attr("fill", std::string())
      .doc("Each element as a string (printf's %f / %e / %g for floats, %d for integers, true/false).")
      .shape(asStringShape)
      .notDifferentiable();

  OpBuilder(r, "StringToNumber").strings(OpDef::Strings::Native).cpuOnly(kHost)
      .api("tf.strings.to_number").api("tf.string_to_number")
      .input("string_tensor")
      .attr("out_type", DType::Float32)
      .doc("Parses each string as a number of `out_type`.")
      .shape(stringToNumberShape)
      .notDifferentiable();

  OpBuilder(r, "StringLength").strings(OpDef::Strings::Native).cpuOnly(kHost)
      .api("tf.strings.length")
      .input("input")
      .attr("unit", std::string("BYTE"))
      .doc("The length of each string in bytes (unit='BYTE') or UTF-8 characters (unit='UTF8_CHAR').")
      .shape(stringLengthShape)
      .notDifferentiable();

  OpBuilder(r, "DecodeCSV").strings(OpDef::Strings::Native).cpuOnly(kHost)
      .api("tf.io.decode_csv").api("tf.decode_csv")
      .input("records").inputList("record_defaults")
      .attr("field_delim", std::string(","))
      .attr("use_quote_delim", true)
      .attr("na_value", std::string())
      .doc("Parses CSV records (RFC 4180) into one tensor per column, of the dtype of the column's default.")
      .shape(decodeCsvShape)
      .notDifferentiable();

  OpBuilder(r, "DecodeRaw").strings(OpDef::Strings::Native).cpuOnly(kHost)
      .api("tf.io.decode_raw").api("tf.decode_raw")
      .input("bytes")
      .attr("out_type", DType::UInt8)
      .attr("little_endian", true)
      .doc("Reinterprets the bytes of each string as a vector of `out_type` numbers.")
      .shape(decodeRawShape)
      .notDifferentiable();
}

}  // namespace tlens
