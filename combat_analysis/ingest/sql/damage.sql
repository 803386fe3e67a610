CREATE TABLE damage AS
SELECT e.seg, e.match_id, e.line_no, e.match_second, e.minute, e.source, s.kind AS source_kind,
       s.team AS source_team, e.target, t.kind AS target_kind, t.team AS target_team,
       e.item_name AS ability, e.value1 AS amount, e.value2 AS mitigated, e.type = 'CritDamage' AS is_crit,
       e.location_x, e.location_y
FROM events e LEFT JOIN entities s ON s.seg = e.seg AND s.name = e.source
LEFT JOIN entities t ON t.seg = e.seg AND t.name = e.target
WHERE e.event_type = 'CombatMsg' AND e.type IN ('Damage', 'CritDamage') ORDER BY e.seg, e.line_no
