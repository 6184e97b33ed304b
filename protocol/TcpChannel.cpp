// The TCP transport on 127.0.0.1 (Boost.Asio, blocking sockets): one connection at a time.
#include <sys/socket.h>

#include <atomic>
#include <mutex>
#include <utility>  // before Asio: its awaitable.hpp uses std::exchange without including it

#include <boost/asio.hpp>

#include "protocol/Channel.h"

namespace tlens::protocol {
namespace {

using boost::asio::ip::tcp;

class TcpChannel : public Channel {
 public:
  TcpChannel(std::shared_ptr<boost::asio::io_context> io, tcp::socket socket)
      : io_(std::move(io)), socket_(std::move(socket)) {
    boost::system::error_code ignored;
    socket_.set_option(tcp::no_delay(true), ignored);
  }
  ~TcpChannel() override { close(); }

  std::optional<std::string> read() override {
    char chunk[64 * 1024];
    while (true) {
      if (auto body = decoder_.nextSkippingErrors(onError)) return body;
      if (closed_) return std::nullopt;
      boost::system::error_code ec;
      size_t n = socket_.read_some(boost::asio::buffer(chunk), ec);
      if (ec == boost::asio::error::interrupted) continue;
      if (ec || n == 0) return std::nullopt;  // peer closed, or close() shut the socket down
      decoder_.feed(std::string_view(chunk, n));
    }
  }

  void write(std::string_view body) override {
    std::string frame = encodeFrame(body);
    std::lock_guard<std::mutex> lock(writeMutex_);
    if (closed_) return;
    boost::system::error_code ec;
    boost::asio::write(socket_, boost::asio::buffer(frame), ec);
  }

  bool writeFromSignalHandler(const std::string_view* bodies, size_t count) noexcept override {
    if (closed_ || !seizeForLastWords(writeMutex_)) return false;  // kept: the process is ending
    const int fd = socket_.native_handle();
    for (size_t i = 0; i < count; ++i) {
      char header[48];
      size_t h = formatFrameHeader(bodies[i].size(), header);
      if (!writeAllToFd(fd, header, h) || !writeAllToFd(fd, bodies[i].data(), bodies[i].size())) return false;
    }
    return true;
  }


  void close() override {
    if (closed_.exchange(true)) return;
    // shutdown(2) on the descriptor wakes a reader blocked in another thread.
    ::shutdown(socket_.native_handle(), SHUT_RDWR);
  }

 private:
  std::shared_ptr<boost::asio::io_context> io_;
  tcp::socket socket_;
  FrameDecoder decoder_;
  std::mutex writeMutex_;
  std::atomic<bool> closed_{false};
};

}  // namespace

void serveTcp(int port, const std::function<bool(Channel&)>& session,
              const std::function<void(int port)>& onListening) {
  auto io = std::make_shared<boost::asio::io_context>();
  tcp::acceptor acceptor(*io);
  tcp::endpoint endpoint(boost::asio::ip::address_v4::loopback(), static_cast<uint16_t>(port));
  boost::system::error_code ec;
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  if (!ec) acceptor.bind(endpoint, ec);
  if (!ec) acceptor.listen(boost::asio::socket_base::max_listen_connections, ec);
  if (ec)
    throw std::runtime_error("cannot listen on 127.0.0.1:" + std::to_string(port) + ": " +
                             ec.message());
  if (onListening) onListening(acceptor.local_endpoint().port());
  while (true) {
    tcp::socket socket(*io);
    acceptor.accept(socket, ec);
    if (ec == boost::asio::error::interrupted) continue;
    if (ec) throw std::runtime_error("accept failed: " + ec.message());
    TcpChannel channel(io, std::move(socket));
    bool more = session(channel);
    channel.close();
    if (!more) break;
  }
}

std::unique_ptr<Channel> connectTcp(int port) {
  auto io = std::make_shared<boost::asio::io_context>();
  tcp::socket socket(*io);
  boost::system::error_code ec;
  socket.connect(tcp::endpoint(boost::asio::ip::address_v4::loopback(),
                               static_cast<uint16_t>(port)),
                 ec);
  if (ec)
    throw std::runtime_error("cannot connect to 127.0.0.1:" + std::to_string(port) + ": " +
                             ec.message());
  return std::make_unique<TcpChannel>(io, std::move(socket));
}

}  // namespace tlens::protocol
