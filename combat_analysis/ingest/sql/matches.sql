-- The winner is the team that took the first titan (in line order), whatever that row's team is.
CREATE TABLE matches AS
WITH titans AS (SELECT seg, first(team ORDER BY line_no) AS winner_team FROM objectives
                WHERE objective = 'titan' GROUP BY seg),
bad AS (SELECT seg, count(*) AS n FROM quarantine GROUP BY seg)
SELECT s.seg, s.match_id, s.started_at, s.ended_at, s.duration_s, t.winner_team, s.source_file,
       s.source_sha256, s.last_line - s.first_line + 1 AS lines_total,
       s.last_line - s.first_line + 1 - coalesce(b.n, 0) AS lines_parsed,
       coalesce(b.n, 0) AS lines_quarantined
FROM segs s LEFT JOIN titans t ON t.seg = s.seg LEFT JOIN bad b ON b.seg = s.seg
ORDER BY s.seg
