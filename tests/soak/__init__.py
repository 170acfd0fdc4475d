"""A team's weeks in one running process, on virtual time: the soak test's scenario
(``scenario``), the platform that notes when it received each message (``platform``)
and what it should have received (``checks``).
``tests/core/scheduling/test_a_week_in_one_process.py`` runs a week of it; ``bench/soak.py`` runs
90 days."""
