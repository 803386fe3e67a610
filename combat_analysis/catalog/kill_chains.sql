-- Kill chains ("multi-kills" as the question defines them; docs/planner.md and docs/season.md): runs of one
-- player's player kills (METRICS.md's kills), in time order (line order within a second), per match.
--   $chain_kills    N: a chain has at least this many kills; a longer run counts once
--   $chain_seconds  S: how close the kills are
--   $chain_window   0: every kill within S seconds of the one before (the chain reading)
--                   1: every kill within S seconds of the chain's first kill (the window reading)
--   $chain_lives    1: a death of the killer (from any source) between two kills ends the chain; 0: it does not
-- One row per chain of at least N kills: the match, the killer with their side, role and god, the chain's kills,
-- its first and last kill's match second, and its victims in order. The comment lines are dropped when it is read
-- (the SQL gate refuses comments); the values are bound as parameters, or written in as checked integers.
WITH RECURSIVE own_events AS (
    SELECT match_id, killer AS player, match_second, line_no, victim, 1 AS is_kill
    FROM kills WHERE is_player_kill
    UNION ALL
    SELECT match_id, victim AS player, match_second, line_no, NULL AS victim, 0 AS is_kill
    FROM kills WHERE victim_kind = 'player'
), lived AS (
    SELECT match_id, player, match_second, line_no, victim, is_kill,
           SUM(1 - is_kill) OVER (PARTITION BY match_id, player ORDER BY match_second, line_no
                                  ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) * $chain_lives AS life
    FROM own_events
), numbered AS (
    SELECT match_id, player, match_second, line_no, victim, life,
           ROW_NUMBER() OVER (PARTITION BY match_id, player ORDER BY match_second, line_no) AS seq
    FROM lived WHERE is_kill = 1
), chained AS (
    SELECT match_id, player, seq, match_second, life, match_second AS opened, 1 AS run
    FROM numbered WHERE seq = 1
    UNION ALL
    SELECT n.match_id, n.player, n.seq, n.match_second, n.life,
           CASE WHEN n.life = c.life AND n.match_second - CASE WHEN $chain_window = 1 THEN c.opened
                                                                ELSE c.match_second END <= $chain_seconds
                THEN c.opened ELSE n.match_second END,
           CASE WHEN n.life = c.life AND n.match_second - CASE WHEN $chain_window = 1 THEN c.opened
                                                                ELSE c.match_second END <= $chain_seconds
                THEN c.run ELSE c.run + 1 END
    FROM chained AS c JOIN numbered AS n ON n.match_id = c.match_id AND n.player = c.player AND n.seq = c.seq + 1
), chains AS (
    SELECT c.match_id, c.player, c.run, COUNT(*) AS kills, MIN(n.match_second) AS start_second,
           MAX(n.match_second) AS end_second, ARRAY_AGG(n.victim ORDER BY n.seq) AS victims
    FROM chained AS c JOIN numbered AS n ON n.match_id = c.match_id AND n.player = c.player AND n.seq = c.seq
    GROUP BY c.match_id, c.player, c.run
    HAVING COUNT(*) >= $chain_kills
)
SELECT ch.match_id, ch.player, p.team, p.role, p.god, ch.kills, ch.start_second, ch.end_second, ch.victims
FROM chains AS ch JOIN players AS p ON p.match_id = ch.match_id AND p.player = ch.player
ORDER BY ch.match_id, ch.start_second, ch.player
LIMIT 100000
