// Coroutine: a function running on its own stack that can suspend back to whoever resumed it
// (ucontext on one thread: no locking, and the interpreter's thread-local state stays valid).
// Generators use it so that `yield` suspends the generator's body in the middle of its C++
// evaluation. The body must not let exceptions escape: the trampoline catches them and
// resume() rethrows them on the resumer's stack.
#pragma once

#include <ucontext.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>

namespace tlens::interp {

class Coroutine {
 public:
  /// `stackSize` bytes of virtual memory (committed lazily as the stack grows).
  explicit Coroutine(std::function<void()> body, size_t stackSize = 4u << 20);
  ~Coroutine();
  Coroutine(const Coroutine&) = delete;
  Coroutine& operator=(const Coroutine&) = delete;

  /// Runs the body until it suspends or returns; rethrows what the body threw.
  void resume();
  /// From inside the body: returns control to resume()'s caller.
  void suspend();
  bool started() const { return started_; }
  bool finished() const { return finished_; }
  bool running() const { return running_; }
  /// Lowest usable address of the coroutine's stack (for the interpreter's stack guard).
  uintptr_t stackLow() const { return reinterpret_cast<uintptr_t>(stack_); }

 private:
  static void trampoline(unsigned lo, unsigned hi);
  std::function<void()> body_;
  ucontext_t ctx_{}, caller_{};
  void* stack_ = nullptr;
  size_t size_ = 0;
  std::exception_ptr error_;
  // AddressSanitizer fiber bookkeeping (unused otherwise).
  void* fakeStack_ = nullptr;
  const void* callerBottom_ = nullptr;
  size_t callerSize_ = 0;
  bool started_ = false, finished_ = false, running_ = false;
};

}  // namespace tlens::interp
