-- Mirrors 027_coach_practice_decisions.sql (a constraint changed in place: no rebuild here).
-- What the member did with the coach's practice card: accepted (the grade its ticks propose
-- became their practice grade), edited (their grade followed the ticks they kept) or
-- dismissed (nothing recorded). Once only: a second press finds the reading decided.
-- decided_at: when.
ALTER TABLE coach_practice_readings DROP CONSTRAINT coach_practice_readings_state_check;
ALTER TABLE coach_practice_readings ADD CONSTRAINT coach_practice_readings_state_check
    CHECK (state IN ('pending', 'ready', 'shown', 'unavailable', 'over_budget', 'accepted',
        'edited', 'dismissed'));
ALTER TABLE coach_practice_readings ADD COLUMN decided_at TEXT;
