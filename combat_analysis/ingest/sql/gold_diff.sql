CREATE TABLE gold_diff AS
SELECT seg, match_id, minute, sum(cum_gold) FILTER (WHERE team = 1) AS team1_gold,
       sum(cum_gold) FILTER (WHERE team = 2) AS team2_gold,
       coalesce(sum(cum_gold) FILTER (WHERE team = 1), 0)
         - coalesce(sum(cum_gold) FILTER (WHERE team = 2), 0) AS gold_diff
FROM timeline GROUP BY seg, match_id, minute ORDER BY seg, minute
