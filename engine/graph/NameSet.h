// NameSet: the node and scope names a graph has used (TensorFlow makes every name unique:
// "MatMul", "MatMul_1", ...). An abstract run of a big program makes tens of thousands of names;
// a std::unordered_set<std::string> spent a node, a string and a cache miss or two on each (7% of
// the language server's analysis). Here names are copied into arena blocks and found through an
// open-addressing table of (hash, name) slots: one probe, no allocation per name.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace tlens {

class NameSet {
 public:
  NameSet();
  /// Adds `name`; false when it was there already.
  bool insert(std::string_view name);
  bool contains(std::string_view name) const;
  size_t size() const { return size_; }

 private:
  struct Slot {
    uint64_t hash = 0;
    const char* data = nullptr;  ///< null: empty
    uint32_t size = 0;
  };
  /// The slot holding `name`, or the empty one where it would go.
  size_t find(std::string_view name, uint64_t hash) const;
  std::string_view store(std::string_view name);
  void grow();

  std::vector<Slot> slots_;  ///< a power of two, at most half full
  size_t size_ = 0;
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* next_ = nullptr;
  size_t left_ = 0;
};

}  // namespace tlens
