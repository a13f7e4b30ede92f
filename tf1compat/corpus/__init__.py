"""The real-program corpus: public TensorFlow 1 programs as the measure of what users meet.

Each program is named by repository, commit, path and git blob (never committed), fetched from a
mirror of its repository, checked against its blob, edited only as the selection rule allows
(sizes, data paths), given synthetic data in its own on-disk format, and run four ways:
under TensorFlow 1.15 (the reference), under `tf1compat run`, after `tf1compat migrate` and
after `tf1compat migrate --to tf2`. `python -m tf1compat.corpus` prints the table.
See `tf1compat/corpus/data/README.md` for the rule and the files.
"""
