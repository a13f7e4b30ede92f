"""The call forms the probe writes for a TF 1.15 function (Python 3.7, like `reading`).

Shared by the dump, which runs under TF 1.15 and records the forms TF 1.15 itself
refuses, and by `calls`, which writes the same forms for `migrate` on TF 2.21: both
number the forms the same way, so the data can name a refused form by its index.

A form is (positional indices, keyword indices) into TF 1.15's parameters: the
positional ones up to `name` by position, then each optional one alone by keyword
beside the required ones. Where `_sentinel` stops the positional form (the
cross-entropies take their tensors by keyword only), the parameters after it up to
`name` go by keyword in one form too, the call TF1 code writes.
"""

from __future__ import absolute_import, division, print_function

try:
    from tf1compat.surface import reading
except ImportError:  # under TF 1.15's interpreter, beside dump.py
    import reading

_POSITIONAL = (reading.POSITIONAL_ONLY, reading.POSITIONAL_OR_KEYWORD)


def forms(parameters):
    """(positional indices, keyword indices) of each call written for TF 1.15's parameters."""
    positional = [i for i, p in enumerate(parameters) if p[1] in _POSITIONAL]
    required = [i for i in positional if len(parameters[i]) < 3]
    required_keywords = [i for i, p in enumerate(parameters)
                         if p[1] == reading.KEYWORD_ONLY and len(p) < 3]
    names = [p[0] for p in parameters]
    upto = positional[:names.index("name") + 1] if "name" in names and \
        names.index("name") in positional else positional
    # `_sentinel` (the cross-entropies) makes TF 1.15 refuse positional arguments from there
    sentinel = next((i for i in upto if names[i].startswith("_")), None)
    through_name = upto
    if sentinel is not None:
        upto = [i for i in upto if i < sentinel]
    found = []
    if len(upto) > len(required):
        found.append((upto, required_keywords))
    if sentinel is not None:  # what the positional form could not pass, by keyword
        named = [i for i in through_name if i > sentinel]
        if named:
            found.append((upto, sorted(set(required_keywords) | set(named))))
    for i, p in enumerate(parameters):
        if len(p) >= 3 and p[1] in _POSITIONAL + (reading.KEYWORD_ONLY,) \
                and not p[0].startswith("_"):
            found.append((required, sorted(set(required_keywords) | {i})))
    return found or [(required, required_keywords)]


def call_text(name, parameters, form):
    positional, keywords = form
    args = ["p_%d" % i for i in positional] + \
        ["%s=p_%d" % (parameters[i][0], i) for i in keywords]
    return "%s(%s)" % (name, ", ".join(args))


def may_be_refused(parameters):
    """Whether a form can leave out what the function needs: every parameter has a default,
    so a form passing one keyword alone may pass none of the data the function works on
    (`sparse_softmax_cross_entropy_with_logits(labels=...)`, `count_nonzero(axis=...)`).
    Where a parameter is required, every form passes it."""
    return bool(parameters) and all(len(p) >= 3 for p in parameters
                                    if p[1] in _POSITIONAL + (reading.KEYWORD_ONLY,))
