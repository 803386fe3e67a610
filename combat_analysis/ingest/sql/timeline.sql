CREATE TABLE timeline AS
WITH minutes AS (SELECT seg, CAST(unnest(range(0, last_minute + 1)) AS INTEGER) AS minute FROM segs),
grid AS (SELECT p.seg, p.match_id, m.minute, p.player, p.team FROM players p JOIN minutes m ON m.seg = p.seg),
earned AS (SELECT seg, minute, recipient AS player, sum(amount) FILTER (WHERE reward = 'gold') AS gold,
                  sum(amount) FILTER (WHERE reward = 'experience') AS experience
           FROM rewards WHERE minute >= 0 GROUP BY ALL),
dealt AS (SELECT seg, minute, source AS player, sum(amount) AS damage FROM damage WHERE minute >= 0
          GROUP BY ALL),
per_minute AS (
    SELECT g.seg, g.match_id, g.minute, g.player, g.team, coalesce(e.gold, 0) AS gold,
           coalesce(e.experience, 0) AS experience, coalesce(d.damage, 0) AS damage
    FROM grid g LEFT JOIN earned e USING (seg, minute, player) LEFT JOIN dealt d USING (seg, minute, player))
SELECT *, sum(gold) OVER w AS cum_gold, sum(experience) OVER w AS cum_experience,
       sum(damage) OVER w AS cum_damage
FROM per_minute
WINDOW w AS (PARTITION BY seg, player ORDER BY minute ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
ORDER BY seg, minute, team, player
