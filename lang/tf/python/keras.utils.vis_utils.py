# keras.utils.vis_utils: where Keras 2 kept plot_model.
from keras.utils import plot_model, model_to_dot
