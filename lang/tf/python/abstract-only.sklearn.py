# scikit-learn for the language server (abstract mode only; `tlens run` and the debugger import the
# real one from the user's Python). Only return shapes of the most common calls are modelled; the
# rest of the package is unknown.
