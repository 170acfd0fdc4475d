-- Mirrors 026_coach_stand_in.sql (a constraint changed in place: no rebuild here).
-- A grade may come from the coach (source 'coach'): for a member who has not graded the
-- round when the coach's card of their answer is due, the grade its verified ticks propose
-- stands in, while the coach meets the stand-in rule; their reviewers' grade outranks it
-- and their own grade replaces it.
ALTER TABLE grades DROP CONSTRAINT grades_source_check;
ALTER TABLE grades ADD CONSTRAINT grades_source_check
    CHECK (source IN ('self', 'reviews', 'coach'));
