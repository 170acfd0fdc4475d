-- FSRS parameters fitted to a workspace's pooled review log: every fit, kept or not, with
-- its figures (reviews fitted on, reviews held out, the held-out log loss of the parameters
-- in use before it and of the fitted ones). The newest kept fit of a workspace is what its
-- memory model uses; with none, FSRS's defaults. `parameters` is a JSON list (21 for
-- FSRS-6); NULL for a fit that failed, whose `error` says why.
CREATE TABLE fitted_parameters (
    id INTEGER PRIMARY KEY,
    platform TEXT NOT NULL,
    workspace TEXT NOT NULL,
    fitted_at TEXT NOT NULL,
    reason TEXT NOT NULL,
    reviews INTEGER NOT NULL,
    held_out INTEGER NOT NULL,
    loss_before REAL,
    loss_fitted REAL,
    kept INTEGER NOT NULL,
    parameters TEXT,
    error TEXT
);
CREATE INDEX fitted_parameters_by_workspace
    ON fitted_parameters (platform, workspace, kept, fitted_at);
