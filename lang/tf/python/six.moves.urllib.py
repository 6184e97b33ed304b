# six.moves.urllib: the interpreter's urllib (request, parse, error).
import urllib.request as request
import urllib.parse as parse
import urllib.error as error
