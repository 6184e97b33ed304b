// String tensors (DType::String): the Tensor's host string storage, the registry's handling of
// strings (numeric ops reject them with TensorFlow's TypeError wording, data movement runs its
// numeric kernel on indexes, Equal/Unique on interned ids), the string ops' shape functions,
// TensorFlow's kernel values and errors, and placement on the host.
#include <cmath>

#include "OpTestUtil.h"
#include "ShapeErrorCheck.h"

#include "engine/core/DeviceSet.h"
#include "engine/graph/Placement.h"

using namespace tlens;
using namespace tlens::test;

namespace {

Tensor S(std::vector<std::string> v, ConcreteShape s) { return Tensor::fromStrings(std::move(v), std::move(s)); }
Tensor S(std::vector<std::string> v) {
  ConcreteShape s{static_cast<int64_t>(v.size())};
  return S(std::move(v), s);
}
/// A string scalar.
Tensor S0(std::string v) { return S(std::vector<std::string>{std::move(v)}, {}); }

}  // namespace

TEST_CASE("a string tensor keeps its bytes on the host, shares them on copy and deep-copies on clone", "[engine][strings]") {
  Tensor t = S({"apple", std::string("a\0b", 3), ""}, {3});
  CHECK(t.dtype() == DType::String);
  CHECK(t.raw() == nullptr);
  CHECK(t.hostAccessible());
  CHECK(t.device() == Device::cpu());
  CHECK(t.strings()[1].size() == 3);
  Tensor r = t.reshaped({3, 1});
  CHECK(r.strings() == t.strings());
  Tensor c = t.clone();
  CHECK(c.strings() != t.strings());
  c.strings()[0] = "peach";
  CHECK(t.strings()[0] == "apple");
  CHECK_FALSE(tensorsEqual(t, c));
  CHECK(tensorsEqual(t, t.clone()));
  CHECK(t.copyTo(cpuAllocator()).strings() == t.strings());
  CHECK(t.str() == "[b'apple' b'a\\x00b' b'']");
  CHECK(S0("it's").str() == "b\"it's\"");
  CHECK(dtypeName(DType::String) == "string");
  CHECK(parseDType("tf.string") == DType::String);
  CHECK(dtypeSize(DType::String) == 0);
}

TEST_CASE("numeric access to a string tensor raises instead of reading bytes", "[engine][strings]") {
  Tensor t = S({"1", "2"});
  CHECK_THROWS_WITH(t.getDouble(0), Catch::Contains("not numbers"));
  CHECK_THROWS_WITH(t.toInt64Vector(), Catch::Contains("not numbers"));
  CHECK_THROWS_WITH(t.cast(DType::Float32), Catch::Contains("Cast string to float32 is not supported"));
  CHECK_THROWS_WITH(F32({1}).cast(DType::String), Catch::Contains("Cast float32 to string is not supported"));
  CHECK_THROWS(Tensor::filled(DType::String, {2}, 0));
  CHECK_FALSE(t.uniquelyOwned());
}

TEST_CASE("numeric ops reject strings with TensorFlow's TypeError, before any kernel", "[engine][strings][shape]") {
  INFER_ERROR("Value passed to parameter 'x' has DataType string not in list of allowed values", "Square", "string:[2]");
  INFER_ERROR("Value passed to parameter 'y' has DataType string not in list of allowed values", "Mul", "[2];string:[2]");
  INFER_ERROR("Value passed to parameter 'DstT' has DataType string", "Cast", "[2]", {"DstT", DType::String});
  INFER_ERROR("has DataType string", "MatMul", "string:[2,2];string:[2,2]");
  CHECK_THROWS_WITH(runEager("Square", {S({"a"})}), Catch::Contains("has DataType string not in list of allowed values"));
  CHECK_THROWS_WITH(runEager("RandomUniform", {I32({2}, {1})}, {{"dtype", DType::String}}),
                    Catch::Contains("Value for attr 'dtype' of string is not in the list of allowed values"));
  CHECK_THROWS_WITH(runEager("OnesLike", {S({"a"})}), Catch::Contains("has DataType string not in list of allowed values"));
  // dtype-agnostic ops type strings like any other dtype
  INFER_OK("Reshape", "string:[2,3];int32=[3,2]", "[3,2]");
  INFER_OK("ConcatV2", "string:[b,2];string:[b,3];int32=1", "[b,5]");
  INFER_OK("Equal", "string:[2,1];string:[3]", "[2,3]");
  INFER_ERROR("that does not match type string", "Equal", "string:[2];[2]");
}

