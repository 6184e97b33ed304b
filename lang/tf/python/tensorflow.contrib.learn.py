# tf.contrib.learn: the part TF1 text programs still use, preprocessing's VocabularyProcessor
# (tensorflow.contrib.learn.preprocessing). ModeKeys for the estimator-era constants.
from tensorflow.contrib.learn import preprocessing


class ModeKeys:
    TRAIN = "train"
    EVAL = "eval"
    INFER = "infer"
