"""`tf.contrib.learn.preprocessing.CategoricalVocabulary`: categories (words) <-> integer ids.

TF 1.15's contract, in pure Python:

- id 0 is the unknown token ('<UNK>'); each new category gets the next id
  when it is first looked up (`get`) or counted (`add`), until `freeze()`,
  after which unknown categories map to 0;
- `trim(min_frequency, max_frequency=-1)` keeps the categories counted more
  than `min_frequency` times (and fewer than `max_frequency`, when given) and
  renumbers them 1..n by falling count, ties in sorted order of the
  category, as TF1 did;
- `reverse(id)` gives the category back (ValueError when built with
  `support_reverse=False`).

The attribute names are TF 1.15's, so a vocabulary pickled by TF 1.15
(inside a `VocabularyProcessor` file) restores into this class.

>>> vocab = CategoricalVocabulary()
>>> [vocab.get(word) for word in ("a", "b", "a")], vocab.reverse(2), len(vocab)
([1, 2, 1], 'b', 3)
"""

from __future__ import annotations

import collections

__all__ = ["CategoricalVocabulary"]


class CategoricalVocabulary:
    """Accumulates categories and maps each to an index (0: the unknown token)."""

    def __init__(self, unknown_token="<UNK>", support_reverse=True):
        self._unknown_token = unknown_token
        self._mapping = {unknown_token: 0}
        self._support_reverse = support_reverse
        if support_reverse:
            self._reverse_mapping = [unknown_token]
        self._freq = collections.defaultdict(int)
        self._freeze = False

    def __len__(self):
        """The number of ids, the unknown token's included."""
        return len(self._mapping)

    def freeze(self, freeze=True):
        """After freezing, a category not seen yet gets id 0 instead of a new id."""
        self._freeze = freeze

    def get(self, category):
        """The id of `category`, a new one if it is new and the vocabulary is not frozen."""
        if category in self._mapping:
            return self._mapping[category]
        if self._freeze:
            return 0
        self._mapping[category] = len(self._mapping)
        if self._support_reverse:
            self._reverse_mapping.append(category)
        return self._mapping[category]

    def add(self, category, count=1):
        """Counts `category` `count` more times (the unknown token is never counted)."""
        if self.get(category) <= 0:
            return
        self._freq[category] += count

    def trim(self, min_frequency, max_frequency=-1):
        """Keeps categories counted more than `min_frequency` times, renumbered by count.

        Args:
          min_frequency: a category counted this many times or fewer is dropped.
          max_frequency: when > 0, a category counted this many times or more is dropped.
        """
        by_category = sorted(self._freq.items(), key=lambda item: (isinstance(item[0], str),
                                                                   item[0]))
        ranked = sorted(by_category, key=lambda item: item[1], reverse=True)
        self._mapping = {self._unknown_token: 0}
        if self._support_reverse:
            self._reverse_mapping = [self._unknown_token]
        kept = 0
        for category, count in ranked:
            if max_frequency > 0 and count >= max_frequency:
                continue
            if count <= min_frequency:
                break  # counts fall from here on
            kept += 1
            self._mapping[category] = kept
            if self._support_reverse:
                self._reverse_mapping.append(category)
        # TF 1.15 keeps the counts of the first `kept` ranked categories (skipped ones included)
        self._freq = dict(ranked[:kept])

    def reverse(self, class_id):
        """The category of `class_id`.

        Raises:
          ValueError: the vocabulary was built with support_reverse=False.
        """
        if not self._support_reverse:
            raise ValueError("This vocabulary wasn't initialized with support_reverse to "
                             "support reverse() function.")
        return self._reverse_mapping[class_id]
