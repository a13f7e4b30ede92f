"""Plain-text corpora: sentence-polarity files, a character-level training text, and the
IWSLT'16 de-en layouts (the tagged 2016 release and its sentencepiece-segmented form)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np

_WORDS = ("the a of and to in is it that was for on with as his her they this film story "
          "man woman time day night house city river world life love heart mind hand eye "
          "light dark old new long small great good bad first last young king queen friend").split()
_GOOD = "wonderful moving brilliant charming funny warm clever beautiful fresh lovely".split()
_BAD = "boring dull clumsy tedious flat silly weak stale messy awful".split()
_DE = ("der die das und zu in ist es dass war fuer auf mit als sein ihr sie dies film "
       "geschichte mann frau zeit tag nacht haus stadt fluss welt leben liebe herz kopf hand "
       "auge licht dunkel alt neu lang klein gross gut schlecht erste letzte jung koenig freund").split()


def _sentence(rng: np.random.RandomState, words, low: int, high: int) -> list[str]:
    return [words[i] for i in rng.randint(0, len(words), size=rng.randint(low, high + 1))]


def rt_polarity(into: Path, per_class: int = 300, seed: int = 11) -> None:
    """`into/rt-polarity.pos` and `rt-polarity.neg`: one review sentence a line (utf-8)."""
    into.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(seed)
    for name, marked in (("rt-polarity.pos", _GOOD), ("rt-polarity.neg", _BAD)):
        lines = []
        for _ in range(per_class):
            words = _sentence(rng, _WORDS, 4, 14)
            for _ in range(rng.randint(1, 3)):
                words.insert(rng.randint(0, len(words) + 1), marked[rng.randint(0, len(marked))])
            lines.append(" ".join(words) + (" ." if rng.rand() < 0.7 else " !"))
        (into / name).write_text("\n".join(lines) + "\n", encoding="utf-8")


def char_text(into: Path, name: str = "input.txt", lines: int = 400, seed: int = 12) -> None:
    """`into/<name>`: play-like text (speaker lines and verse) for character-level models."""
    into.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(seed)
    speakers = ["FIRST CITIZEN", "MENENIUS", "KING", "QUEEN", "ROMEO", "JULIET"]
    out = []
    for index in range(lines):
        if index % 5 == 0:
            out.append("")
            out.append(speakers[rng.randint(0, len(speakers))] + ":")
        words = _sentence(rng, _WORDS + _GOOD + _BAD, 3, 10)
        words[0] = words[0].capitalize()
        out.append(" ".join(words) + [",", ".", ";", "!", "?"][rng.randint(0, 5)])
    (into / name).write_text("\n".join(out) + "\n", encoding="utf-8")


def _pairs(rng: np.random.RandomState, count: int, low: int, high: int):
    """German-like source and English-like target sentences, word for word."""
    pairs = []
    for _ in range(count):
        idx = rng.randint(0, min(len(_DE), len(_WORDS)), size=rng.randint(low, high + 1))
        pairs.append((" ".join(_DE[i] for i in idx), " ".join(_WORDS[i] for i in idx)))
    return pairs


def _xml(lang: str, sentences: list[str], name: str) -> str:
    head = ['<mteval>', f'<srcset setid="{name}" srclang="{lang}">',
            '<doc docid="1" genre="lectures">', "<url>http://www.ted.com/talks/1</url>",
            "<talkid>1</talkid>", "<title>A talk</title>"]
    segs = [f'<seg id="{i + 1}"> {s} </seg>' for i, s in enumerate(sentences)]
    return "\n".join(head + segs + ["</doc>", "</srcset>", "</mteval>"]) + "\n"


def iwslt_tags(into: Path, train: int = 320, test: int = 40, vocab: bool = False,
               seed: int = 13) -> None:
    """IWSLT'16 de-en as released: `into/corpora/train.tags.de-en.{de,en}` (talk tags and one
    sentence a line) and `IWSLT16.TED.tst2014.de-en.{de,en}.xml` (`<seg>` lines). With
    `vocab`, also `into/preprocessed/{de,en}.vocab.tsv` (word, count), as prepro.py writes."""
    corpora = into / "corpora"
    corpora.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(seed)
    pairs = _pairs(rng, train, 2, 8)
    tests = _pairs(rng, test, 2, 8)
    tags = ["<url>http://www.ted.com/talks/a_talk</url>", "<keywords>talks</keywords>",
            "<speaker>Someone</speaker>", "<talkid>1</talkid>"]
    for side, lang in ((0, "de"), (1, "en")):
        lines = []
        for index, pair in enumerate(pairs):
            if index % 40 == 0:
                lines += tags
            lines.append(pair[side])
        text = "\n".join(lines) + "\n"
        (corpora / f"train.tags.de-en.{lang}").write_text(text, encoding="utf-8")
        (corpora / f"IWSLT16.TED.tst2014.de-en.{lang}.xml").write_text(
            _xml(lang, [p[side] for p in tests], "IWSLT16.TED.tst2014"), encoding="utf-8")
        if vocab:
            kept = "".join(c for c in text if c.isspace() or c.isalpha() or c == "'")
            counts = Counter(kept.split())
            out = into / "preprocessed"
            out.mkdir(exist_ok=True)
            rows = [f"{w}\t1000000000" for w in ("<PAD>", "<UNK>", "<S>", "</S>")]
            rows += [f"{w}\t{c}" for w, c in sorted(counts.items(), key=lambda x: (-x[1], x[0]))]
            (out / f"{lang}.vocab.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")


def iwslt_bpe(into: Path, train: int = 160, valid: int = 16, seed: int = 14) -> None:
    """IWSLT'16 de-en after Kyubyong/transformer's prepro.py: `into/prepro/{train,eval,test}.
    {de,en}` and `into/segmented/{train,eval,test}.{de,en}.bpe` (sentencepiece pieces with the
    ▁ word marker) with the joint vocabulary `into/segmented/bpe.vocab` (piece, score)."""
    rng = np.random.RandomState(seed)
    prepro, segmented = into / "prepro", into / "segmented"
    prepro.mkdir(parents=True, exist_ok=True)
    segmented.mkdir(parents=True, exist_ok=True)

    def pieces(sentence: str) -> list[str]:
        out = []
        for word in sentence.split():
            cut = len(word) // 2 if len(word) > 5 else len(word)
            out.append("\u2581" + word[:cut])
            if word[cut:]:
                out.append(word[cut:])
        return out

    counts: Counter = Counter()
    for split, count in (("train", train), ("eval", valid), ("test", valid)):
        pairs = _pairs(rng, count, 2, 6)
        for side, lang in ((0, "de"), (1, "en")):
            sents = [p[side] for p in pairs]
            (prepro / f"{split}.{lang}").write_text("\n".join(sents), encoding="utf-8")
            segs = [" ".join(pieces(s)) for s in sents]
            for s in segs:
                counts.update(s.split())
            (segmented / f"{split}.{lang}.bpe").write_text("\n".join(segs) + "\n",
                                                          encoding="utf-8")
    rows = ["<pad>\t0", "<unk>\t0", "<s>\t0", "</s>\t0"]
    rows += [f"{p}\t-{i}" for i, (p, _) in
             enumerate(sorted(counts.items(), key=lambda x: (-x[1], x[0])))]
    (segmented / "bpe.vocab").write_text("\n".join(rows) + "\n", encoding="utf-8")


MAKERS = {"rt_polarity": rt_polarity, "char_text": char_text, "iwslt_tags": iwslt_tags,
          "iwslt_bpe": iwslt_bpe}
