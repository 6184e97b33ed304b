// Expected<T>: a value or an Error, across the async and feature boundaries of the server. The
// protocol adapter turns an Error into a JSON-RPC error response; nothing here knows JSON.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace tlens::lsp {

/// JSON-RPC and LSP error codes.
enum class ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  RequestFailed = -32803,
  ContentModified = -32801,
  RequestCancelled = -32800,
};

struct Error {
  ErrorCode code = ErrorCode::InternalError;
  std::string message;
};

template <class T>
class Expected {
 public:
  Expected(T value) : v_(std::move(value)) {}
  Expected(Error e) : v_(std::move(e)) {}
  explicit operator bool() const { return v_.index() == 0; }
  T& operator*() { return std::get<0>(v_); }
  const T& operator*() const { return std::get<0>(v_); }
  T* operator->() { return &std::get<0>(v_); }
  const T* operator->() const { return &std::get<0>(v_); }
  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

}  // namespace tlens::lsp
