"""The SQL of the reports: leaderboards, a member's standing, a channel's counts.

Boards count every answer's points (votes on a later answer count too, and the points for
quality of first answers, which are in them) and the member's scoring answers (one per round
answered), so extra replies in a round never improve a member's standing by themselves.
"""

from __future__ import annotations

# Bonus points (an approved suggestion, a review written) count like answer points but are
# no answer; a member with bonuses only sorts after those who answered ('~' sorts after
# every timestamp). Each table is summed per member first, so the answers are grouped along
# their covering index (ordered by member) and only one row per member and table is merged.
_POINTS_SINCE = """
    SELECT member_id, SUM(points) AS points, SUM(scoring) AS scoring, MIN(answered_at) AS at,
           SUM(quality_points) AS quality
    FROM answers WHERE channel_id = :channel AND answered_at >= :since GROUP BY member_id
    UNION ALL
    SELECT member_id, SUM(points), 0, '~', 0 FROM bonuses
    WHERE channel_id = :channel AND awarded_at >= :since GROUP BY member_id
    UNION ALL
    SELECT reviewer_id, SUM(points), 0, '~', 0 FROM answer_reviews
    WHERE channel_id = :channel AND reviewed_at >= :since AND points > 0 GROUP BY reviewer_id
"""

# Ordering of a board: points, then answers, then the earlier first answer, then member id.
LEADERBOARD = f"""
SELECT b.member_id, m.display_name, m.member, b.points, b.answers, b.quality
FROM (
    SELECT member_id, SUM(points) AS points, SUM(scoring) AS answers, MIN(at) AS first_at,
           SUM(quality) AS quality
    FROM ({_POINTS_SINCE}) AS earned
    GROUP BY member_id
    ORDER BY points DESC, answers DESC, first_at, member_id
    LIMIT :limit
) AS b
JOIN members m ON m.id = b.member_id
ORDER BY b.points DESC, b.answers DESC, b.first_at, b.member_id
"""

MEMBER_STANDING = f"""
SELECT points, answers, position FROM (
    SELECT member_id, points, answers,
           ROW_NUMBER() OVER (ORDER BY points DESC, answers DESC, first_at, member_id) AS position
    FROM (
        SELECT member_id, SUM(points) AS points, SUM(scoring) AS answers, MIN(at) AS first_at
        FROM ({_POINTS_SINCE}) AS earned
        GROUP BY member_id
    ) AS board
) AS ranked
WHERE member_id = :member
"""

CHANNEL_STATS = """
SELECT
    (SELECT COUNT(*) FROM rounds WHERE channel_id = :channel) AS rounds,
    (SELECT COUNT(*) FROM answers WHERE channel_id = :channel AND scoring = 1) AS answers,
    (SELECT COUNT(DISTINCT member_id) FROM answers WHERE channel_id = :channel) AS members,
    (SELECT COUNT(*) FROM votes v JOIN answers a ON a.id = v.answer_id
        WHERE a.channel_id = :channel) AS votes,
    (SELECT COUNT(*) FROM rounds WHERE channel_id = :channel AND revealed_at IS NOT NULL)
        AS revealed_rounds,
    (SELECT COUNT(*) FROM outbox o JOIN rounds r ON r.id = o.round_id
        WHERE r.channel_id = :channel AND o.state = 'pending') AS pending_actions,
    (SELECT COUNT(*) FROM outbox o JOIN rounds r ON r.id = o.round_id
        WHERE r.channel_id = :channel AND o.state = 'failed') AS failed_actions
"""
