# sklearn.model_selection for abstract mode: train_test_split's shapes (rows as sklearn counts
# them when the input's rows are known, else unknown rows).
import math


def _sizes(n, test_size, train_size):
    if test_size is None and train_size is None:
        test_size = 0.25
    if test_size is not None:
        n_test = int(math.ceil(test_size * n)) if isinstance(test_size, float) else test_size
        if train_size is None:
            n_train = n - n_test
        else:
            n_train = int(math.floor(train_size * n)) if isinstance(train_size, float) else train_size
    else:
        n_train = int(math.floor(train_size * n)) if isinstance(train_size, float) else train_size
        n_test = n - n_train
    return n_train, n_test


def train_test_split(*arrays, test_size=None, train_size=None, random_state=None, shuffle=True, stratify=None):
    out = []
    n_train, n_test = _sizes(len(arrays[0]), test_size, train_size)
    for a in arrays:
        out.append(a[:n_train])
        out.append(a[n_train:n_train + n_test])
    return out