TEST_CASE("string ops' shape functions", "[engine][strings][shape]") {
  INFER_OK("StringJoin", "string:[];string:[b,3];string:[b,3]", "[b,3]");
  INFER_OK("StringJoin", "string:[];string:[]", "[]");
  INFER_ERROR("Input shapes do not match: [2] vs. [3]", "StringJoin", "string:[2];string:[3]");
  INFER_ERROR("Value passed to parameter 'inputs' has DataType float32", "StringJoin", "string:[2];[2]");
  INFER_OK("AsString", "[b,2]", "[b,2]");
  INFER_ERROR("precision not supported for datatype int32", "AsString", "int32:[2]", {"precision", int64_t{2}});
  INFER_ERROR("Cannot select both scientific and shortest notation", "AsString", "[2]", {"scientific", true}, {"shortest", true});
  INFER_OK("StringToNumber", "string:[b]", "[b]");
  INFER_ERROR("Value passed to parameter 'string_tensor' has DataType float32", "StringToNumber", "[2]");
  INFER_OK("DecodeCSV", "string:[b];[1];int32:[1];string:[0]", "[b];[b];[b]");
  INFER_ERROR("Shape of a default must be", "DecodeCSV", "string:[b];[2]");
  INFER_OK("DecodeRaw", "string:[b]", "[b,?]", {"out_type", DType::Float32});
  INFER_OK("StringLength", "string:[2,2]", "[2,2]");
}

TEST_CASE("string kernels fail with TensorFlow's messages", "[engine][strings]") {
  CHECK_THROWS_WITH(runEager("StringToNumber", {S({"1.5", "abc"})}),
                    Catch::Contains("StringToNumberOp could not correctly convert string: abc"));
  CHECK_THROWS_WITH(runEager("StringToNumber", {S({"3000000000"})}, {{"out_type", DType::Int32}}),
                    Catch::Contains("could not correctly convert string: 3000000000"));
  const Attrs csv;
  CHECK_THROWS_WITH(runEager("DecodeCSV", {S({"1,2,3"}), F32({0}, {1}), F32({0}, {1})}, csv),
                    Catch::Contains("Expect 2 fields but have 3 in record 0"));
  CHECK_THROWS_WITH(runEager("DecodeCSV", {S({"1,"}), F32({0}, {1}), F32({}, {0})}, csv),
                    Catch::Contains("Field 1 is required but missing in record 0!"));
  CHECK_THROWS_WITH(runEager("DecodeCSV", {S({"1,x"}), F32({0}, {1}), I32({0}, {1})}, csv),
                    Catch::Contains("Field 1 in record 0 is not a valid int32: x"));
  CHECK_THROWS_WITH(runEager("DecodeCSV", {S({"a\"b,1"}), S({""}, {1}), I32({0}, {1})}, csv),
                    Catch::Contains("Unquoted fields cannot have quotes/CRLFs inside"));
  CHECK_THROWS_WITH(runEager("DecodeRaw", {S({"abc"})}, {{"out_type", DType::Int32}}),
                    Catch::Contains("Input to DecodeRaw has length 3 that is not a multiple of 4, the size of int32"));
  CHECK_THROWS_WITH(runEager("DecodeRaw", {S({"ab", "abcd"})}, {{"out_type", DType::UInt8}}),
                    Catch::Contains("DecodeRaw requires input strings to all be the same size, but element 1 has size 4 != 2"));
}

TEST_CASE("ops on strings are placed on the host, with a note when a GPU exists", "[engine][strings][placement]") {
  const OpDef& id = OpRegistry::global().get("Identity");
  DeviceSet gpus;
  gpus.setVirtualGpus(1);
  Placement p = placeOp(id, "/gpu:0", &gpus, nullptr, true);
  CHECK(p.device == Device::cpu());
  CHECK_FALSE(p.softPlaced);
  CHECK_THAT(p.note, Catch::Contains("string tensors, which live on the host"));
  CHECK(placeOp(id, "", &gpus, nullptr, false).device == Device::gpu(0));
  CHECK(placeOp(id, "", nullptr, nullptr, true).note.empty());
}

