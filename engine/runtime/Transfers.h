// Transfers: the copies between devices that a graph run or an eager op needs, inserted by the
// executor where a tensor's memory is not the memory of the kernel that consumes it (a node on
// /gpu:0 reading a feed, a variable on /cpu:0, the output of a node on /gpu:1), as TensorFlow's
// Send/Recv pairs. Fetched values come back to the host. Each copy is logged (what, from, to,
// bytes), which `log_device_placement` prints and the debugger shows.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "engine/core/Tensor.h"

namespace tlens {

struct Transfer {
  std::string tensor;  ///< "x:0", a variable's name, or an eager op's input
  Device from, to;
  size_t bytes = 0;
};

class Transfers {
 public:
  /// `t` in memory from `to`: the tensor itself when it is there already, else a copy. With
  /// `reuse`, a second request for the same buffer and destination gets the first copy (one
  /// transfer per edge and device, as in TensorFlow); pass false for values that change in
  /// place (variables). `what` names the tensor in the log.
  Tensor place(const Tensor& t, Allocator* to, const std::string& what, bool reuse);
  /// The copies made from `t` are no longer needed (its last consumer ran).
  void forget(const Tensor& t);
  /// Drops every kept copy (the run ended); the log and counters stay.
  void forgetAll() { cache_.clear(); }

  size_t count() const { return count_; }
  size_t bytes() const { return bytes_; }
  /// The first kMaxLogged transfers (the counters above cover all of them).
  const std::vector<Transfer>& log() const { return log_; }
  void clear();

  static constexpr size_t kMaxLogged = 1000;

 private:
  struct Entry {
    Tensor source;  // keeps the source buffer (the key) alive
    std::vector<std::pair<Allocator*, Tensor>> copies;
  };
  std::unordered_map<const void*, Entry> cache_;
  std::vector<Transfer> log_;
  size_t count_ = 0, bytes_ = 0;
};

}  // namespace tlens
