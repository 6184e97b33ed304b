#include "engine/core/Error.h"

namespace tlens {

const char* errorCodeName(ErrorCode c) {
  switch (c) {
    case ErrorCode::InvalidArgument: return "InvalidArgumentError";
    case ErrorCode::FailedPrecondition: return "FailedPreconditionError";
    case ErrorCode::ResourceExhausted: return "ResourceExhaustedError";
    case ErrorCode::OutOfRange: return "OutOfRangeError";
    case ErrorCode::Unimplemented: return "UnimplementedError";
    case ErrorCode::Cancelled: return "CancelledError";
    case ErrorCode::NotFound: return "NotFoundError";
    case ErrorCode::Internal: return "InternalError";
  }
  return "Error";
}

}  // namespace tlens
