"""One renderer for every report: a small document model (`document`) and the Jinja2 `templates/` that write it as
markdown and as a self-contained HTML page.

May import `contracts`, `formatting`, `settings` and `keys`.
"""
