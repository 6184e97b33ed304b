#include "engine/ops/Attr.h"

namespace tlens {

std::string attrToString(const AttrValue& v) {
  struct V {
    std::string operator()(std::monostate) const { return "None"; }
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(int64_t i) const { return std::to_string(i); }
    std::string operator()(double d) const {
      std::string s = std::to_string(d);
      while (s.size() > 1 && s.back() == '0' && s[s.size() - 2] != '.') s.pop_back();
      return s;
    }
    std::string operator()(const std::string& s) const { return "\"" + s + "\""; }
    std::string operator()(DType t) const { return std::string(dtypeName(t)); }
    std::string operator()(const std::vector<int64_t>& v) const { return concreteStr(v); }
    std::string operator()(const std::vector<double>& v) const {
      std::string s = "[";
      for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + (*this)(v[i]);
      return s + "]";
    }
    std::string operator()(const Shape& s) const { return s.str(); }
    std::string operator()(const Tensor& t) const { return "<" + t.typeStr() + ">"; }
    std::string operator()(const std::vector<std::string>& v) const {
      std::string s = "[";
      for (size_t i = 0; i < v.size(); ++i) s += (i ? ", \"" : "\"") + v[i] + "\"";
      return s + "]";
    }
  };
  return std::visit(V{}, v);
}

bool AttrReader::getBool(std::string_view name, bool def) const {
  const AttrValue* v = find(name);
  if (!v) return def;
  if (auto b = std::get_if<bool>(v)) return *b;
  if (auto i = std::get_if<int64_t>(v)) return *i != 0;
  return def;
}

int64_t AttrReader::getInt(std::string_view name, int64_t def) const {
  const AttrValue* v = find(name);
  if (!v) return def;
  if (auto i = std::get_if<int64_t>(v)) return *i;
  if (auto b = std::get_if<bool>(v)) return *b;
  if (auto d = std::get_if<double>(v)) return static_cast<int64_t>(*d);
  if (auto l = std::get_if<std::vector<int64_t>>(v); l && l->size() == 1) return (*l)[0];
  return def;
}

double AttrReader::getFloat(std::string_view name, double def) const {
  const AttrValue* v = find(name);
  if (!v) return def;
  if (auto d = std::get_if<double>(v)) return *d;
  if (auto i = std::get_if<int64_t>(v)) return static_cast<double>(*i);
  return def;
}

std::string AttrReader::getString(std::string_view name, std::string def) const {
  const AttrValue* v = find(name);
  if (auto s = v ? std::get_if<std::string>(v) : nullptr) return *s;
  return def;
}

DType AttrReader::getDType(std::string_view name, DType def) const {
  const AttrValue* v = find(name);
  if (auto t = v ? std::get_if<DType>(v) : nullptr) return *t;
  return def;
}

std::optional<std::vector<int64_t>> AttrReader::getInts(std::string_view name) const {
  const AttrValue* v = find(name);
  if (!v) return std::nullopt;
  if (auto l = std::get_if<std::vector<int64_t>>(v)) return *l;
  if (auto i = std::get_if<int64_t>(v)) return std::vector<int64_t>{*i};
  return std::nullopt;
}

std::vector<double> AttrReader::getFloats(std::string_view name) const {
  const AttrValue* v = find(name);
  if (!v) return {};
  if (auto l = std::get_if<std::vector<double>>(v)) return *l;
  if (auto l = std::get_if<std::vector<int64_t>>(v)) return std::vector<double>(l->begin(), l->end());
  return {};
}

Shape AttrReader::getShape(std::string_view name) const {
  const AttrValue* v = find(name);
  if (!v) return Shape::unknownRank();
  if (auto s = std::get_if<Shape>(v)) return *s;
  if (auto l = std::get_if<std::vector<int64_t>>(v)) {
    std::vector<Dim> d;
    for (int64_t x : *l) d.push_back(x < 0 ? Dim::unknown() : Dim::known(x));
    return Shape(std::move(d));
  }
  return Shape::unknownRank();
}

const Tensor* AttrReader::getTensor(std::string_view name) const {
  const AttrValue* v = find(name);
  return v ? std::get_if<Tensor>(v) : nullptr;
}

}  // namespace tlens
