# keras.preprocessing.text: Tokenizer and the text helpers of Keras 2 (pure Python over numpy).
import numpy as _np
import math as _math

_FILTERS = '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\t\n'


def text_to_word_sequence(input_text, filters=_FILTERS, lower=True, split=" "):
    if lower:
        input_text = input_text.lower()
    table = {c: split for c in filters}
    input_text = "".join(table.get(c, c) for c in input_text)
    return [w for w in input_text.split(split) if w]


def one_hot(input_text, n, filters=_FILTERS, lower=True, split=" ", analyzer=None):
    return hashing_trick(input_text, n, hash_function=hash, filters=filters, lower=lower, split=split)


def hashing_trick(text, n, hash_function=None, filters=_FILTERS, lower=True, split=" ", analyzer=None):
    if hash_function is None:
        hash_function = hash
    seq = text_to_word_sequence(text, filters=filters, lower=lower, split=split)
    return [(hash_function(w) % (n - 1) + 1) for w in seq]


class Tokenizer:
    """Keras' Tokenizer: word counts and indices (most frequent first, 1-based), sequences and
    matrices (binary, count, freq, tfidf)."""

    def __init__(self, num_words=None, filters=_FILTERS, lower=True, split=" ", char_level=False, oov_token=None,
                 analyzer=None, document_count=0, **kwargs):
        if "nb_words" in kwargs:
            num_words = kwargs.pop("nb_words")
        self.num_words = num_words
        self.filters = filters
        self.lower = lower
        self.split = split
        self.char_level = char_level
        self.oov_token = oov_token
        self.document_count = document_count
        self.word_counts = {}
        self.word_docs = {}
        self.word_index = {}
        self.index_word = {}
        self.index_docs = {}

    def _words(self, text):
        if self.char_level:
            return [c.lower() if self.lower else c for c in text] if isinstance(text, str) else list(text)
        if isinstance(text, str):
            return text_to_word_sequence(text, self.filters, self.lower, self.split)
        return list(text)

    def fit_on_texts(self, texts):
        import _tlens
        if _tlens.is_unknown(texts) or (isinstance(texts, (list, tuple)) and any([_tlens.is_unknown(t) for t in texts])):
            # Abstract mode, texts read from a file: the vocabulary is unknown, not empty.
            self.document_count = _tlens.unknown()
            self.word_counts = self.word_docs = self.word_index = _tlens.unknown()
            self.index_word = self.index_docs = _tlens.unknown()
            return
        for text in texts:
            self.document_count += 1
            seq = self._words(text)
            for w in seq:
                self.word_counts[w] = self.word_counts.get(w, 0) + 1
            for w in set(seq):
                self.word_docs[w] = self.word_docs.get(w, 0) + 1
        ordered = sorted(list(self.word_counts.items()), key=lambda x: x[1], reverse=True)
        vocab = ([] if self.oov_token is None else [self.oov_token]) + [w for w, _ in ordered]
        self.word_index = {w: i + 1 for i, w in enumerate(vocab)}
        self.index_word = {i: w for w, i in self.word_index.items()}
        self.index_docs = {self.word_index[w]: c for w, c in self.word_docs.items()}

    def texts_to_sequences(self, texts):
        return [self._sequence(text) for text in texts]

    def _sequence(self, text):
        out = []
        oov = self.word_index.get(self.oov_token) if self.oov_token is not None else None
        for w in self._words(text):
            i = self.word_index.get(w)
            if i is not None and (not self.num_words or i < self.num_words):
                out.append(i)
            elif oov is not None:
                out.append(oov)
        return out

    def sequences_to_texts(self, sequences):
        return [" ".join(self.index_word[i] for i in seq if i in self.index_word) for seq in sequences]

    def texts_to_matrix(self, texts, mode="binary"):
        return self.sequences_to_matrix(self.texts_to_sequences(texts), mode=mode)

    def sequences_to_matrix(self, sequences, mode="binary"):
        if not self.num_words:
            if not self.word_index:
                raise ValueError("Specify a dimension (`num_words` argument), or fit on some text data first.")
            n = len(self.word_index) + 1
        else:
            n = self.num_words
        if mode == "tfidf" and not self.document_count:
            raise ValueError("Fit the Tokenizer on some data before using tfidf mode.")
        if mode not in ("binary", "count", "tfidf", "freq"):
            raise ValueError("Unknown vectorization mode: " + str(mode))
        rows = []
        for seq in sequences:
            row = [0.0] * n
            counts = {}
            for j in seq:
                if j < n:
                    counts[j] = counts.get(j, 0) + 1
            for j, c in counts.items():
                if mode == "count":
                    row[j] = float(c)
                elif mode == "freq":
                    row[j] = c / len(seq)
                elif mode == "binary":
                    row[j] = 1.0
                else:
                    tf = 1 + _math.log(c)
                    idf = _math.log(1 + self.document_count / (1 + self.index_docs.get(j, 0)))
                    row[j] = tf * idf
            rows.append(row)
        return _np.array(rows, dtype=_np.float64).reshape(len(rows), n)

    def get_config(self):
        return {"num_words": self.num_words, "filters": self.filters, "lower": self.lower, "split": self.split,
                "char_level": self.char_level, "oov_token": self.oov_token, "document_count": self.document_count}
