# tf.contrib.seq2seq: the loss of sequence models (sequence_loss). The decoders (BasicDecoder,
# dynamic_decode, attention wrappers) are not modelled.
import tensorflow as tf


def sequence_loss(logits, targets, weights, average_across_timesteps=True, average_across_batch=True,
                  sum_over_timesteps=False, sum_over_batch=False, softmax_loss_function=None, name=None):
    """The weighted cross entropy of [batch, time, classes] logits against [batch, time] targets:
    averaged over the weights of the axes asked for (a scalar by default), or summed."""
    logits = tf.convert_to_tensor(logits)
    targets = tf.convert_to_tensor(targets)
    weights = tf.convert_to_tensor(weights)
    if logits.shape.ndims is not None and logits.shape.ndims != 3:
        raise ValueError("Logits must be a [batch_size x sequence_length x logits] tensor")
    if targets.shape.ndims is not None and targets.shape.ndims != 2:
        raise ValueError("Targets must be a [batch_size x sequence_length] tensor")
    if weights.shape.ndims is not None and weights.shape.ndims != 2:
        raise ValueError("Weights must be a [batch_size x sequence_length] tensor")
    if average_across_timesteps and sum_over_timesteps:
        raise ValueError("average_across_timesteps and sum_over_timesteps cannot be set to True at same time.")
    if average_across_batch and sum_over_batch:
        raise ValueError("average_across_batch and sum_over_batch cannot be set to True at same time.")
    with tf.name_scope(name, "sequence_loss", [logits, targets, weights]):
        classes = tf.shape(logits)[2]
        flat_logits = tf.reshape(logits, [-1, classes])
        flat_targets = tf.reshape(targets, [-1])
        if softmax_loss_function is None:
            loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=flat_targets, logits=flat_logits)
        else:
            loss = softmax_loss_function(labels=flat_targets, logits=flat_logits)
        loss = loss * tf.reshape(tf.cast(weights, loss.dtype), [-1])
        w = tf.cast(weights, loss.dtype)
        if (average_across_timesteps or sum_over_timesteps) and (average_across_batch or sum_over_batch):
            # Both axes reduced: one scalar. A sum over both divides by the number of nonzero weights.
            loss = tf.reduce_sum(loss)
            if average_across_timesteps:
                loss = loss / (tf.reduce_sum(w) + 1e-12)
            else:
                loss = loss / (tf.cast(tf.count_nonzero(w), loss.dtype) + 1e-12)
            return loss
        loss = tf.reshape(loss, tf.shape(logits)[:2])
        if average_across_timesteps or sum_over_timesteps:
            loss = tf.reduce_sum(loss, axis=[1])
            if average_across_timesteps:
                loss = loss / (tf.reduce_sum(w, axis=[1]) + 1e-12)
            else:
                loss = loss / (tf.cast(tf.count_nonzero(w, axis=[1]), loss.dtype) + 1e-12)
        elif average_across_batch or sum_over_batch:
            loss = tf.reduce_sum(loss, axis=[0])
            if average_across_batch:
                loss = loss / (tf.reduce_sum(w, axis=[0]) + 1e-12)
            else:
                loss = loss / (tf.cast(tf.count_nonzero(w, axis=[0]), loss.dtype) + 1e-12)
        return loss
