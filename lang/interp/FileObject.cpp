// File objects returned by open() in concrete mode (abstract mode never opens files). Reading
// loads the whole file; writing goes straight to an ofstream. Context manager and line iteration
// as in Python.
#include <filesystem>
#include <fstream>
#include <sstream>

#include "lang/interp/Bytes.h"
#include "lang/interp/ObjectProtocol.h"
#include "lang/interp/Format.h"

namespace tlens::interp {
namespace {

class FileObject : public NativeObject {
 public:
  FileObject(ObjectProtocol* m, std::string path, std::string mode)
      : m_(m), path_(std::move(path)), mode_(std::move(mode)), binary_(mode_.find('b') != std::string::npos) {}

  void open(bool translateNewlines) {
    bool write = mode_.find_first_of("wax") != std::string::npos;
    if (mode_.find('x') != std::string::npos && std::filesystem::exists(path_))
      m_->raise("FileExistsError", "[Errno 17] File exists: " + reprString(path_));
    if (!write || mode_.find('+') != std::string::npos) {
      std::ifstream in(path_, std::ios::binary);
      if (!in) {
        if (!write) {
          if (std::filesystem::is_directory(path_)) m_->raise("IsADirectoryError", "[Errno 21] Is a directory: " + reprString(path_));
          m_->raise("FileNotFoundError", "[Errno 2] No such file or directory: " + reprString(path_));
        }
      } else {
        std::ostringstream ss;
        ss << in.rdbuf();
        content_ = ss.str();
        if (!binary_ && translateNewlines && content_.find('\r') != std::string::npos) {
          std::string t;
          t.reserve(content_.size());
          for (size_t i = 0; i < content_.size(); ++i) {
            if (content_[i] != '\r') t += content_[i];
            else {
              t += '\n';
              if (i + 1 < content_.size() && content_[i + 1] == '\n') ++i;
            }
          }
          content_ = std::move(t);
        }
      }
    }
    if (write) {
      auto flags = std::ios::binary | (mode_.find('a') != std::string::npos ? std::ios::app : std::ios::trunc);
      out_ = std::make_unique<std::ofstream>(path_, flags);
      if (!*out_) m_->raise("FileNotFoundError", "[Errno 2] No such file or directory: " + reprString(path_));
    }
  }

  std::string typeName() const override {
    return !binary_ ? "TextIOWrapper" : out_ ? "BufferedWriter" : "BufferedReader";
  }
  std::string repr(Interpreter&) override {
    if (binary_) return "<_io." + typeName() + " name=" + reprString(path_) + ">";
    return "<_io.TextIOWrapper name=" + reprString(path_) + " mode=" + reprString(mode_) + " encoding='UTF-8'>";
  }
  /// What reads return: str in text mode, bytes in binary mode.
  Value wrap(std::string s) const { return binary_ ? makeBytes(std::move(s)) : makeStr(std::move(s)); }
  /// What writes accept: str in text mode, bytes in binary mode.
  std::string unwrap(CallContext& c, const Value& v) const {
    if (binary_) {
      if (const std::string* b = asBytes(v)) return *b;
      if (isUnknown(v)) throw NeedsKnownValue{};
      c.typeError("a bytes-like object is required, not '" + m_->typeName(v) + "'");
    }
    if (!asString(v) && !isUnknown(v)) c.typeError("write() argument must be str, not " + m_->typeName(v));
    return c.toStr(v);
  }

