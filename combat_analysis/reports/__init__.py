"""The reports built by themselves, without a question: one per match (`match`) and the season's (`season`).

May import `answer` (a match report answers its battery of questions through the pipeline and uses the MVP
rule and the match patterns), `season`, `charts`, `render` and the layers below them.
"""
