// Operators: the operator enums native objects implement, with their Python spellings and dunder
// names.
#pragma once

#include <string_view>

namespace tlens::interp {

enum class BinOp : uint8_t { Add, Sub, Mul, MatMul, TrueDiv, FloorDiv, Mod, Pow, LShift, RShift, And, Or, Xor };
enum class UnaryOp : uint8_t { Neg, Pos, Invert };
enum class CmpOp : uint8_t { Lt, Le, Eq, Ne, Gt, Ge };

/// "+", "@", "//", ...
std::string_view symbol(BinOp op);
std::string_view symbol(UnaryOp op);
std::string_view symbol(CmpOp op);
/// "__add__" / "__radd__" / "__iadd__".
std::string_view dunder(BinOp op);
std::string_view reflectedDunder(BinOp op);
std::string_view inplaceDunder(BinOp op);
std::string_view dunder(UnaryOp op);
std::string_view dunder(CmpOp op);
/// The comparison with swapped operands: a < b  <=>  b > a.
CmpOp swapped(CmpOp op);

}  // namespace tlens::interp
