from keras.layers import Input, Dense, Concatenate, Conv2D, Flatten
from keras.models import Model
a = Input(shape=(32, 32, 3))
b = Input(shape=(16,))
c1 = Conv2D(8, (3, 3))(a)
m = Concatenate()([c1, b])  # BUG
out = Dense(1)(Flatten()(m))
model = Model([a, b], out)
