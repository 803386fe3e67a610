"""The contracts between the parts: what a question becomes and what each stage hands the next.

- `plan`: the typed `QueryPlan` a question becomes, and the `SqlQuery`s it compiles to;
- `package`: the Agent Data Package every stage reads and returns (docs/package.md);
- `schema`: the warehouse's tables and columns;
- `selection`: which matches a cross-match figure reads (`MatchSelection`).

Plain data (pydantic models and constants). May import only `formatting`, `settings` and `keys`: every other
package imports these, so they import none of them.
"""
