CREATE TABLE quarantine AS
SELECT s.seg, s.match_id, q.line_no, q.reason, q.raw
FROM quarantine_raw q JOIN segs s ON q.f = s.f AND q.line_no BETWEEN s.first_line AND s.last_line
ORDER BY s.seg, q.line_no
