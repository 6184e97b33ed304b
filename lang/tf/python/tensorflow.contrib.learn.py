# tf.contrib.learn: the part TF1 text programs still use, preprocessing's VocabularyProcessor
# (tensorflow.contrib.learn.preprocessing), the MNIST reader of datasets. ModeKeys for the estimator-era constants.
from tensorflow.contrib.learn import preprocessing
from tensorflow.contrib.learn import datasets


class ModeKeys:
    TRAIN = "train"
    EVAL = "eval"
    INFER = "infer"
