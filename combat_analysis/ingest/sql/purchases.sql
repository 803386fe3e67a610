CREATE TABLE purchases AS
SELECT e.seg, e.match_id, e.line_no, e.match_second, e.minute, e.source AS player, p.team,
       row_number() OVER (PARTITION BY e.seg, e.source ORDER BY e.time, e.line_no) AS seq,
       e.item_id, e.item_name AS item
FROM events e LEFT JOIN players p ON p.seg = e.seg AND p.player = e.source
WHERE e.event_type = 'itemmsg' AND e.type = 'ItemPurchase' ORDER BY e.seg, e.line_no
