-- Assists per METRICS.md: teammates of the killer (not the killer) who damaged the victim in the
-- ten match seconds up to and including the killing blow.
CREATE TABLE kills AS
WITH blows AS (
    SELECT e.seg, e.match_id, e.line_no, e.match_second, e.minute, e.source AS killer, s.kind AS killer_kind,
           s.team AS killer_team, e.target AS victim, t.kind AS victim_kind, t.team AS victim_team,
           e.item_name AS ability, coalesce(s.kind = 'player' AND t.kind = 'player', false) AS is_player_kill,
           e.location_x, e.location_y
    FROM events e LEFT JOIN entities s ON s.seg = e.seg AND s.name = e.source
    LEFT JOIN entities t ON t.seg = e.seg AND t.name = e.target
    WHERE e.event_type = 'CombatMsg' AND e.type = 'KillingBlow'),
helpers AS (
    SELECT b.seg, b.line_no, list_sort(list_distinct(list(d.source))) AS assists
    FROM blows b JOIN damage d
      ON d.seg = b.seg AND d.target = b.victim AND b.is_player_kill AND d.source_kind = 'player'
     AND d.source_team = b.killer_team AND d.source <> b.killer
     AND d.match_second BETWEEN b.match_second - 10 AND b.match_second
    GROUP BY b.seg, b.line_no)
SELECT b.seg, b.match_id, b.line_no, b.match_second, b.minute, b.killer, b.killer_kind, b.killer_team,
       b.victim, b.victim_kind, b.victim_team, b.ability, b.is_player_kill,
       CASE WHEN b.is_player_kill THEN coalesce(h.assists, CAST([] AS VARCHAR[])) END AS assists,
       b.location_x, b.location_y
FROM blows b LEFT JOIN helpers h ON h.seg = b.seg AND h.line_no = b.line_no ORDER BY b.seg, b.line_no
