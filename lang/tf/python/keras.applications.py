# keras.applications: VGG16 and VGG19 as Keras 2.15 builds them (layer names, shapes, include_top,
# pooling, input_tensor). weights="imagenet" fetches the weights file through
# keras.utils.get_file into ~/.keras/models, as Keras does: offline that is Keras' "URL fetch
# failure" at the user's line, and a cached file is an HDF5 file, which load_weights refuses
# naming the format. The other applications raise the same download error for
# weights="imagenet" and NotImplementedError for their architectures (not modelled).
from keras import layers as _layers
from keras import models as _models
from keras import backend as _backend
from keras import utils as _utils
import numpy as _np

_BASE = "https://storage.googleapis.com/tensorflow/keras-applications/"


def _check_weights(weights, include_top, classes):
    import os
    if not (weights in ("imagenet", None) or (isinstance(weights, str) and os.path.exists(weights))):
        raise ValueError("The `weights` argument should be either `None` (random initialization), `imagenet` "
                         "(pre-training on ImageNet), or the path to the weights file to be loaded.  Received: "
                         "weights=%s" % (weights,))
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError("If using `weights` as `\"imagenet\"` with `include_top` as true, `classes` should be 1000.  "
                         "Received `classes=%s`" % (classes,))


def _input(input_tensor, input_shape, include_top):
    if input_shape is None:
        input_shape = (224, 224, 3) if include_top else (None, None, 3)
    if input_tensor is None:
        return _layers.Input(shape=input_shape), None
    if not _backend.is_keras_tensor(input_tensor):
        return _layers.Input(tensor=input_tensor, shape=input_shape), input_tensor
    return input_tensor, input_tensor


def _vgg(name, convs, include_top, weights, input_tensor, input_shape, pooling, classes, classifier_activation):
    _check_weights(weights, include_top, classes)
    img_input, given = _input(input_tensor, input_shape, include_top)
    x = img_input
    for block, (filters, n) in enumerate(zip((64, 128, 256, 512, 512), convs), start=1):
        for k in range(1, n + 1):
            x = _layers.Conv2D(filters, (3, 3), activation="relu", padding="same", name="block%d_conv%d" % (block, k))(x)
        x = _layers.MaxPooling2D((2, 2), strides=(2, 2), name="block%d_pool" % block)(x)
    if include_top:
        x = _layers.Flatten(name="flatten")(x)
        x = _layers.Dense(4096, activation="relu", name="fc1")(x)
        x = _layers.Dense(4096, activation="relu", name="fc2")(x)
        x = _layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    elif pooling == "avg":
        x = _layers.GlobalAveragePooling2D()(x)
    elif pooling == "max":
        x = _layers.GlobalMaxPooling2D()(x)
    inputs = img_input if given is None else given
    model = _models.Model(inputs, x, name=name)
    if weights == "imagenet":
        fname = "%s_weights_tf_dim_ordering_tf_kernels%s.h5" % (name, "" if include_top else "_notop")
        path = _utils.get_file(fname, _BASE + name + "/" + fname, cache_subdir="models")
        model.load_weights(path)
    elif weights is not None:
        model.load_weights(weights)
    return model


def VGG16(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
          classifier_activation="softmax"):
    return _vgg("vgg16", (2, 2, 3, 3, 3), include_top, weights, input_tensor, input_shape, pooling, classes,
                classifier_activation)


def VGG19(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
          classifier_activation="softmax"):
    return _vgg("vgg19", (2, 2, 4, 4, 4), include_top, weights, input_tensor, input_shape, pooling, classes,
                classifier_activation)


def _caffe_preprocess(x):
    # 'caffe' mode: RGB -> BGR, then ImageNet's channel means subtracted (no scaling).
    x = _np.asarray(x, dtype="float32") if not hasattr(x, "numpy") else x
    x = x[..., ::-1]
    return x - _np.array([103.939, 116.779, 123.68], dtype="float32")


def preprocess_input(x, data_format=None):
    return _caffe_preprocess(x)


def decode_predictions(preds, top=5):
    path = _utils.get_file("imagenet_class_index.json", "https://storage.googleapis.com/download.tensorflow.org/data/imagenet_class_index.json",
                           cache_subdir="models")
    import json
    with open(path) as f:
        index = json.load(f)
    preds = _np.asarray(preds)
    out = []
    for p in preds:
        ids = _np.argsort(p)[-top:][::-1]
        out.append([tuple(index[str(int(i))]) + (float(p[i]),) for i in ids])
    return out


def _unmodelled(name, fname):
    def build(include_top=True, weights="imagenet", input_tensor=None, input_shape=None, pooling=None, classes=1000,
              **kwargs):
        _check_weights(weights, include_top, classes)
        if weights == "imagenet":
            # Keras builds the model, then downloads its weights: offline, the download fails here.
            _utils.get_file(fname, _BASE + fname, cache_subdir="models")
        raise NotImplementedError("tensorlens: keras.applications.%s's architecture is not modelled (VGG16 and VGG19 are)" % name)
    build.__name__ = name
    return build


ResNet50 = _unmodelled("ResNet50", "resnet/resnet50_weights_tf_dim_ordering_tf_kernels.h5")
ResNet101 = _unmodelled("ResNet101", "resnet/resnet101_weights_tf_dim_ordering_tf_kernels.h5")
ResNet152 = _unmodelled("ResNet152", "resnet/resnet152_weights_tf_dim_ordering_tf_kernels.h5")
ResNet50V2 = _unmodelled("ResNet50V2", "resnet/resnet50v2_weights_tf_dim_ordering_tf_kernels.h5")
InceptionV3 = _unmodelled("InceptionV3", "inception_v3/inception_v3_weights_tf_dim_ordering_tf_kernels.h5")
InceptionResNetV2 = _unmodelled("InceptionResNetV2", "inception_resnet_v2/inception_resnet_v2_weights_tf_dim_ordering_tf_kernels.h5")
Xception = _unmodelled("Xception", "xception/xception_weights_tf_dim_ordering_tf_kernels.h5")
MobileNet = _unmodelled("MobileNet", "mobilenet/mobilenet_1_0_224_tf.h5")
MobileNetV2 = _unmodelled("MobileNetV2", "mobilenet_v2/mobilenet_v2_weights_tf_dim_ordering_tf_kernels_1.0_224.h5")
DenseNet121 = _unmodelled("DenseNet121", "densenet/densenet121_weights_tf_dim_ordering_tf_kernels.h5")
EfficientNetB0 = _unmodelled("EfficientNetB0", "efficientnetb0.h5")
NASNetMobile = _unmodelled("NASNetMobile", "nasnet/NASNet-mobile.h5")
