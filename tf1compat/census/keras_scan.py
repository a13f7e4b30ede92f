"""The Keras 2 names of the census repositories: `python -m tf1compat.census.keras_scan`.

The TF1 census counts names under `tensorflow`; standalone Keras 2 (`import keras`,
`from keras.layers import LSTM`, `import keras.backend.tensorflow_backend as KTF`) is the
other half of much TF1-era code. The same counter (`scan`) reads the same files of the same
repositories at the same commits (`data/repositories.csv`), with `keras` as the root: every
`import keras...`, `from keras... import`, and each later use of a name they bind, cut where
it starts reading a member as the TF1 census cuts it (`keras.layers.Dense`,
`keras.backend.tensorflow_backend.set_session`). Names are written in full from `keras`
(there is no public / source-tree split in Keras 2: `keras.engine.topology.Layer` is as
public as `keras.layers.Layer` was). `import keras_retinanet` and other packages whose name
only starts with `keras` are not Keras.

The counts go to `data/keras_uses.csv` (name, uses, repositories, spellings) and
`data/keras_repository_uses.csv` (repo, name, uses); `tests/census/test_keras_served.py`
holds every counted name against what `tf1compat run` serves for `keras`.
"""

from __future__ import annotations

import argparse
import ast
import os
import sys

from tf1compat.census import chains, scan, tally
from tf1compat.census.names import kept

ROOT = "keras"
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
USES = "keras_uses.csv"
REPOSITORY_USES = "keras_repository_uses.csv"


def _is_keras(module: str) -> bool:
    return module == ROOT or module.startswith(ROOT + ".")


class _KerasCounter(scan._Counter):
    """The TF1 census's counter with `keras` as the root module."""

    def use(self, binding: scan.Binding, rest: list[str], form: str = "attr") -> None:
        parts = binding.path(rest)
        keep = kept(parts)
        chain = [*binding.chain, *rest][:max(0, keep - len(binding.module.split(".")))]
        spelling = f"{form}:{binding.module}" + (":" + ".".join(chain) if form != "import" else "")
        self.uses.record(".".join(parts[:keep]), spelling)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if not _is_keras(alias.name):
                continue
            self.use(scan.Binding(alias.name), [], form="import")
            if alias.asname:
                self.bound[alias.asname] = scan.Binding(alias.name)
            else:  # `import keras.x` binds keras
                self.bound[ROOT] = scan.Binding(ROOT)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level or not _is_keras(module):
            return
        for alias in node.names:
            if alias.name == "*":
                self.uses.record(module, f"from:{module}:*")
                continue
            bound = alias.asname or alias.name
            binding = scan.Binding(module, (alias.name,),
                                   leaf=not self._module_like(bound, alias.name))
            self.use(binding, [], form="from")
            self.bound[bound] = binding


def count_source(source: str) -> tally.Uses:
    """The Keras uses of one Python source (empty when it names no keras or does not parse)."""
    if ROOT not in source:
        return tally.Uses()
    tree = chains.parse(source)
    if tree is None:
        return tally.Uses(unparsed=True)
    counter = _KerasCounter(chains.read_with_attributes(tree))
    for node in chains.imports(tree):
        counter.visit(node)
    if not counter.bound:
        return tally.Uses()  # a file that mentions keras but imports none (tf.keras only)
    for node in chains.references(tree):
        counter.visit(node)
    return counter.uses


def recount(data: str, mirrors: str) -> tally.Tally:
    rows = tally.read_rows(os.path.join(data, "repositories.csv"))
    counted = tally.count_repositories(rows, mirrors, count_source)
    tally.write_rows(os.path.join(data, USES), ["name", "uses", "repositories", "spellings"],
                     [[name, number, len(counted.repositories[name]),
                       " ".join(sorted(counted.spellings[name]))]
                      for name, number in counted.ranked()])
    tally.write_rows(os.path.join(data, REPOSITORY_USES), ["repo", "name", "uses"],
                     [[repo, name, number]
                      for (repo, name), number in sorted(counted.per_repo.items())])
    return counted


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tf1compat.census.keras_scan",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirrors", metavar="DIR", required=True,
                        help="the folder holding <owner>+<name>/repo git directories of the "
                             "repositories in repositories.csv")
    parser.add_argument("--data", metavar="DIR", default=DATA,
                        help="the census's folder (default: the committed census)")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.mirrors):
        print(f"python -m tf1compat.census.keras_scan: error: --mirrors {args.mirrors!r} is not "
              "a folder", file=sys.stderr)
        return 2
    counted = recount(args.data, args.mirrors)
    repositories = {repo for repo, _ in counted.per_repo}
    print(f"counted {sum(counted.totals.values())} uses of {len(counted.totals)} Keras names in "
          f"{len(repositories)} repositories -> {os.path.join(args.data, USES)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
