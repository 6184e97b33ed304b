# six.moves.urllib.parse: urllib.parse.
from urllib.parse import *
