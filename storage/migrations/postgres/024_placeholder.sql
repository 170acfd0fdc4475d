-- Number 024 belongs to another change that has not landed on this branch yet; this empty
-- step only keeps the numbering without gaps so 025 applies. Delete this file when that
-- change's 024 is merged (a database migrated with it must not be kept).
SELECT 1;
