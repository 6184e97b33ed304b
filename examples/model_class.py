"""A subclassed tf.keras.Model trained with a GradientTape loop (TensorFlow 2's quickstart for
experts, smaller): layers are attributes of the model, call() wires them, and a tf.function
train step applies the gradients with a Keras optimizer."""
import tensorflow as tf
from tensorflow.keras import Model
from tensorflow.keras.layers import Conv2D, Dense, Flatten

mnist = tf.keras.datasets.mnist
(x_train, y_train), (x_test, y_test) = mnist.load_data()
# The first 2,000 training and 500 test images, so the example runs in seconds.
x_train, y_train, x_test, y_test = x_train[:2000], y_train[:2000], x_test[:500], y_test[:500]
x_train, x_test = x_train / 255.0, x_test / 255.0
x_train = x_train[..., tf.newaxis].astype("float32")
x_test = x_test[..., tf.newaxis].astype("float32")


class MyModel(Model):
    def __init__(self):
        super().__init__()
        self.conv1 = Conv2D(8, 3, activation="relu")
        self.flatten = Flatten()
        self.d1 = Dense(64, activation="relu")
        self.d2 = Dense(10)

    def call(self, x):
        x = self.conv1(x)
        x = self.flatten(x)
        x = self.d1(x)
        return self.d2(x)


model = MyModel()

loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = tf.keras.optimizers.Adam(learning_rate=0.005)

train_loss = tf.keras.metrics.Mean(name="train_loss")
train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="train_accuracy")
test_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="test_accuracy")


@tf.function
def train_step(images, labels):
    with tf.GradientTape() as tape:
        predictions = model(images, training=True)
        loss = loss_object(labels, predictions)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    train_loss(loss)
    train_accuracy(labels, predictions)


batch_size = 500
for epoch in range(2):
    train_loss.reset_states()
    train_accuracy.reset_states()
    for start in range(0, x_train.shape[0], batch_size):
        train_step(x_train[start:start + batch_size], y_train[start:start + batch_size])
    print("Epoch %d, Loss: %.4f, Accuracy: %.2f" % (epoch + 1, float(train_loss.result()),
                                                    float(train_accuracy.result()) * 100))

test_accuracy(y_test, model(x_test, training=False))
print("Test accuracy: %.2f" % (float(test_accuracy.result()) * 100))
model.summary()
