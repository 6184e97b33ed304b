// A TF1 program whose Keras model trains as session runs (keras._session_steps) runs under the
// debugger: a breakpoint after fit stops there with the history and the weights readable, and
// the program ends normally.
#include "tests/dap/DapTestSupport.h"

using namespace tlens::dap::testing;

namespace {

const char* kKerasSession = R"(import numpy as np
import tensorflow as tf
from tensorflow.keras import backend as K
from tensorflow.keras.layers import Dense
from tensorflow.keras.models import Sequential
sess = tf.Session()
K.set_session(sess)
x = tf.placeholder(tf.float32, [None, 3])
model = Sequential([Dense(8, activation="relu", input_dim=3), Dense(1)])
model.compile(optimizer="sgd", loss="mse")
X = np.linspace(0, 1, 60).reshape(20, 3).astype("float32")
hist = model.fit(X, X.sum(axis=1, keepdims=True), epochs=3, batch_size=5, verbose=0)
losses = hist.history["loss"]  #$ after
print("trained", len(losses))
)";

}  // namespace

TEST_CASE("a TF1 program's Keras fit runs under the debugger and stops after it", "[dap][keras]") {
  Fixture f = Fixture::fromText("keras_session.py", kKerasSession);
  Client c;
  c.start(f.path, {{f.line("after"), json()}});
  json s = c.event("stopped");
  REQUIRE(s.is_object());
  CHECK(s["body"]["reason"] == "breakpoint");
  CHECK(c.stackTrace()[0]["line"] == f.line("after"));
  json r = c.request("evaluate", {{"expression", "len(hist.history['loss'])"}, {"frameId", 0}});
  REQUIRE(r["success"] == true);
  CHECK(r["body"]["result"] == "3");
  r = c.request("evaluate", {{"expression", "model.get_weights()[0].shape"}, {"frameId", 0}});
  INFO(r.dump());
  REQUIRE(r["success"] == true);
  CHECK(r["body"]["result"] == "(3, 8)");
  REQUIRE(c.request("continue", {{"threadId", 1}})["success"] == true);
  json exited = c.event("exited");
  REQUIRE(exited.is_object());
  CHECK(exited["body"]["exitCode"] == 0);
  CHECK(c.output().find("trained 3") != std::string::npos);
}
