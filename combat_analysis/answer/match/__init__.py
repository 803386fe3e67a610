"""The stages after the query analyst for a question about one match: the data engineer runs the plan's SQL,
the analyst finds what stands out and picks charts by the result's shape, the visualization stage draws them,
and the composer words the answer (`wording`) and answers the follow-ups.

May import the shared parts of `answer` (`env`, `results`, `charting`, `compose`, `patterns`, `report`) and the
layers below it; never `answer.season` or `answer.pipeline`.
"""
