// Placement: where an op runs, by TensorFlow's rules, from the op's definition, the device the
// program asked for (`with tf.device(...)`), and the program's devices. The graph builder, the
// eager context and static analysis call this one function, so a hover shows where a node will
// run, and why it is not where it was asked to be.
//
//  - An op that updates a variable (ref inputs) runs where the variable lives.
//  - An explicit request is honoured when the device exists and the op has a kernel there.
//    Otherwise the op goes to /cpu:0 with a note and `softPlaced`: TF1 sessions without
//    allow_soft_placement refuse such a node, as TensorFlow does; eager code and tf.function
//    always place softly (TF2's default).
//  - Without a request: /gpu:0 when the program has a GPU and the op has a GPU kernel, else /cpu:0
//    (with a note when a GPU exists but the op has no kernel for it).
#pragma once

#include <string>
#include <string_view>

#include "engine/core/DeviceSet.h"
#include "engine/ops/OpDef.h"

namespace tlens {

struct Placement {
  Device device;
  /// Empty when the op runs where it was asked or defaulted to; otherwise why not:
  /// "Print has no GPU kernel (it prints on the host); placed on /cpu:0".
  std::string note;
  /// An explicit request could not be honoured (hard placement fails on it).
  bool softPlaced = false;
};

/// `devices` null means only the CPU. `colocateWith` non-null: the op updates a variable there.
/// `strings`: the node reads or writes string tensors, which live on the host (TensorFlow's
/// string kernels are CPU kernels): it goes to /cpu:0 with a note, also when a GPU was asked
/// for (not counted as soft placement: TensorFlow's GPU kernels keep strings in host memory).
Placement placeOp(const OpDef& op, std::string_view requested, const DeviceSet* devices,
                  const Device* colocateWith = nullptr, bool strings = false);

}  // namespace tlens
