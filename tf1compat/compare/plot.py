"""`tf1compat compare --plot`: TF1 and TF2 training curves, side by side, with matplotlib."""

from __future__ import annotations

from typing import Any

from tf1compat.shared.errors import Tf1CompatError

METRICS = (("loss", "loss per epoch"), ("accuracy", "accuracy per epoch"))


def require_matplotlib() -> None:
    """Raises Tf1CompatError naming the extra to install when matplotlib cannot be imported."""
    try:
        import matplotlib  # noqa: F401 - only whether it imports
    except ImportError:
        raise Tf1CompatError("--plot needs matplotlib: pip install 'tf1compat[plot]'") from None


def plot_histories(rows: list[dict[str, Any]], path: str) -> int:
    """Draws one row of panels (loss, accuracy) per training example; returns how many."""
    require_matplotlib()
    import matplotlib

    matplotlib.use("Agg")  # files only; no display needed
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    trained = [row for row in rows
               if all(row.get(form) and row[form].get("history") for form in ("tf1", "tf2"))]
    if not trained:
        raise Tf1CompatError(f"--plot {path}: none of the examples run trains a model; "
                             "run without --only, or include a training example")
    figure, axes = plt.subplots(len(trained), len(METRICS), squeeze=False,
                                figsize=(5 * len(METRICS), 3 * len(trained)))
    for line, row in enumerate(trained):
        for column, (metric, title) in enumerate(METRICS):
            axis = axes[line][column]
            for form, style in (("tf1", "o-"), ("tf2", "x--")):
                values = row[form]["history"][metric]
                axis.plot(range(1, len(values) + 1), values, style,
                          label=f"{form.upper()} ({row[form]['summary'].split(':')[0]})")
            axis.set_title(f"{row['example']}: {title}", fontsize=9)
            axis.set_xlabel("epoch")
            axis.xaxis.set_major_locator(MaxNLocator(integer=True))
            axis.legend(fontsize=7)
    figure.tight_layout()
    try:
        figure.savefig(path, dpi=110)
    except OSError as error:
        raise Tf1CompatError(f"--plot {path}: cannot write it ({error.strerror})") from None
    finally:
        plt.close(figure)
    return len(trained)
