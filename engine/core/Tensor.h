// Tensor: a dense row-major buffer with a dtype, a concrete shape and a device. Copies are
// shallow (they share the buffer); `clone()` makes a deep copy. Kernels write only to tensors
// they allocated, and variables copy on write, so sharing is safe.
//
// String tensors (DType::String) keep their elements, variable-length byte strings, in a
// separate host-only storage (`strings()`), not in a Buffer: they have no device memory (as in
// TensorFlow, where string kernels are CPU kernels), `raw()` is null and the numeric accessors
// (getDouble, cast to a number) raise InvalidArgument instead of reading bytes.
#pragma once

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "engine/core/Allocator.h"
#include "engine/core/DType.h"
#include "engine/core/Error.h"
#include "engine/core/Shape.h"

namespace tlens {

class Buffer {
 public:
  Buffer(Allocator* a, size_t bytes, const char* what)
      : alloc_(a), bytes_(bytes), data_(a->allocate(bytes, what)) {}
  ~Buffer() { alloc_->deallocate(data_, bytes_); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  void* data() const { return data_; }
  size_t bytes() const { return bytes_; }
  Allocator* allocator() const { return alloc_; }

 private:
  Allocator* alloc_;
  size_t bytes_;
  void* data_;
};

class Tensor {
 public:
  Tensor() = default;
  /// Uninitialised storage. `what` names the consumer in out-of-memory messages.
  Tensor(DType dtype, ConcreteShape shape, Allocator* alloc = nullptr, const char* what = nullptr);

  template <typename T>
  static Tensor scalar(T v) {
    Tensor t(DTypeOf<T>::value, {});
    *t.data<T>() = v;
    return t;
  }
  template <typename T>
  static Tensor fromVector(const std::vector<T>& v, ConcreteShape shape) {
    Tensor t(DTypeOf<T>::value, std::move(shape));
    if (static_cast<size_t>(t.numElements()) != v.size())
      invalidArgument("fromVector: " + std::to_string(v.size()) + " values for shape " +
                      concreteStr(t.shape()));
    for (size_t i = 0; i < v.size(); ++i) t.data<T>()[i] = v[i];
    return t;
  }
  template <typename T>
  static Tensor fromVector(const std::vector<T>& v) {
    return fromVector(v, {static_cast<int64_t>(v.size())});
  }
  /// A tensor of `shape` filled with `value` converted to `dtype`.
  static Tensor filled(DType dtype, ConcreteShape shape, double value);
  /// A string tensor holding `v` (row-major) in `shape`.
  static Tensor fromStrings(std::vector<std::string> v, ConcreteShape shape);

  bool valid() const { return dtype_ != DType::Invalid; }
  DType dtype() const { return dtype_; }
  const ConcreteShape& shape() const { return shape_; }
  int rank() const { return static_cast<int>(shape_.size()); }
  int64_t dim(int i) const { return shape_[static_cast<size_t>(i)]; }
  int64_t numElements() const { return numElements_; }
  size_t bytes() const { return static_cast<size_t>(numElements_) * dtypeSize(dtype_); }
  Device device() const;
  const std::shared_ptr<Buffer>& buffer() const { return buf_; }

  void* raw() { return buf_ ? buf_->data() : nullptr; }
  const void* raw() const { return buf_ ? buf_->data() : nullptr; }
  template <typename T>
  T* data() { return static_cast<T*>(raw()); }
  template <typename T>
  const T* data() const { return static_cast<const T*>(raw()); }

  /// The elements of a string tensor (null for other dtypes).
  std::string* strings() { return strs_ ? strs_->data() : nullptr; }
  const std::string* strings() const { return strs_ ? strs_->data() : nullptr; }

  /// Element `i` (flat index) converted to double / int64, whatever the dtype.
  double getDouble(int64_t i) const;
  int64_t getInt(int64_t i) const;
  void setDouble(int64_t i, double v);
  /// All elements as int64 (for shape-like tensors: reshape targets, axes, paddings).
  std::vector<int64_t> toInt64Vector() const;
  std::vector<double> toDoubleVector() const;

  /// Same buffer, another shape with the same element count.
  Tensor reshaped(ConcreteShape shape) const;
  /// A deep copy in the same memory (same allocator, so the same device).
  Tensor clone() const;
  /// Whether the CPU can read this tensor's elements directly (see Allocator::hostAccessible).
  bool hostAccessible() const;
  /// The values in memory from `to` (a copy; this tensor itself when it is already there).
  Tensor copyTo(Allocator* to, const char* what = nullptr) const;
  /// This tensor when the host can read it, else a copy in host memory.
  Tensor toHost() const;
  /// Converts elements to `dtype` (a new tensor; the same tensor when dtypes match).
  Tensor cast(DType dtype) const;
  /// True when the buffer is shared with no other tensor.
  bool uniquelyOwned() const { return !strs_ && buf_.use_count() == 1; }

  /// numpy-like text: "[[1. 2.]\n [3. 4.]]", eliding the middle past `maxElements`.
  std::string str(int64_t maxElements = 64) const;
  /// "float32[2, 3]"
  std::string typeStr() const;

 private:
  std::shared_ptr<Buffer> buf_;
  std::shared_ptr<std::vector<std::string>> strs_;  ///< DType::String only
  DType dtype_ = DType::Invalid;
  ConcreteShape shape_;
  int64_t numElements_ = 0;
};

/// Bitwise/elementwise equality of dtype, shape and values (NaN equals NaN).
bool tensorsEqual(const Tensor& a, const Tensor& b);
/// Max |a-b| relative to max(1,|b|); infinity when shapes or dtypes differ.
double maxRelativeError(const Tensor& a, const Tensor& b);

}  // namespace tlens
