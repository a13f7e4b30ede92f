"""A tiny BERT model folder (bert_config.json, vocab.txt), a pretraining text corpus (one
sentence a line, documents split by blank lines) and SQuAD v1.1-style json files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

_WORDS = ("the a of and to in is it that was for on with as his her they this river city "
          "king queen house night day world life love light dark old new long small great good "
          "first last young friend water stone tree road music story paper garden window").split()
_SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


def _sentence(rng: np.random.RandomState, low: int, high: int) -> list[str]:
    return [_WORDS[i] for i in rng.randint(0, len(_WORDS), size=rng.randint(low, high + 1))]


def bert_tiny(into: Path, hidden: int = 32, layers: int = 2, heads: int = 2,
              intermediate: int = 64, max_position: int = 128, documents: int = 12,
              sentences: int = 8, seed: int = 31) -> None:
    """`into/bert_config.json`, `into/vocab.txt` (lower-case word pieces) and `into/corpus.txt`."""
    into.mkdir(parents=True, exist_ok=True)
    vocab = _SPECIAL + sorted(set(_WORDS)) + [".", ",", "?", "!"] + ["##s", "##ing", "##ed"]
    (into / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    config = {"attention_probs_dropout_prob": 0.1, "hidden_act": "gelu",
              "hidden_dropout_prob": 0.1, "hidden_size": hidden, "initializer_range": 0.02,
              "intermediate_size": intermediate, "max_position_embeddings": max_position,
              "num_attention_heads": heads, "num_hidden_layers": layers, "type_vocab_size": 2,
              "vocab_size": len(vocab)}
    (into / "bert_config.json").write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    rng = np.random.RandomState(seed)
    lines = []
    for _ in range(documents):
        for _ in range(sentences):
            words = _sentence(rng, 4, 12)
            words[0] = words[0].capitalize()
            lines.append(" ".join(words) + " .")
        lines.append("")
    (into / "corpus.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def squad_json(into: Path, train: int = 24, dev: int = 8, seed: int = 32) -> None:
    """`into/train-v1.1.json` and `into/dev-v1.1.json`: paragraphs, questions, answer spans."""
    into.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(seed)
    for name, count in (("train-v1.1.json", train), ("dev-v1.1.json", dev)):
        data = []
        for index in range(count):
            words = _sentence(rng, 20, 40)
            context = " ".join(words) + " ."
            start = rng.randint(0, len(words) - 3)
            length = rng.randint(1, 4)
            text = " ".join(words[start:start + length])
            offset = len(" ".join(words[:start])) + (1 if start else 0)
            question = " ".join(_sentence(rng, 3, 8)) + " ?"
            qas = [{"id": f"{name[:3]}-{index}", "question": question,
                    "answers": [{"text": text, "answer_start": offset}]}]
            data.append({"title": f"doc{index}", "paragraphs": [{"context": context, "qas": qas}]})
        (into / name).write_text(json.dumps({"version": "1.1", "data": data}) + "\n",
                                 encoding="utf-8")


MAKERS = {"bert_tiny": bert_tiny, "squad_json": squad_json}
