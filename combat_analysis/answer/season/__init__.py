"""The stages after the query analyst for a question across matches (a plan with a season figure): the data
engineer runs the figure of `season.figures`, the analyst states it and picks its chart, the visualization
stage draws a `charts.season` chart, and the composer words the answer (`season.answers`).

May import the shared parts of `answer` (`env`, `results`, `charting`, `compose`) and the layers below it;
never `answer.match` or `answer.pipeline`.
"""
