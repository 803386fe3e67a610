CREATE TABLE rewards AS
SELECT e.seg, e.match_id, e.line_no, e.match_second, e.minute,
       CASE e.type WHEN 'Currency' THEN 'gold' ELSE 'experience' END AS reward,
       e.source AS giver, g.kind AS giver_kind, e.target AS recipient, r.kind AS recipient_kind,
       r.team AS recipient_team, e.value1 AS amount
FROM events e LEFT JOIN entities g ON g.seg = e.seg AND g.name = e.source
LEFT JOIN entities r ON r.seg = e.seg AND r.name = e.target
WHERE e.event_type = 'RewardMsg' AND e.type IN ('Currency', 'Experience') ORDER BY e.seg, e.line_no
