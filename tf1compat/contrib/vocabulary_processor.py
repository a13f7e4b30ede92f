"""`tf.contrib.learn.preprocessing`: documents -> fixed-length rows of word ids, as TF 1.15.

- `tokenizer(documents)` yields each document's tokens with TF 1.15's
  regular expression (runs of capitals, capitalised words before a capital,
  and runs of word characters, apostrophes and hyphens);
- `VocabularyProcessor(max_document_length, min_frequency=0, vocabulary=None,
  tokenizer_fn=None)`: `fit` counts the tokens into a `CategoricalVocabulary`
  (then trims it to tokens seen more than `min_frequency` times, and
  freezes it), `transform` yields one int64 row of `max_document_length` ids
  per document (0 for padding and for unknown tokens, longer documents
  cut), `fit_transform` does both, `reverse` turns rows back into
  space-joined tokens ('<UNK>' for 0);
- `save(path)` pickles the processor, as TF 1.15 did; `restore(path)` reads
  those files and TF 1.15's: the class paths TF 1.15 wrote
  (`tensorflow.contrib.learn.python.learn.preprocessing.text.VocabularyProcessor`,
  `...categorical_vocabulary.CategoricalVocabulary`, `...text.tokenizer`) are
  read as this module's. A file saved here names tf1compat's classes, so
  TF 1.15 cannot read it back. As with any pickle, restore only files you
  trust;
- `ByteProcessor(max_document_length)`: each document's UTF-8 bytes, padded
  with zeros.

Paths go through `tf.io.gfile`, so `hdfs://` and `gs://` work where TensorFlow has them.

>>> processor = VocabularyProcessor(4)
>>> [row.tolist() for row in processor.fit_transform(["a b a", "c"])]
[[1, 2, 1, 0], [3, 0, 0, 0]]
>>> list(processor.reverse([[1, 3, 0, 0]]))
['a c <UNK> <UNK>']
"""

from __future__ import annotations

import io
import pickle
import re
from typing import Any

import numpy as np

from tf1compat.contrib import registry
from tf1compat.contrib.categorical_vocabulary import CategoricalVocabulary

__all__ = ["tokenizer", "VocabularyProcessor", "ByteProcessor", "CategoricalVocabulary"]

TOKENIZER_RE = re.compile(r"[A-Z]{2,}(?![a-z])|[A-Z][a-z]+(?=[A-Z])|[\'\w\-]+", re.UNICODE)

# TF 1.15's module paths in its pickles -> this module's names.
_TF1_MODULES = {
    f"{top}.contrib.learn.python.learn.preprocessing.{module}"
    for top in ("tensorflow", "tensorflow_core") for module in ("text", "categorical_vocabulary")
}


def tokenizer(iterator):
    """Yields the list of tokens of each string of `iterator`."""
    for value in iterator:
        yield TOKENIZER_RE.findall(value)


class VocabularyProcessor:
    """Maps documents to rows of word ids."""

    def __init__(self, max_document_length, min_frequency=0, vocabulary=None, tokenizer_fn=None):
        """
        Args:
          max_document_length: the row length: longer documents are cut, shorter padded with 0.
          min_frequency: `fit` keeps tokens seen more than this many times.
          vocabulary: a CategoricalVocabulary to start from (a new one when None).
          tokenizer_fn: a function from an iterable of documents to one token list each
            (`tokenizer` when None).
        """
        self.max_document_length = max_document_length
        self.min_frequency = min_frequency
        self.vocabulary_ = vocabulary if vocabulary else CategoricalVocabulary()
        self._tokenizer = tokenizer_fn if tokenizer_fn else tokenizer

    def fit(self, raw_documents, unused_y=None):
        """Counts every token of `raw_documents` into the vocabulary, then freezes it."""
        for tokens in self._tokenizer(raw_documents):
            for token in tokens:
                self.vocabulary_.add(token)
        if self.min_frequency > 0:
            self.vocabulary_.trim(self.min_frequency)
        self.vocabulary_.freeze()
        return self

    def fit_transform(self, raw_documents, unused_y=None):
        """`fit`, then `transform` (documents are read twice: pass a list, not a generator)."""
        self.fit(raw_documents)
        return self.transform(raw_documents)

    def transform(self, raw_documents):
        """Yields one int64 row of `max_document_length` word ids per document."""
        for tokens in self._tokenizer(raw_documents):
            row = np.zeros(self.max_document_length, np.int64)
            for position, token in zip(range(self.max_document_length), tokens):
                row[position] = self.vocabulary_.get(token)
            yield row

    def reverse(self, documents):
        """Yields each row of ids as its tokens joined by spaces."""
        for row in documents:
            yield " ".join(self.vocabulary_.reverse(class_id) for class_id in row)

    def save(self, filename):
        """Pickles the processor into `filename`."""
        import tensorflow as tf

        with tf.io.gfile.GFile(filename, "wb") as file:
            file.write(pickle.dumps(self))

    @classmethod
    def restore(cls, filename):
        """The processor pickled in `filename` (saved here or by TF 1.15).

        Raises:
          ValueError: the file holds no pickle (the message names the file).
        """
        import tensorflow as tf

        with tf.io.gfile.GFile(filename, "rb") as file:
            data = file.read()
        try:
            return _Tf1Unpickler(io.BytesIO(data)).load()
        except (pickle.UnpicklingError, EOFError) as error:
            raise ValueError(f"VocabularyProcessor.restore({filename!r}): not a saved "
                             f"VocabularyProcessor ({error})") from None


class ByteProcessor:
    """Maps documents to rows of their UTF-8 bytes, padded with zeros."""

    def __init__(self, max_document_length):
        self.max_document_length = max_document_length

    def fit(self, x):
        """Nothing to learn."""

    def fit_transform(self, x):
        return self.transform(x)

    def transform(self, x):
        """Yields one uint8 row of `max_document_length` bytes per document."""
        for document in x:
            if isinstance(document, str):
                document = document.encode("utf-8")
            data = np.frombuffer(memoryview(document)[:self.max_document_length], dtype=np.uint8)
            yield np.pad(data, (0, self.max_document_length - len(data)), "constant")

    def reverse(self, x):
        """Yields each row as text (trailing zeros dropped; '' when not UTF-8)."""
        for row in x:
            document = np.trim_zeros(row.astype(np.int8), trim="b").tobytes()
            try:
                yield document.decode("utf-8")
            except UnicodeDecodeError:
                yield ""


class _Tf1Unpickler(pickle.Unpickler):
    """Reads TF 1.15's class paths as this module's."""

    def find_class(self, module, name):
        if module in _TF1_MODULES and name in __all__:
            return globals()[name]
        return super().find_class(module, name)


def __getattr__(name: str) -> Any:
    return registry.attribute("learn.preprocessing", name)
