#include "lang/interp/Coroutine.h"

#include <sys/mman.h>

#include <new>
#include <stdexcept>

// GCC defines __SANITIZE_ADDRESS__ under -fsanitize=address; clang before 16 does not, and says
// so through __has_feature only (the CI's clang 14 built the ASan tree without these annotations,
// and an exception unwinding a generator's stack was a false stack-buffer-underflow).
#if defined(__SANITIZE_ADDRESS__)
#define TLENS_ASAN_FIBERS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TLENS_ASAN_FIBERS 1
#endif
#endif
#ifdef TLENS_ASAN_FIBERS
#include <sanitizer/common_interface_defs.h>
#endif

namespace tlens::interp {
namespace {

// AddressSanitizer must be told about stack switches, or it reports false stack overflows when
// an exception unwinds a coroutine's stack.
inline void startSwitch(void** fake, const void* bottom, size_t size) {
#ifdef TLENS_ASAN_FIBERS
  __sanitizer_start_switch_fiber(fake, bottom, size);
#else
  (void)fake, (void)bottom, (void)size;
#endif
}
inline void finishSwitch(void* fake, const void** bottom, size_t* size) {
#ifdef TLENS_ASAN_FIBERS
  __sanitizer_finish_switch_fiber(fake, bottom, size);
#else
  (void)fake, (void)bottom, (void)size;
#endif
}

}  // namespace

Coroutine::Coroutine(std::function<void()> body, size_t stackSize) : body_(std::move(body)), size_(stackSize) {
  stack_ = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (stack_ == MAP_FAILED) {
    stack_ = nullptr;
    throw std::bad_alloc();
  }
}

Coroutine::~Coroutine() {
  if (stack_) munmap(stack_, size_);
}

void Coroutine::trampoline(unsigned lo, unsigned hi) {
  auto* self = reinterpret_cast<Coroutine*>((static_cast<uintptr_t>(hi) << 32) | static_cast<uintptr_t>(lo));
  finishSwitch(nullptr, &self->callerBottom_, &self->callerSize_);
  try {
    self->body_();
  } catch (...) {
    self->error_ = std::current_exception();
  }
  self->finished_ = true;
  self->running_ = false;
  startSwitch(nullptr, self->callerBottom_, self->callerSize_);
  swapcontext(&self->ctx_, &self->caller_);
}

void Coroutine::resume() {
  if (finished_ || running_) throw std::logic_error("coroutine is not resumable");
  if (!started_) {
    started_ = true;
    getcontext(&ctx_);
    ctx_.uc_stack.ss_sp = stack_;
    ctx_.uc_stack.ss_size = size_;
    ctx_.uc_link = nullptr;
    auto p = reinterpret_cast<uintptr_t>(this);
    makecontext(&ctx_, reinterpret_cast<void (*)()>(&Coroutine::trampoline), 2, static_cast<unsigned>(p & 0xffffffffu),
                static_cast<unsigned>(p >> 32));
  }
  running_ = true;
  void* fake = nullptr;
  startSwitch(&fake, stack_, size_);
  swapcontext(&caller_, &ctx_);
  finishSwitch(fake, nullptr, nullptr);
  if (error_) {
    std::exception_ptr e = error_;
    error_ = nullptr;
    std::rethrow_exception(e);
  }
}

void Coroutine::suspend() {
  running_ = false;
  startSwitch(&fakeStack_, callerBottom_, callerSize_);
  swapcontext(&ctx_, &caller_);
  finishSwitch(fakeStack_, &callerBottom_, &callerSize_);
  running_ = true;
}

}  // namespace tlens::interp
