// Abstract mode never imports the user's Python (lang/pybridge is concrete-only): the language
// server knows the return shapes of the most common scikit-learn and pandas calls from small
// models (lang/tf/python/abstract-only.*.py); the rest of those libraries is unknown, silently.
#include <catch2/catch.hpp>

#include "tests/tf/TfTestSupport.h"

using namespace tlens;
using namespace tlens::tf::testing;

TEST_CASE("abstract mode models train_test_split, the scalers, the encoders and read_csv(...).values", "[tf][pybridge]") {
  const char* src = R"(import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler, MinMaxScaler, LabelEncoder, OneHotEncoder
X = np.zeros((150, 4), dtype=np.float32)
y = np.zeros(150, dtype=np.int64)
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=0)
a, b = train_test_split(np.ones((10, 3)))
s = StandardScaler().fit_transform(X_train)
m = MinMaxScaler().fit(y.reshape(-1, 1)).transform(y.reshape(-1, 1))
labels = LabelEncoder().fit_transform(["a", "b", "a"])
onehot = OneHotEncoder().fit_transform(X)
data = pd.read_csv("somewhere.csv").values
rows = pd.read_csv("somewhere.csv").describe()
)";
  TfRun a = runTf(src, interp::Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("X_train") == "float32[120, 4]");
  CHECK(a.type("X_test") == "float32[30, 4]");
  CHECK(a.type("y_train") == "int64[120]");
  CHECK(a.type("y_test") == "int64[30]");
  CHECK(a.type("a") == "float64[7, 3]");
  CHECK(a.type("b") == "float64[3, 3]");
  CHECK(a.type("s") == "float32[120, 4]");
  CHECK(a.type("m") == "float64[150, 1]");
  // Rows and columns that depend on the data are symbolic dimensions, like tf.data's.
  CHECK(a.type("labels") == "int64[batch]");
  CHECK(a.type("onehot") == "float64[batch, d1]");
  CHECK(a.type("data") == "float64[batch, d1]");

  // Concrete runs do not see the models: without the bridge the import is the user's Python's.
  TfRun c = runTf("import sklearn.model_selection\n");
  INFO(c.err);
  CHECK(c.err.find("ModuleNotFoundError: No module named 'sklearn.model_selection'") != std::string::npos);
}

TEST_CASE("abstract pandas: columns, assignments and unmodelled methods are unknown, never an error", "[tf][pybridge]") {
  TfRun a = runTf(R"(import pandas as pd
df = pd.read_csv("data.csv", names=["RM", "MEDV"])
train = df.sample(frac=0.8, random_state=0)
test = df.drop(train.index)
x = train["RM"]
df["ratio"] = df["RM"] / df["MEDV"]
stats = train.describe().transpose()
values = df.values
)", interp::Mode::Abstract);
  CHECK(a.diagnostics() == "");
  CHECK(a.type("values") == "float64[batch, d1]");
}
