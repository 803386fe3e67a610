CREATE TABLE players AS
WITH roles AS (
    SELECT seg, match_id, source AS player, TRY_CAST(value1 AS INTEGER) AS team,
           regexp_replace(item_name, '^E', '') AS role,
           row_number() OVER (PARTITION BY seg, source ORDER BY line_no DESC) AS newest
    FROM events WHERE event_type = 'playermsg' AND type = 'RoleAssigned'),
picks AS (
    SELECT seg, source AS player, item_name AS god,
           row_number() OVER (PARTITION BY seg, source ORDER BY time DESC, line_no DESC) AS newest
    FROM events WHERE event_type = 'playermsg' AND type = 'GodPicked')
SELECT r.seg, r.match_id, r.player, r.team, r.role, p.god
FROM roles r LEFT JOIN picks p ON p.seg = r.seg AND p.player = r.player AND p.newest = 1
WHERE r.newest = 1 ORDER BY r.seg, r.team, r.player
