# keras._saving: Model.save and keras.models.load_model in tensorlens' own model format.
#
# A saved model is a JSON document (tensorlens-keras-model, version 1) holding the architecture in
# Keras' config layout ({"class_name": "Sequential" | "Functional" | a subclass, "config": {...}},
# a functional model's layers with their "inbound_nodes"), the compile state (optimizer, loss,
# metrics, loss weights; not the optimizer's slot values) and, for subclassed models, the input
# shape they were built with; the weights are tensorlens checkpoint files beside it (the format of
# save_weights). Spellings, as Keras':
#   model.h5 / model.keras (a file): the JSON at that path, weights in <path>.index and
#       <path>.data-00000-of-00001;
#   anything else (a SavedModel directory): <dir>/keras_model.json, weights in
#       <dir>/variables/variables.index and .data-00000-of-00001 (TF's SavedModel naming).
# Files real Keras wrote (HDF5, the .keras zip archive, a SavedModel's saved_model.pb) are refused
# with the reason. Abstract mode never touches files: save remembers the model's config under its
# path and load_model rebuilds from that, else gives an unknown model.
import _tlens
import json as _json
import os as _os
from keras import _config
from keras import backend as _backend
from keras.layers import InputLayer, Input, _flatten, _input_layer_of

FORMAT = "tensorlens-keras-model"
_range = range
_abstract_saved = {}


def class_name(model):
    from keras.models import Model, Sequential
    if isinstance(model, Sequential) and type(model) is Sequential:
        return "Sequential"
    if type(model) is Model:
        return "Functional"
    return type(model).__name__


def entry(layer):
    return {"class_name": class_name(layer) if hasattr(layer, "_is_graph_network") else type(layer).__name__,
            "config": layer.get_config()}


# --- architecture --------------------------------------------------------------------------------
def sequential_config(model):
    layers = []
    if model._kt_in is not None and model._input_layer is not None:
        layers.append({"class_name": "InputLayer", "config": model._input_layer.get_config()})
    for l in model._layers:
        layers.append(entry(l))
    return {"name": model.name, "layers": layers}


def functional_config(model):
    """Keras' functional config: each layer with the calls (nodes) of it this model makes, each
    call's inputs as [layer name, node index, tensor index, call kwargs]."""
    relevant = {}
    for n in model._nodes:
        relevant[id(n)] = True
    index = {}
    for layer in model._layers:
        k = 0
        for node in layer._inbound_nodes:
            if id(node) in relevant or (isinstance(layer, InputLayer) and k == 0):
                index[id(node)] = k
                k += 1

    def ref(t, kwargs):
        p = _backend.producer(t)
        if p is None or id(p[0]) not in index:
            raise NotImplementedError("tensorlens: the tensor %s of model '%s' was not computed by one of its layers; it "
                                      "cannot be saved" % (t.name, model.name))
        return [p[0].layer.name, index[id(p[0])], p[1], kwargs]

    layers = []
    for layer in model._layers:
        inbound = []
        if not isinstance(layer, InputLayer):
            for node in layer._inbound_nodes:
                if id(node) in relevant:
                    kw = _config.serialize(node.kwargs, "the call of layer '%s'" % layer.name)
                    inbound.append([ref(t, kw) for t in _flatten(node.inputs) if _tlens.is_symbolic(t)])
        e = entry(layer)
        e["name"] = layer.name
        e["inbound_nodes"] = inbound
        layers.append(e)
    return {"name": model.name, "layers": layers,
            "input_layers": [ref(t, {})[:3] for t in model._kt_inputs],
            "output_layers": [ref(t, {})[:3] for t in model._kt_outputs]}


def _input(config):
    return Input(batch_shape=config["batch_input_shape"], dtype=config.get("dtype"), name=config.get("name"))


def sequential_from_config(cls, config, custom_objects):
    model = cls(name=config.get("name"))
    for e in config.get("layers", []):
        if e["class_name"] == "InputLayer":
            model.add(_input(e["config"]))
        else:
            model.add(_config.build(e, custom_objects))
    return model


