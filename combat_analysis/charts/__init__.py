"""Charts: one look across every report, drawn with matplotlib as PNG files.

- `draw`: the chart kinds of an answer and a match report, and the measurement of what a chart drew;
- `season`: the chart kinds of the season (form, win rates, a leaderboard table);
- `style`: colours, sizes and axis labels, importable without matplotlib;
- `fonts`: fallback fonts for names in CJK and emoji;
- `jobs`: charts to draw, drawn here or in a worker process started before the answer;
- `preview`: a drawn chart made small, as a package's thumbnail and Dagster's metadata preview (Pillow alone).

May import `render`, `formatting`, `settings` and `keys`. Only `jobs`, `style` and `preview` are imported on an
answer's path or on loading the definitions; the drawing modules (and matplotlib) only where a chart is drawn.
"""
