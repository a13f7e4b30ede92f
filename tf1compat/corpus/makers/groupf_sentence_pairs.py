"""Tab-separated sentence pairs as manythings.org/anki's `fra-eng/fra.txt` (the Keras
lstm_seq2seq example): `English<TAB>French`, one pair a line."""

from __future__ import annotations

from pathlib import Path

import numpy as np

_PAIRS = [("I", "Je"), ("you", "tu"), ("we", "nous"), ("see", "vois"), ("eat", "mange"),
          ("like", "aime"), ("the cat", "le chat"), ("the dog", "le chien"),
          ("an apple", "une pomme"), ("bread", "du pain"), ("today", "aujourd'hui"),
          ("now", "maintenant"), ("here", "ici"), ("Go.", "Va !"), ("Run!", "Cours !")]


def anki_pairs(into: Path, lines: int = 300, seed: int = 12, name: str = "fra.txt") -> None:
    """`into/NAME`: `lines` short pairs built word by word from a small seeded vocabulary."""
    rng = np.random.RandomState(seed)
    out = []
    for _ in range(lines):
        words = [_PAIRS[i] for i in rng.randint(0, len(_PAIRS), size=rng.randint(1, 4))]
        english = " ".join(w[0] for w in words)
        french = " ".join(w[1] for w in words)
        end = ".!?"[rng.randint(0, 3)]
        out.append(f"{english[0].upper()}{english[1:]}{end}\t{french[0].upper()}{french[1:]}{end}")
    into.mkdir(parents=True, exist_ok=True)
    (into / name).write_text("\n".join(out) + "\n", encoding="utf-8")


MAKERS = {"anki_pairs": anki_pairs}
