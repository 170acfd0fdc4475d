-- A member's pace (their grades a day over the last four weeks, which the practice choice
-- counts on) is read from this index: their first grade and the count of the last four
-- weeks' grades, without reading the rest of their log. Replaced grades do not count.
CREATE INDEX grades_by_member_time ON grades (member_id, graded_at) WHERE replaced_at IS NULL;