def functional_from_config(cls, config, custom_objects):
    tensors = {}
    pending = []
    for e in config["layers"]:
        name = e.get("name", e["config"].get("name"))
        if e["class_name"] == "InputLayer":
            tensors[(name, 0, 0)] = _input(e["config"])
            continue
        layer = _config.build(e, custom_objects)
        for ni in _range(len(e.get("inbound_nodes", []))):
            pending.append((layer, name, ni, e["inbound_nodes"][ni]))
    # Each call once its inputs exist (shared layers may be called again after later layers).
    while pending:
        left = []
        for layer, name, ni, refs in pending:
            keys = [(r[0], r[1], r[2]) for r in refs]
            if not all([k in tensors for k in keys]):
                left.append((layer, name, ni, refs))
                continue
            args = [tensors[k] for k in keys]
            kwargs = refs[0][3] if refs and len(refs[0]) > 3 and refs[0][3] else {}
            out = layer(args[0] if len(args) == 1 else args, **_config.deserialize(kwargs, custom_objects))
            outs = _flatten(out)
            for ti in _range(len(outs)):
                tensors[(name, ni, ti)] = outs[ti]
        if len(left) == len(pending):
            raise ValueError("The saved model's layer graph cannot be rebuilt: the inputs of layer '%s' are never computed"
                             % left[0][1])
        pending = left
    ins = [tensors[(r[0], r[1], r[2])] for r in config["input_layers"]]
    outs = [tensors[(r[0], r[1], r[2])] for r in config["output_layers"]]
    return cls(ins[0] if len(ins) == 1 else ins, outs[0] if len(outs) == 1 else outs, name=config.get("name"))


# --- compile state -------------------------------------------------------------------------------
def compile_config(model):
    if not getattr(model, "_compiled", False):
        return None
    loss, metrics, weights = model._compile_args
    try:
        return {"optimizer": _config.serialize(model.optimizer, "the optimizer"),
                "loss": _config.serialize(loss, "the loss"), "metrics": _config.serialize(metrics, "the metrics"),
                "loss_weights": _config.serialize(weights, "the loss weights"),
                "weighted_metrics": _config.serialize(getattr(model, "_compile_weighted_metrics", None), "the weighted metrics")}
    except NotImplementedError:
        return None  # loaded uncompiled, as Keras loads a file without a training config


def _compile(model, cc, custom_objects):
    opt = _config.deserialize(cc["optimizer"], custom_objects)
    model.compile(optimizer=opt, loss=_config.deserialize(cc.get("loss"), custom_objects),
                  metrics=_config.deserialize(cc.get("metrics"), custom_objects),
                  loss_weights=cc.get("loss_weights"),
                  weighted_metrics=_config.deserialize(cc.get("weighted_metrics"), custom_objects))


# --- files -----------------------------------------------------------------------------------------
def _is_file_spelling(path):
    return path.endswith(".h5") or path.endswith(".hdf5") or path.endswith(".keras")


def _paths(path):
    """(document path, weights prefix) for a model saved at `path`."""
    if _is_file_spelling(path):
        return path, path
    return _os.path.join(path, "keras_model.json"), _os.path.join(path, "variables", "variables")


def _build_shape(model):
    from keras.models import Sequential
    if model._is_graph_network or isinstance(model, Sequential):
        return None
    shape = getattr(model, "_tlens_build_shape", None)
    if shape is None:
        raise NotImplementedError("tensorlens: the subclassed model '%s' has not been called on data yet, so its weights do "
                                  "not exist; call it (or fit it) before saving" % model.name)
    return list(shape)


def _check_built(model):
    from keras.models import Sequential
    if isinstance(model, Sequential) and model._kt_in is None and model._layers:
        raise ValueError("This model has not yet been built. Build the model first by calling `build()` or by calling "
                         "the model on a batch of data (tensorlens saves a model with its weights).")


