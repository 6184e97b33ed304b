# pandas for abstract mode: read_csv(...).values is a 2-D float64 array of unknown rows and
# columns; everything else is unknown.
import numpy as np
import _tlens


class DataFrame:
    def __init__(self, *args, **kwargs):
        pass

    @property
    def values(self):
        return _tlens.abstract_tensor(np.float64, [None, None])

    def to_numpy(self, *args, **kwargs):
        return self.values


def read_csv(*args, **kwargs):
    return DataFrame()
