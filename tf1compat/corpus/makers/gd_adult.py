"""The UCI Adult (census income) data set's text files: 15 comma-and-space separated fields a
line, no header (`39, State-gov, 77516, Bachelors, 13, ..., United-States, <=50K`).

Every category of the real data set appears in each file, so one-hot encodings have the real
widths. `missing=True` writes the real data's `?` values (workclass, occupation,
native-country; `Never-worked` rows have occupation `?`, as in the real data); `missing=False`
writes rows as they are once those are dropped. The test file's labels end in
`test_label_suffix` (the real adult.test writes `>50K.`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

WORKCLASS = ["Private", "Self-emp-not-inc", "Self-emp-inc", "Federal-gov", "Local-gov",
             "State-gov", "Without-pay"]
EDUCATION = [("Bachelors", 13), ("Some-college", 10), ("11th", 7), ("HS-grad", 9),
             ("Prof-school", 15), ("Assoc-acdm", 12), ("Assoc-voc", 11), ("9th", 5),
             ("7th-8th", 4), ("12th", 8), ("Masters", 14), ("1st-4th", 2), ("10th", 6),
             ("Doctorate", 16), ("5th-6th", 3), ("Preschool", 1)]
MARITAL = ["Married-civ-spouse", "Divorced", "Never-married", "Separated", "Widowed",
           "Married-spouse-absent", "Married-AF-spouse"]
OCCUPATION = ["Tech-support", "Craft-repair", "Other-service", "Sales", "Exec-managerial",
              "Prof-specialty", "Handlers-cleaners", "Machine-op-inspct", "Adm-clerical",
              "Farming-fishing", "Transport-moving", "Priv-house-serv", "Protective-serv",
              "Armed-Forces"]
RELATIONSHIP = ["Wife", "Own-child", "Husband", "Not-in-family", "Other-relative", "Unmarried"]
RACE = ["White", "Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other", "Black"]
SEX = ["Female", "Male"]
COUNTRY = ["United-States", "Cambodia", "England", "Puerto-Rico", "Canada", "Germany",
           "Outlying-US(Guam-USVI-etc)", "India", "Japan", "Greece", "South", "China", "Cuba",
           "Iran", "Honduras", "Philippines", "Italy", "Poland", "Jamaica", "Vietnam", "Mexico",
           "Portugal", "Ireland", "France", "Dominican-Republic", "Laos", "Ecuador", "Taiwan",
           "Haiti", "Columbia", "Hungary", "Guatemala", "Nicaragua", "Scotland", "Thailand",
           "Yugoslavia", "El-Salvador", "Trinadad&Tobago", "Peru", "Hong", "Holand-Netherlands"]


def _rows(count: int, missing: bool, suffix: str, rng: np.random.RandomState) -> list[str]:
    workclass = WORKCLASS + (["Never-worked", "?"] if missing else [])
    occupation = OCCUPATION + (["?"] if missing else [])
    country = COUNTRY + (["?"] if missing else [])
    lines = []
    for i in range(count):
        def pick(values):   # the first rows go through every value, then at random
            return values[i % len(values)] if i < 2 * len(values) else values[rng.randint(len(values))]
        work = pick(workclass)
        occ = "?" if work in ("Never-worked", "?") else pick(occupation)
        education, years = pick(EDUCATION)
        age = int(rng.randint(17, 80))
        hours = int(rng.randint(10, 70))
        gain = int(rng.choice([0, 0, 0, 2174, 5178, 14084]))
        loss = int(rng.choice([0, 0, 0, 0, 1902]))
        score = 0.04 * years + 0.01 * hours + (0.3 if gain else 0.0) + 0.2 * rng.randn()
        label = (">50K" if score > 1.1 else "<=50K") + suffix
        fields = [age, work, int(rng.randint(20000, 500000)), education, years, pick(MARITAL),
                  occ, pick(RELATIONSHIP), pick(RACE), pick(SEX), gain, loss, hours,
                  pick(country), label]
        lines.append(", ".join(str(f) for f in fields))
    return lines


def adult_census(into: Path, names: tuple = ("adult.data", "adult.test"), train: int = 400,
                 test: int = 200, missing: bool = True, test_label_suffix: str = ".",
                 seed: int = 13) -> None:
    into.mkdir(parents=True, exist_ok=True)
    rng = np.random.RandomState(seed)
    train_name, test_name = names
    (into / train_name).write_text("\n".join(_rows(train, missing, "", rng)) + "\n")
    (into / test_name).write_text(
        "\n".join(_rows(test, missing, test_label_suffix, rng)) + "\n")


MAKERS = {"adult_census": adult_census}
