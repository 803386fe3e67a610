CREATE TABLE objectives AS
SELECT seg, match_id, line_no, match_second, minute, victim AS target, victim_kind AS target_kind,
       CASE WHEN lower(victim) LIKE '%tower%' THEN 'tower'
            WHEN lower(victim) LIKE '%phoenix%' THEN 'phoenix'
            WHEN lower(victim) LIKE '%titan%' THEN 'titan'
            WHEN lower(victim) LIKE '%gold fury%' THEN 'gold fury'
            WHEN lower(victim) LIKE '%fire giant%' THEN 'fire giant'
            ELSE lower(victim) END AS objective,
       killer, killer_kind,
       -- a minion's or monster's last hit counts for the side that attacked the structure
       CASE WHEN killer_kind = 'player' THEN killer_team
            WHEN victim_team IS NOT NULL THEN 3 - victim_team END AS team
FROM kills WHERE victim_kind IN ('structure', 'boss') ORDER BY seg, line_no
