// ForeignFrame: a call into foreign code (the user's CPython libraries, lang/pybridge) shown as
// one frame of the program's Python stack while it runs, so that a callback from the library
// into the program stops under it in the debugger and tracebacks pass through it.
#pragma once

#include <memory>
#include <string>

namespace tlens::interp {

class Interpreter;
struct Frame;

/// RAII: pushes a copy of the innermost frame (so the foreign call shows at the calling line),
/// nameless until setName(); pops it when destroyed. Nothing is pushed when no frame runs.
class ForeignCallFrame {
 public:
  explicit ForeignCallFrame(Interpreter& in);
  ~ForeignCallFrame();
  ForeignCallFrame(const ForeignCallFrame&) = delete;
  ForeignCallFrame& operator=(const ForeignCallFrame&) = delete;

  /// Whether a frame was pushed.
  bool active() const { return frame_ != nullptr; }
  /// Whether the frame has a name yet (the stack shows it by its name).
  bool named() const;
  void setName(std::string name);

 private:
  Interpreter& in_;
  std::unique_ptr<Frame> frame_;
};

}  // namespace tlens::interp
