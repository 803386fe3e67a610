CREATE TABLE player_stats AS
WITH dealt AS (
    SELECT seg, source AS player, sum(amount) AS damage_dealt,
           sum(amount) FILTER (WHERE target_kind = 'player') AS damage_to_players,
           sum(amount) FILTER (WHERE target_kind = 'structure') AS damage_to_structures,
           sum(amount) FILTER (WHERE target_kind = 'minion') AS damage_to_minions,
           sum(amount) FILTER (WHERE target_kind = 'jungle') AS damage_to_jungle,
           sum(amount) FILTER (WHERE target_kind = 'boss') AS damage_to_bosses,
           count(*) FILTER (WHERE is_crit) AS crits, max(amount) AS biggest_hit
    FROM damage GROUP BY seg, source),
taken AS (SELECT seg, target AS player, sum(amount) AS damage_taken, sum(mitigated) AS damage_mitigated
          FROM damage GROUP BY seg, target),
healed AS (SELECT seg, source AS player, sum(amount) AS healing_done FROM healing GROUP BY seg, source),
received AS (SELECT seg, target AS player, sum(amount) AS healing_received FROM healing GROUP BY seg, target),
kill_counts AS (SELECT seg, killer AS player, count(*) AS kills FROM kills WHERE is_player_kill
                GROUP BY seg, killer),
death_counts AS (SELECT seg, victim AS player, count(*) AS deaths FROM kills GROUP BY seg, victim),
assist_counts AS (SELECT seg, player, count(*) AS assists
                  FROM (SELECT seg, unnest(assists) AS player FROM kills WHERE is_player_kill)
                  GROUP BY seg, player),
earned AS (SELECT seg, recipient AS player, sum(amount) FILTER (WHERE reward = 'gold') AS gold,
                  sum(amount) FILTER (WHERE reward = 'experience') AS experience
           FROM rewards GROUP BY seg, recipient),
cc AS (SELECT seg, source AS player, count(*) AS cc_applied FROM crowd_control GROUP BY seg, source),
bought AS (SELECT seg, player, count(*) AS items_purchased FROM purchases GROUP BY seg, player),
roster AS (SELECT p.*, s.rate_seconds FROM players p JOIN segs s ON s.seg = p.seg)
SELECT p.seg, p.match_id, p.player, p.team, p.role, p.god,
       coalesce(damage_dealt, 0) AS damage_dealt, coalesce(damage_to_players, 0) AS damage_to_players,
       coalesce(damage_to_structures, 0) AS damage_to_structures,
       coalesce(damage_to_minions, 0) AS damage_to_minions, coalesce(damage_to_jungle, 0) AS damage_to_jungle,
       coalesce(damage_to_bosses, 0) AS damage_to_bosses, coalesce(damage_taken, 0) AS damage_taken,
       coalesce(damage_mitigated, 0) AS damage_mitigated, coalesce(healing_done, 0) AS healing_done,
       coalesce(healing_received, 0) AS healing_received, coalesce(crits, 0) AS crits,
       coalesce(biggest_hit, 0) AS biggest_hit, coalesce(kills, 0) AS kills,
       coalesce(deaths, 0) AS deaths, coalesce(assists, 0) AS assists,
       (coalesce(kills, 0) + coalesce(assists, 0)) / greatest(coalesce(deaths, 0), 1) AS kda,
       coalesce(gold, 0) AS gold, coalesce(experience, 0) AS experience,
       coalesce(gold, 0) / (p.rate_seconds / 60) AS gpm,
       coalesce(damage_dealt, 0) / (p.rate_seconds / 60) AS dpm,
       coalesce(cc_applied, 0) AS cc_applied, coalesce(items_purchased, 0) AS items_purchased
FROM roster p
LEFT JOIN dealt USING (seg, player) LEFT JOIN taken USING (seg, player) LEFT JOIN healed USING (seg, player)
LEFT JOIN received USING (seg, player) LEFT JOIN kill_counts USING (seg, player)
LEFT JOIN death_counts USING (seg, player) LEFT JOIN assist_counts USING (seg, player)
LEFT JOIN earned USING (seg, player) LEFT JOIN cc USING (seg, player) LEFT JOIN bought USING (seg, player)
ORDER BY p.seg, p.team, p.player
