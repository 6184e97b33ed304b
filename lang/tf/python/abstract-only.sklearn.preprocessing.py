# sklearn.preprocessing for abstract mode: the shapes and dtypes the scalers and encoders return.
import numpy as np
import _tlens


def _floats(X):
    X = np.asarray(X)
    if X.dtype == np.float32:
        return X + np.float32(0)
    return X.astype(np.float64)


class _Scaler:
    def __init__(self, *args, **kwargs):
        pass

    def fit(self, X, y=None):
        return self

    def transform(self, X):
        return _floats(X)

    def fit_transform(self, X, y=None):
        return _floats(X)

    def inverse_transform(self, X):
        return _floats(X)


class StandardScaler(_Scaler):
    pass


class MinMaxScaler(_Scaler):
    pass


class LabelEncoder:
    def fit(self, y):
        return self

    def transform(self, y):
        return _tlens.abstract_tensor(np.int64, [None])

    def fit_transform(self, y):
        return self.transform(y)


class OneHotEncoder:
    def __init__(self, *args, sparse_output=True, sparse=None, **kwargs):
        self.sparse_output = sparse_output if sparse is None else sparse

    def fit(self, X, y=None):
        return self

    def transform(self, X):
        # One column per category seen in the data: unknown; the rows are X's.
        return _tlens.abstract_tensor(np.float64, [None, None])

    def fit_transform(self, X, y=None):
        return self.transform(X)
