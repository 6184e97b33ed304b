# tf.contrib: the parts TF1 programs commonly use (layers, rnn shapes).
