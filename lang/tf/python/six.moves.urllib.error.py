# six.moves.urllib.error: urllib.error.
from urllib.error import *
from urllib.error import URLError, HTTPError
