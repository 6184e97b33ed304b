// Render: turns an interpreter value into the strings a Snapshot keeps (type, known value,
// signature, members). Called on the interpreter's thread while the value is alive.
#pragma once

#include <unordered_map>

#include "lang/interp/Interpreter.h"
#include "lsp/analysis/Snapshot.h"

namespace tlens::lsp {

/// Member lists by object, so a module seen many times is listed once per analysis.
using RenderCache = std::unordered_map<const interp::Object*, Members>;

/// `callPython`: may call Python (a Keras model's summary rows); only while a run is in progress.
ValueInfo renderValue(interp::Interpreter& in, const interp::Value& v, RenderCache& cache, bool callPython = true);
/// The same, into `info` (default-constructed: a fresh ValueInfo), saving a copy of the record.
void renderValueInto(interp::Interpreter& in, const interp::Value& v, RenderCache& cache, ValueInfo& info,
                     bool callPython = true);
/// The public names `v` offers after a dot; null when it offers none we can list.
Members memberNames(interp::Interpreter& in, const interp::Value& v, RenderCache& cache);

}  // namespace tlens::lsp
