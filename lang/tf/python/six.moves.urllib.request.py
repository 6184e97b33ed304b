# six.moves.urllib.request: urllib.request.
from urllib.request import *
from urllib.request import urlretrieve, urlopen
