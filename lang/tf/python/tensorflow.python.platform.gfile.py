# tensorflow.python.platform.gfile: tf.gfile under its internal name (each name is the public one).
import tensorflow as _tf

Exists = _tf.gfile.Exists
FastGFile = _tf.gfile.FastGFile
GFile = _tf.gfile.GFile
Glob = _tf.gfile.Glob
IsDirectory = _tf.gfile.IsDirectory
ListDirectory = _tf.gfile.ListDirectory
MakeDirs = _tf.gfile.MakeDirs
MkDir = _tf.gfile.MkDir
Open = _tf.gfile.Open
Remove = _tf.gfile.Remove
exists = _tf.gfile.exists
glob = _tf.gfile.glob
isdir = _tf.gfile.isdir
listdir = _tf.gfile.listdir
makedirs = _tf.gfile.makedirs
mkdir = _tf.gfile.mkdir
remove = _tf.gfile.remove
