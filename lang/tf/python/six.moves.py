# six.moves: Python 3's names for what Python 2 had elsewhere.
import functools
import io
import itertools
import os
import pickle as cPickle
import sys

from six.moves import urllib

xrange = range
reduce = functools.reduce
zip_longest = itertools.zip_longest


def filterfalse(predicate, iterable):
    return (x for x in iterable if not (x if predicate is None else predicate(x)))


def intern(string):
    return string


getcwd = os.getcwd
StringIO = io.StringIO
# range, zip, map, filter and input are the builtins themselves (found through the builtins).
range = range
zip = zip
map = map
filter = filter
input = input