  Value getAttr(Interpreter& in, std::string_view name) override {
    auto self = std::static_pointer_cast<FileObject>(shared_from_this());
    auto method = [&](const char* n, const char* sig, std::function<Value(FileObject&, CallContext&)> fn) -> Value {
      return NativeFunction::make(n, sig, [self, fn](CallContext& c) { return fn(*self, c); });
    };
    if (name == "name") return makeStr(path_);
    if (name == "mode") return makeStr(mode_);
    if (name == "closed") return boolean(closed_);
    if (name == "read")
      return method("read", "size=-1", [](FileObject& f, CallContext& c) -> Value {
        f.checkOpen();
        int64_t n = c.toInt(c.arg(0));
        size_t len = n < 0 ? std::string::npos : static_cast<size_t>(n);
        std::string s = f.pos_ < f.content_.size() ? f.content_.substr(f.pos_, len) : std::string();
        f.pos_ += s.size();
        return f.wrap(std::move(s));
      });
    if (name == "readline")
      return method("readline", "size=-1", [](FileObject& f, CallContext&) -> Value {
        f.checkOpen();
        return f.wrap(f.nextLine());
      });
    if (name == "readlines")
      return method("readlines", "hint=-1", [](FileObject& f, CallContext&) -> Value {
        f.checkOpen();
        std::vector<Value> lines;
        for (std::string l = f.nextLine(); !l.empty(); l = f.nextLine()) lines.push_back(f.wrap(l));
        return makeList(std::move(lines));
      });
    if (name == "write")
      return method("write", "s, /", [](FileObject& f, CallContext& c) -> Value {
        f.checkOpen();
        if (!f.out_) f.m_->raise("UnsupportedOperation", "not writable");
        std::string s = f.unwrap(c, c.arg(0));
        *f.out_ << s;
        return makeInt(static_cast<int64_t>(f.binary_ ? s.size() : StrObj(s).length()));
      });
    if (name == "writelines")
      return method("writelines", "lines, /", [](FileObject& f, CallContext& c) -> Value {
        f.checkOpen();
        if (!f.out_) f.m_->raise("UnsupportedOperation", "not writable");
        for (const Value& v : c.toList(c.arg(0))) *f.out_ << f.unwrap(c, v);
        return none();
      });
    if (name == "flush")
      return method("flush", "", [](FileObject& f, CallContext&) -> Value {
        if (f.out_) f.out_->flush();
        return none();
      });
    if (name == "tell")
      return method("tell", "", [](FileObject& f, CallContext&) -> Value {
        return makeInt(static_cast<int64_t>(f.out_ ? static_cast<size_t>(f.out_->tellp()) : f.pos_));
      });
    if (name == "seek")
      return method("seek", "offset, whence=0, /", [](FileObject& f, CallContext& c) -> Value {
        f.checkOpen();
        int64_t off = c.toInt(c.arg(0)), whence = c.toInt(c.arg(1));
        int64_t base = whence == 1 ? static_cast<int64_t>(f.pos_) : whence == 2 ? static_cast<int64_t>(f.content_.size()) : 0;
        if (base + off < 0) c.valueError("negative seek position " + std::to_string(off));
        if (f.out_) return makeInt(static_cast<int64_t>(f.out_->tellp()));
        f.pos_ = static_cast<size_t>(base + off);
        return makeInt(base + off);
      });
    if (name == "readable") return method("readable", "", [](FileObject& f, CallContext&) -> Value { return boolean(!f.out_); });
    if (name == "writable") return method("writable", "", [](FileObject& f, CallContext&) -> Value { return boolean(f.out_ != nullptr); });
    if (name == "fileno") return method("fileno", "", [](FileObject&, CallContext&) -> Value { return makeInt(3); });
    if (name == "close")
      return method("close", "", [](FileObject& f, CallContext&) -> Value {
        f.close();
        return none();
      });
    if (name == "__enter__") return method("__enter__", "", [self](FileObject&, CallContext&) -> Value { return self; });
    return nullptr;
  }

  Value iter(Interpreter&) override {
    checkOpen();
    auto self = std::static_pointer_cast<FileObject>(shared_from_this());
    return makeIterator("TextIOWrapper", [self]() -> Value {
      std::string l = self->nextLine();
      return l.empty() ? nullptr : self->wrap(std::move(l));
    });
  }
  Value enter(Interpreter&) override { return shared_from_this(); }
  bool exit(Interpreter&, const Value&) override {
    close();
    return false;
  }

 private:
  void checkOpen() {
    if (closed_) m_->valueError("I/O operation on closed file.");
  }
  std::string nextLine() {
    if (pos_ >= content_.size()) return {};
    size_t e = content_.find('\n', pos_);
    e = e == std::string::npos ? content_.size() : e + 1;
    std::string l = content_.substr(pos_, e - pos_);
    pos_ = e;
    return l;
  }
  void close() {
    if (out_) out_->close();
    out_.reset();
    closed_ = true;
  }

  ObjectProtocol* m_;
  std::string path_, mode_;
  bool binary_;
  std::string content_;
  size_t pos_ = 0;
  bool closed_ = false;
  std::unique_ptr<std::ofstream> out_;
};

}  // namespace

Value openFile(ObjectProtocol& m, const std::string& path, const std::string& mode, bool translateNewlines) {
  auto f = std::make_shared<FileObject>(&m, path, mode);
  f->open(translateNewlines);
  return f;
}

}  // namespace tlens::interp
