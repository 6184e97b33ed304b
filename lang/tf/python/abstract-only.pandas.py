# pandas for abstract mode: read_csv(...).values is a 2-D float64 array of unknown rows and
# columns; everything else is unknown: columns (`df["a"]`), assignments into a frame, and any
# method or attribute not modelled here, so no analysis result comes from a guess about pandas.
import numpy as np
import _tlens


def _unknown():
    return _tlens.value(_tlens.typed(None, None))


class DataFrame:
    def __init__(self, *args, **kwargs):
        pass

    @property
    def values(self):
        return _tlens.abstract_tensor(np.float64, [None, None])

    def to_numpy(self, *args, **kwargs):
        return self.values

    def __getitem__(self, key):
        return _unknown()

    def __setitem__(self, key, value):
        pass

    def __getattr__(self, name):
        return _unknown()


Series = DataFrame


def read_csv(*args, **kwargs):
    return DataFrame()