def document(model, include_optimizer=True):
    _check_built(model)
    return {"format": FORMAT, "format_version": 1, "keras_version": "2.15.0", "backend": "tensorflow",
            "model_config": entry(model), "build_input_shape": _build_shape(model),
            "compile_config": compile_config(model) if include_optimizer else None}


def save_model(model, filepath, overwrite=True, include_optimizer=True):
    path = _os.fspath(filepath) if hasattr(_os, "fspath") else str(filepath)
    doc = document(model, include_optimizer)
    if _tlens.is_abstract():
        _abstract_saved[path] = doc
        return
    if not overwrite and _os.path.exists(path):
        return
    docpath, prefix = _paths(path)
    if not _is_file_spelling(path):
        _os.makedirs(_os.path.join(path, "variables"), exist_ok=True)
    else:
        parent = _os.path.dirname(path)
        if parent and not _os.path.isdir(parent):
            _os.makedirs(parent, exist_ok=True)
    doc["weights"] = {"prefix": _os.path.basename(prefix) if _is_file_spelling(path) else "variables/variables",
                      "count": len(model.weights)}
    with open(docpath, "w") as f:
        f.write(_json.dumps(doc))
    model.save_weights(prefix)


def _refuse(path, why):
    raise ValueError("Cannot load the model at %s: %s. tensorlens reads the models it saved itself (Model.save: a JSON "
                     "document with Keras' model config and tensorlens checkpoint files for the weights); rebuild the "
                     "model in code and load its weights from a file tensorlens wrote" % (path, why))


def _read_document(path):
    if not _os.path.exists(path):
        raise OSError("No file or directory found at %s" % path)
    if _os.path.isdir(path):
        docpath = _os.path.join(path, "keras_model.json")
        if not _os.path.exists(docpath):
            if _os.path.exists(_os.path.join(path, "saved_model.pb")):
                _refuse(path, "it is a SavedModel directory written by TensorFlow (saved_model.pb), whose protobuf graph "
                              "tensorlens does not read")
            _refuse(path, "the directory holds no keras_model.json")
    else:
        docpath = path
    with open(docpath, "rb") as f:
        head = f.read(8)
    if head[:4] == b"\x89HDF":
        _refuse(path, "it is an HDF5 file (Keras' .h5 format, written by h5py), which tensorlens does not read")
    if head[:4] == b"PK\x03\x04":
        _refuse(path, "it is a zip archive (the .keras format of Keras 2.13+ and Keras 3), which tensorlens does not read")
    with open(docpath, "r") as f:
        text = f.read()
    try:
        doc = _json.loads(text)
    except ValueError:
        _refuse(path, "it is not a model file (not JSON)")
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        _refuse(path, "it is JSON but not a tensorlens model document")
    if doc.get("format_version") != 1:
        _refuse(path, "format version %r is newer than this tensorlens reads (1)" % doc.get("format_version"))
    return doc, docpath


def rebuild(doc, custom_objects, compile):
    model = _config.build(doc["model_config"], custom_objects)
    shape = doc.get("build_input_shape")
    if shape is not None:
        import tensorflow as _tf
        model._symbolic_output([None] + list(shape[1:]), _tf.float32)
    if compile and doc.get("compile_config"):
        _compile(model, doc["compile_config"], custom_objects)
    return model


def load_model(filepath, custom_objects=None, compile=True):
    path = _os.fspath(filepath) if hasattr(_os, "fspath") else str(filepath)
    if _tlens.is_abstract():
        doc = _abstract_saved.get(path)
        if doc is None:
            return _tlens.unknown()
        return rebuild(doc, custom_objects, compile)
    doc, docpath = _read_document(path)
    model = rebuild(doc, custom_objects, compile)
    w = doc.get("weights") or {}
    prefix = _os.path.join(_os.path.dirname(docpath), w.get("prefix", ""))
    model.load_weights(prefix)
    return model
