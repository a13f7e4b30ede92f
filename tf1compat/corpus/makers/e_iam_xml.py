"""IAM On-Line Handwriting: `lineStrokes/<a>/<a-nnn>/<a-nnn-xx>.xml` pen trajectories."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def iam_linestrokes(into: Path, files: int = 30, strokes: int = 6, points: int = 40,
                    seed: int = 15) -> None:
    """`into/lineStrokes/...xml`: a WhiteboardDescription (sensor location and the board's
    corner coordinates) then a StrokeSet of Strokes of Points (x, y, time), as in the IAM-OnDB
    line files; the pen draws loops that drift right, one word-like stroke after another."""
    rng = np.random.RandomState(seed)
    for index in range(files):
        folder = into / "lineStrokes" / "a01" / f"a01-{index // 10:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        x, y, t = 1000.0, 1200.0, 100.0
        rows = ['<?xml version="1.0" encoding="ISO-8859-1"?>', "<WhiteboardCaptureSession>",
                "  <WhiteboardDescription>",
                '    <SensorLocation corner="top_left"/>',
                '    <DiagonallyOppositeCoords x="6512" y="1376"/>',
                '    <VerticallyOppositeCoords x="966" y="1376"/>',
                '    <HorizontallyOppositeCoords x="6512" y="787"/>',
                "  </WhiteboardDescription>", "  <StrokeSet>"]
        for s in range(strokes):
            rows.append(f'    <Stroke colour="black" start_time="{t:.2f}" end_time="{t + 1:.2f}">')
            phase = rng.uniform(0, 6.28)
            for p in range(points):
                x += 6 + 10 * np.cos(phase + p * 0.5) + rng.randint(-2, 3)
                y = 1200 + 60 * np.sin(phase + p * 0.35) + rng.randint(-3, 4)
                t += 0.01
                rows.append(f'      <Point x="{int(x)}" y="{int(y)}" time="{t:.2f}"/>')
            rows.append("    </Stroke>")
            x += 40 + rng.randint(0, 30)
            t += 0.3
        rows += ["  </StrokeSet>", "</WhiteboardCaptureSession>"]
        name = f"a01-{index // 10:03d}{'uxz'[index % 3]}-{index % 10:02d}.xml"
        (folder / name).write_text("\n".join(rows) + "\n", encoding="ISO-8859-1")


MAKERS = {"iam_linestrokes": iam_linestrokes}
