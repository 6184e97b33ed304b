# tf.contrib.learn.datasets: load_dataset('mnist') and the mnist and base modules. The iris,
# boston and dbpedia sets (CSV files inside TensorFlow's package, or downloads) are not modelled.
from tensorflow.contrib.learn.datasets import base, mnist


def load_dataset(name, size="small", test_with_fake_data=False):
    if name == "mnist":
        return mnist.load_mnist()
    if name not in ("iris", "boston", "dbpedia"):
        raise ValueError("Name of dataset is not found: %s" % name)
    raise NotImplementedError("tensorlens: tf.contrib.learn.datasets.load_dataset(%r) is not modelled "
                              "(only 'mnist')" % name)