static CaseRegistrar stringCases({
    {"StringJoin", {S({"a", "b"}), S0("-"), S({"x", "y"})}, {{"separator", std::string("/")}}, {S({"a/-/x", "b/-/y"})}},
    {"StringJoin", {S0("Hello"), S0("World")}, {{"separator", std::string(" ")}}, {S0("Hello World")}},
    {"AsString", {F32({3.5f, -1}, {2})}, {}, {S({"3.500000", "-1.000000"})}, 0, false, {}, 1e-4, "%f by default"},
    {"AsString", {F64({0.000123}, {1})}, {{"shortest", true}}, {S({"0.000123"})}},
    {"AsString", {F32({2.5f}, {1})}, {{"precision", int64_t{2}}, {"scientific", true}}, {S({"2.50e+00"})}},
    {"AsString", {I64({42, -7}, {2})}, {{"width", int64_t{4}}, {"fill", std::string("0")}}, {S({"0042", "-007"})}},
    {"AsString", {B({true, false}, {2})}, {}, {S({"true", "false"})}},
    {"StringToNumber", {S({" 1.5", "-2e3", "inf"})}, {}, {F32({1.5f, -2000, INFINITY}, {3})}},
    {"StringToNumber", {S({"12", "-3"})}, {{"out_type", DType::Int64}}, {I64({12, -3}, {2})}},
    {"StringLength", {S({"abc", "", "h\xc3\xa9"})}, {}, {I32({3, 0, 3}, {3})}},
    {"StringLength", {S({"h\xc3\xa9"})}, {{"unit", std::string("UTF8_CHAR")}}, {I32({2}, {1})}},
    {"DecodeCSV", {S({"1,2.5,\"a,\"\"b\"", ",,"}), I32({7}, {1}), F32({0}, {1}), S({"z"}, {1})}, {},
     {I32({1, 7}, {2}), F32({2.5f, 0}, {2}), S({"a,\"b", "z"})}, 1e-6, false, {}, 1e-4, "quotes, defaults"},
    {"DecodeCSV", {S({"4;x"}), I64({0}, {1}), S({""}, {1})}, {{"field_delim", std::string(";")}},
     {I64({4}, {1}), S({"x"})}},
    {"DecodeRaw", {S({std::string("\x01\x00\x02\x00", 4), std::string("\x03\x00\xff\xff", 4)})},
     {{"out_type", DType::Int32}, {"little_endian", false}}, {I32({0x01000200, 0x0300ffff}, {2, 1})}},
    {"DecodeRaw", {S({"AB"})}, {}, {[] {
       Tensor t(DType::UInt8, {1, 2});
       t.data<uint8_t>()[0] = 'A';
       t.data<uint8_t>()[1] = 'B';
       return t;
     }()}},
    // data movement on strings: the numeric kernels over indexes (OpDef::Strings::ByIndex)
    {"GatherV2", {S({"a", "b", "c"}), I32({2, 0, 2}), I32({0}, {})}, {}, {S({"c", "a", "c"})}},
    {"ConcatV2", {S({"a", "b"}, {1, 2}), S({"c"}, {1, 1}), I32({1}, {})}, {}, {S({"a", "b", "c"}, {1, 3})}},
    {"Transpose", {S({"a", "b", "c", "d", "e", "f"}, {2, 3}), I32({1, 0})}, {}, {S({"a", "d", "b", "e", "c", "f"}, {3, 2})}},
    {"Tile", {S({"x", "y"}), I32({2})}, {}, {S({"x", "y", "x", "y"})}},
    {"Pack", {S0("p"), S0("q")}, {{"axis", int64_t{0}}}, {S({"p", "q"})}},
    {"Fill", {I32({2}), S0("z")}, {}, {S({"z", "z"})}},
    {"Reshape", {S({"a", "b", "c", "d"}), I32({2, 2})}, {}, {S({"a", "b", "c", "d"}, {2, 2})}},
    {"Equal", {S({"apple", "peach"}), S0("peach")}, {}, {B({false, true}, {2})}},
    {"NotEqual", {S({"a", "b"}, {2, 1}), S({"a", "b"})}, {}, {B({false, true, true, false}, {2, 2})}},
    {"Unique", {S({"b", "a", "b"})}, {}, {S({"b", "a"}), I32({0, 1, 0}, {3})}},
});

TEST_CASE("string op errors found by the shape function are what runs report", "[engine][strings]") {
  checkShapeErrorIsWhatRunsReport("StringJoin", {S({"a", "b"}), S({"a", "b", "c"})});
  checkShapeErrorIsWhatRunsReport("Square", {S({"a"})});
}
