// In-memory transports: a channel over a byte string (transcript tests) and a connected pair of
// channels (a test client talking to a server on another thread).
#include <condition_variable>
#include <deque>
#include <mutex>

#include "protocol/Channel.h"

namespace tlens::protocol {
namespace {

class StringChannel : public Channel {
 public:
  StringChannel(std::string input, std::string* output) : output_(output) {
    decoder_.feed(input);
  }
  std::optional<std::string> read() override {
    if (closed_) return std::nullopt;
    return decoder_.nextSkippingErrors(onError);  // nullopt: the input is used up
  }
  void write(std::string_view body) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!closed_ && output_) output_->append(encodeFrame(body));
  }
  void close() override {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
  }

 private:
  FrameDecoder decoder_;
  std::string* output_;
  std::mutex mutex_;
  bool closed_ = false;
};

/// The state two ends of a pair share: one queue per direction.
struct Pipe {
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<std::string> queue[2];
  bool closed = false;
};

class PairEnd : public Channel {
 public:
  PairEnd(std::shared_ptr<Pipe> pipe, int side) : pipe_(std::move(pipe)), side_(side) {}
  ~PairEnd() override { close(); }
  std::optional<std::string> read() override {
    std::unique_lock<std::mutex> lock(pipe_->mutex);
    auto& in = pipe_->queue[side_];
    pipe_->changed.wait(lock, [&] { return !in.empty() || pipe_->closed; });
    if (in.empty()) return std::nullopt;
    std::string body = std::move(in.front());
    in.pop_front();
    return body;
  }
  void write(std::string_view body) override {
    std::lock_guard<std::mutex> lock(pipe_->mutex);
    if (pipe_->closed) return;
    pipe_->queue[1 - side_].emplace_back(body);
    pipe_->changed.notify_all();
  }
  void close() override {
    std::lock_guard<std::mutex> lock(pipe_->mutex);
    pipe_->closed = true;
    pipe_->changed.notify_all();
  }

 private:
  std::shared_ptr<Pipe> pipe_;
  int side_;
};

}  // namespace

std::unique_ptr<Channel> memoryChannel(std::string input, std::string* output) {
  return std::make_unique<StringChannel>(std::move(input), output);
}

std::pair<std::unique_ptr<Channel>, std::unique_ptr<Channel>> channelPair() {
  auto pipe = std::make_shared<Pipe>();
  return {std::make_unique<PairEnd>(pipe, 0), std::make_unique<PairEnd>(pipe, 1)};
}

}  // namespace tlens::protocol
